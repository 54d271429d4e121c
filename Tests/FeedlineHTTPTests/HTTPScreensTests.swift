@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import Foundation
import Testing

/// The feeds and calls of the screens beyond the home timeline — profiles, hashtags, the local
/// and public timelines, bookmarks, favourites, threads and bookmarking — against the fake
/// server over real HTTP, checked on both sides: what the service returns and what the server saw.
@Suite("HTTP screens")
struct HTTPScreensTests {
    /// Every status of the fixtures (home timeline and elsewhere), newest first.
    static func known() throws -> [Mastodon.Status] {
        FakeMastodon.newestFirst(try FixtureStatuses.timeline() + FixtureStatuses.elsewhere())
    }

    /// Kemi's posts (not her direct messages), newest first, and her account.
    static func kemi() throws -> (account: Mastodon.Account, posts: [PostID]) {
        let posts = try known().filter { $0.account.acct == FixtureStatuses.kemi && $0.visibility != .direct }
        let account = try #require(posts.first?.account)
        return (account, posts.map { PostID($0.id) })
    }

    // MARK: - Profiles

    @Test("an account by id: GET /api/v1/accounts/ID/statuses, paged by its Link to the end")
    func accountByID() async throws {
        let (account, expected) = try Self.kemi()
        try #require(expected.count > 20, "the fixtures give Kemi more than a page of posts")
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            let pages = try await walk(service, .account(AccountID(account.id)))
            #expect(pages.flatMap(\.posts).map(\.id) == expected)
            let requests = fake.requests
            #expect(requests.allSatisfy { $0.method == "GET" && $0.path == "/api/v1/accounts/\(account.id)/statuses" })
            // The first page asks for the pinned posts beside it (in either order); the next does not.
            #expect(requests.filter { $0.query["pinned"] == nil }.map(\.query) == [["limit": "20"], ["limit": "20", "max_id": expected[19].rawValue]])
            #expect(requests.filter { $0.query["pinned"] != nil }.map(\.query) == [["pinned": "true", "limit": "40"]])
        }
    }

    @Test("an account by handle is looked up once (GET /api/v1/accounts/lookup), then read by the id found")
    func accountByHandle() async throws {
        let (account, expected) = try Self.kemi()
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            let feed = Feed.account(AccountID(handle: FixtureStatuses.kemi))
            let first = try await service.page(of: feed, after: nil)
            let second = try await service.page(of: feed, after: first.next)
            #expect((first.posts + second.posts).map(\.id) == expected)
            #expect(second.next == nil)

            // The same handle again — written otherwise, in a refresh, in a new page — is not looked up again.
            let again = try await service.page(of: .account(AccountID(handle: "@Kemi@FieldNotes.science")), after: nil)
            #expect(again.posts.map(\.id) == Array(expected.prefix(20)))
            let newer = try await service.newer(in: feed, than: expected[5], olderThan: nil)
            #expect(newer.posts.map(\.id) == Array(expected.prefix(5)) && !newer.hasMore)

            let requests = fake.requests
            let lookups = requests.filter { $0.path == "/api/v1/accounts/lookup" }
            #expect(lookups.map(\.query) == [["acct": FixtureStatuses.kemi]])
            #expect(requests.first?.path == "/api/v1/accounts/lookup")
            #expect(requests.dropFirst().allSatisfy { $0.path == "/api/v1/accounts/\(account.id)/statuses" })
            // Two first pages, each with its pinned posts beside it; the page after and the refresh without.
            #expect(requests.count == 7 && requests.filter { $0.query["pinned"] == "true" }.count == 2)
            #expect(requests.last?.query == ["since_id": expected[5].rawValue, "limit": "21"])
        }
    }

    @Test("a handle on the server's own address, port and all (as Feedline names the signed-in user), is looked up as the local user")
    func handleOnThisServer() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let mira = try await service.account(named: "@mira@\(server.authority)")
            #expect(mira.handle == "mira")
            #expect(fake.requests.map(\.query) == [["acct": "mira"]])
        }
    }

    @Test("an unknown handle is a sentence naming it, asks for no statuses, and is looked up (and searched for, resolving) again next time")
    func unknownHandle() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let feed = Feed.account(AccountID(handle: "nobody@nowhere.example"))
            let error = await thrownError { _ = try await service.page(of: feed, after: nil) }
            let message = "There is no account @nobody@nowhere.example (asked \(server))"
            #expect(error as? MastodonHTTPError == .notFound(serverMessage: message))
            let failure = FeedFailure(try #require(error))
            #expect(failure.message == message + ".")
            #expect(!failure.isTransient)
            _ = await thrownError { _ = try await service.page(of: feed, after: nil) }
            let lookup = "GET /api/v1/accounts/lookup [(key: \"acct\", value: \"nobody@nowhere.example\")]"
            let search = "GET /api/v2/search [(key: \"limit\", value: \"1\"), (key: \"q\", value: \"@nobody@nowhere.example\"), (key: \"resolve\", value: \"true\"), (key: \"type\", value: \"accounts\")]"
            #expect(fake.requests.map(\.description) == [lookup, search, lookup, search])
            expectNoToken(failure)
        }
    }

    // MARK: - Hashtags, local and public

    @Test("a hashtag: GET /api/v1/timelines/tag/NAME, every post with it, paged to the end")
    func hashtag() async throws {
        let expected = try Self.known()
            .filter { status in status.reblog == nil && status.visibility == .public && status.tags.contains { $0.name.lowercased() == "birds" } }
            .map { PostID($0.id) }
        try #require(expected.count > 20)
        try await withFixtureServer { fake, server in
            let service = try makeService(server, token: nil, pageSize: 10)
            let pages = try await walk(service, .tag("birds"))
            #expect(pages.flatMap(\.posts).map(\.id) == expected)
            let requests = fake.requests
            #expect(requests.count == (expected.count + 10) / 10)  // full pages, then a short or empty one
            #expect(requests.allSatisfy { $0.path == "/api/v1/timelines/tag/birds" && $0.authorization == nil })
            #expect(requests.dropFirst().map { $0.query["max_id"] } == stride(from: 9, to: expected.count, by: 10).map { expected[$0].rawValue })
        }
    }

    @Test("local keeps local=true on every page, those reached through Link and those rebuilt from a foreign one; public sends none")
    func localAndPublic() async throws {
        let timeline = try FixtureStatuses.timeline()
        let local = timeline.filter { !$0.account.acct.contains("@") }.map { PostID($0.id) }
        try #require(local.count > 10)
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 4)
            let pages = try await walk(service, .local)
            #expect(pages.flatMap(\.posts).map(\.id) == local)
            #expect(pages.count > 2)
            let requests = fake.requests
            #expect(requests.count == pages.count)
            #expect(requests.allSatisfy { $0.path == "/api/v1/timelines/public" && $0.query["local"] == "true" })

            // A next link to another host: its max_id is asked of this server, still local.
            fake.enqueue(
                FakeMastodon.Canned(
                    pathPrefix: "/api/v1/timelines/public", status: 200,
                    headers: ["Link": "<https://elsewhere.example/api/v1/timelines/public?max_id=\(local[1])>; rel=\"next\""],
                    body: String(decoding: try Mastodon.makeEncoder().encode(timeline.filter { $0.id == local[0].rawValue || $0.id == local[1].rawValue }), as: UTF8.self)
                )
            )
            let first = try await service.page(of: .local, after: nil)
            let second = try await service.page(of: .local, after: first.next)
            #expect(second.posts.map(\.id) == Array(local[2..<6]))
            #expect(fake.requests.last?.query == ["local": "true", "max_id": local[1].rawValue, "limit": "4"])

            let before = fake.requests.count
            let federated = try await service.page(of: .public, after: nil)
            #expect(federated.posts.map(\.id) == timeline.prefix(4).map { PostID($0.id) })
            #expect(fake.requests.dropFirst(before).map(\.description) == ["GET /api/v1/timelines/public [(key: \"limit\", value: \"4\")]"])
        }
    }

    // MARK: - Bookmarks and favourites

    /// Which list, and how many statuses a test marks in it besides those the fixtures mark.
    enum Marked: String, CaseIterable, CustomTestStringConvertible {
        case bookmarks, favourites
        var feed: Feed { self == .bookmarks ? .bookmarks : .favourites }
        var path: String { "/api/v1/\(rawValue)" }
        /// 10 bookmarks end on a short page of 4; 20 favourites on an empty page.
        var total: Int { self == .bookmarks ? 10 : 20 }
        var testDescription: String { rawValue }
    }

    @Test("bookmarks and favourites are paged by their own record ids, which only Link gives: followed to the end, nothing repeated or skipped", arguments: Marked.allCases)
    func markedLists(_ list: Marked) async throws {
        let statuses = try FixtureStatuses.timeline()
        // Originals not yet marked, marked in an order unlike their ids' (every 9th, from the 7th).
        let candidates = statuses.filter { $0.reblog == nil && $0.bookmarked != true && $0.favourited != true }
        try await withFixtureServer { fake, server in
            let seeded = (list == .bookmarks ? fake.bookmarks : fake.favourites).count
            let picked = stride(from: 6, to: candidates.count, by: 9).prefix(list.total - seeded).map { candidates[$0].id }
            try #require(seeded > 0 && picked.count == list.total - seeded)
            if list == .bookmarks { fake.bookmark(picked) } else { fake.favourite(picked) }
            let records = list == .bookmarks ? fake.bookmarks : fake.favourites
            #expect(records.prefix(picked.count).map(\.statusID) == picked.reversed(), "the newest mark comes first")
            try #require(records.count == list.total)
            let statusIDs = Set(try Self.known().map(\.id))
            #expect(records.allSatisfy { !statusIDs.contains(String($0.id)) }, "record ids are not status ids")

            let service = try makeService(server, pageSize: 4)
            let pages = try await walk(service, list.feed)
            let walked = pages.flatMap(\.posts)
            #expect(walked.map(\.id.rawValue) == records.map(\.statusID))
            #expect(Set(walked.map(\.id)).count == walked.count)
            #expect(walked.allSatisfy { list == .bookmarks ? $0.bookmarked : $0.favourited })
            #expect(pages.last?.posts.count == (list == .bookmarks ? 2 : 0))

            let requests = fake.requests
            #expect(requests.count == pages.count)
            #expect(requests.allSatisfy { $0.path == list.path && $0.authorization == "Bearer \(secretToken)" })
            // Each page after the first starts below the record of the last status before it.
            let cuts = stride(from: 3, to: records.count, by: 4).map { String(records[$0].id) }
            #expect(requests.map(\.query) == [["limit": "4"]] + cuts.map { ["limit": "4", "max_id": $0] })
        }
    }

    @Test("bookmarks need a token: signed out, the server's 401 says to sign in")
    func bookmarksSignedOut() async throws {
        try await withFixtureServer { fake, server in
            let error = await thrownError { _ = try await makeService(server, token: nil).page(of: .bookmarks, after: nil) }
            guard case .unauthorized(_, sentToken: false, _)? = error as? MastodonHTTPError else {
                Issue.record("expected a 401 for a request without a token, got \(String(describing: error))")
                return
            }
            #expect(fake.requests.map(\.path) == ["/api/v1/bookmarks"])
        }
    }

    // MARK: - Threads and bookmarking

    @Test("a thread: GET /api/v1/statuses/ID/context, ancestors root first, descendants depth first")
    func thread() async throws {
        // Kemi's dragonfly thread (1/3 → 2/3 → 3/3), where Mira's reply to 1/3 got one from
        // Kemi, which got one more.
        let root = PostID("117628602097884748")
        let mira = PostID("117628681064525120")
        let kemiReply = PostID("117628718125686107")
        let lastReply = PostID("117628841867741643")
        let parts = [PostID("117628612867543930"), PostID("117628625076856329")]
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let middle = try await service.context(of: kemiReply)
            #expect(middle.ancestors.map(\.id) == [root, mira])
            #expect(middle.descendants.map(\.id) == [lastReply])
            let whole = try await service.context(of: root)
            #expect(whole.ancestors.isEmpty)
            #expect(whole.descendants.map(\.id) == parts + [mira, kemiReply, lastReply])
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == [
                "GET /api/v1/statuses/\(kemiReply)/context", "GET /api/v1/statuses/\(root)/context",
            ])
        }
    }

    @Test("bookmark and unbookmark POST with the token and return the original, also when asked of a boost entry")
    func bookmarking() async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try #require(statuses.first { $0.reblog == nil && $0.bookmarked != true })
        let boost = try #require(statuses.first { $0.reblog != nil && $0.reblog?.bookmarked != true })
        let original = try #require(boost.reblog?.original)
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let marked = try await service.set(.bookmark, to: true, postID: PostID(target.id))
            #expect(marked.id.rawValue == target.id && marked.bookmarked)
            #expect(fake.status(target.id)?.bookmarked == true)
            let unmarked = try await service.set(.bookmark, to: false, postID: PostID(target.id))
            #expect(unmarked.id.rawValue == target.id && !unmarked.bookmarked)
            #expect(fake.status(target.id)?.bookmarked == false)

            // The server answers a boost entry's bookmark with the boost, unmarked itself: the
            // original inside it is what was bookmarked.
            let viaBoost = try await service.set(.bookmark, to: true, postID: PostID(boost.id))
            #expect(viaBoost.id.rawValue == original.id && viaBoost.reblog == nil && viaBoost.bookmarked)
            #expect(fake.bookmarks.first?.statusID == original.id)
            let listed = try await service.page(of: .bookmarks, after: nil)
            #expect(listed.posts.first?.id.rawValue == original.id)

            let posts = fake.requests.filter { $0.method == "POST" }
            #expect(posts.map(\.path) == [
                "/api/v1/statuses/\(target.id)/bookmark", "/api/v1/statuses/\(target.id)/unbookmark", "/api/v1/statuses/\(boost.id)/bookmark",
            ])
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }
}
