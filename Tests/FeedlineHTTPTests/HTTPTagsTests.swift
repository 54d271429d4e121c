@_spi(FeedService) import Feedline
import FeedlineAccounts
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Hashtags and trends over HTTP, checked against the fake server's Mastodon rules
/// (`FakeMastodon+Tags.swift`): the trends paged by `offset` to their end, the followed hashtags
/// paged by their `Link` header over follow-record ids, follows and unfollows that the list then
/// shows, and every error as its sentence.
@Suite("HTTP hashtags and trends")
struct HTTPTagsTests {
    /// A day of a hashtag's history, as Mastodon sends it.
    static func day(_ offset: Int, uses: Int, accounts: Int) -> Mastodon.Hashtag.Day {
        Mastodon.Hashtag.Day(day: String(1_795_305_600 - offset * 86_400), uses: uses, accounts: accounts)
    }

    /// Three trending hashtags with a few days of history each.
    static let trends = [
        Mastodon.Hashtag(
            name: "Birds", url: "https://x.example/tags/birds",
            history: [day(0, uses: 12, accounts: 5), day(1, uses: 3, accounts: 2), day(2, uses: 0, accounts: 0)]
        ),
        Mastodon.Hashtag(name: "gardening", url: "https://x.example/tags/gardening", history: [day(0, uses: 4, accounts: 4)]),
        Mastodon.Hashtag(name: "Tidepools", url: "https://x.example/tags/tidepools", history: [day(0, uses: 1, accounts: 1), day(1, uses: 2, accounts: 1)]),
    ]

    /// Every page of a list from the top (at most 10 pages: a loop is a failure).
    static func walkList<Item>(
        sourceLocation: SourceLocation = #_sourceLocation, _ page: (PageCursor?) async throws -> Page<Item>
    ) async throws -> [Page<Item>] {
        var pages: [Page<Item>] = []
        var cursor: PageCursor?
        repeat {
            let next = try await page(cursor)
            pages.append(next)
            cursor = next.next
        } while cursor != nil && pages.count < 10
        #expect(cursor == nil, "the list did not end within 10 pages", sourceLocation: sourceLocation)
        return pages
    }

    // MARK: - Trending posts

    @Test("the trending posts page by offset (the cursor the next offset) through every public post, most engaged first, to the end")
    func trendingPosts() async throws {
        try await withFixtureServer { fake, server in
            let ranked = fake.trendingStatusIDs
            #expect(ranked.count > 40, "enough for three pages")
            let service = try makeService(server, token: nil)
            let pages = try await walk(service, .trending)
            #expect(pages.flatMap(\.posts).map(\.id.rawValue) == ranked, "every trending post once, in the server's order")
            #expect(pages.count == ranked.count / 20 + 1, "full pages, then a short (or empty) last one")
            #expect(pages.dropLast().allSatisfy { $0.posts.count == 20 })
            #expect(pages.dropLast().map(\.next) == (1..<pages.count).map { PageCursor(String($0 * 20)) })
            let engagement = pages.flatMap(\.posts).map { $0.favouritesCount + $0.reblogsCount }
            #expect(engagement == engagement.sorted(by: >), "most engaged first")

            #expect(fake.requests.allSatisfy { $0.method == "GET" && $0.path == "/api/v1/trends/statuses" })
            #expect(fake.requests.map(\.query) == [["limit": "20"]] + (1..<pages.count).map { ["limit": "20", "offset": String($0 * 20)] })
            #expect(fake.requests.allSatisfy { $0.authorization == nil }, "trends need no user")
            #expect(try Feed(parsing: " Trending ") == .trending, "--timeline trending")
        }
    }

    @Test("a full page without a next link ends the trends; one with it goes on from offset + its size; nothing is newer than a trend")
    func trendingPostsEnd() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 2)
            let two = try FixtureStatuses.timeline().prefix(2)
            let body = String(decoding: try Mastodon.makeEncoder().encode(Array(two)), as: UTF8.self)
            fake.enqueue(FakeMastodon.Canned(method: "GET", pathPrefix: "/api/v1/trends/statuses", status: 200, body: body))
            let unlinked = try await service.page(of: .trending, after: nil)
            #expect(unlinked.posts.map(\.id.rawValue) == two.map(\.id))
            #expect(unlinked.next == nil, "no next link: the end")

            let linked = try await service.page(of: .trending, after: PageCursor("4"))
            #expect(linked.next == PageCursor("6"))
            #expect(fake.requests.last?.query == ["limit": "2", "offset": "4"])

            // A short page ends the trends even with a next link (Mastodon sends none after one).
            let one = String(decoding: try Mastodon.makeEncoder().encode(Array(two.prefix(1))), as: UTF8.self)
            let next = ["Link": "<\(server.url.absoluteString)/api/v1/trends/statuses?limit=2&offset=8>; rel=\"next\""]
            fake.enqueue(FakeMastodon.Canned(method: "GET", pathPrefix: "/api/v1/trends/statuses", status: 200, headers: next, body: one))
            let short = try await service.page(of: .trending, after: PageCursor("6"))
            #expect(short.posts.count == 1)
            #expect(short.next == nil)

            let count = fake.requests.count
            let newer = try await service.newer(in: .trending, than: PostID(two[1].id), olderThan: nil)
            #expect(newer == NewerPage(posts: [], hasMore: false))
            #expect(fake.requests.count == count, "no request")
        }
    }

    @Test("a cursor that is no offset is refused before anything is sent; a server without trends says so")
    func trendingPostsRefused() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let bad = await thrownError { _ = try await service.page(of: .trending, after: PageCursor("https://elsewhere.example/x")) }
            #expect(
                FeedFailure(try #require(bad)).message
                    == "The server could not do this (\"the trending posts cannot go on from \"https://elsewhere.example/x\"\")."
            )
            #expect(fake.requests.isEmpty)

            fake.fail("/api/v1/trends/statuses", status: 404, error: "Record not found")
            let missing = await thrownError { _ = try await service.page(of: .trending, after: nil) }
            #expect(FeedFailure(try #require(missing)).message == "The server does not show the trending posts (asked \(server)).")
            fake.fail("/api/v1/trends/tags", status: 404, error: "Not Found")
            let missingTags = await thrownError { _ = try await service.trendingTags(after: nil) }
            #expect(FeedFailure(try #require(missingTags)).message == "The server does not show the trending hashtags (asked \(server)).")
        }
    }

    // MARK: - Trending hashtags

    @Test("trending hashtags page by offset with their week's use summed from the history and whether you follow them")
    func trendingTags() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.trend(Self.trends)
            fake.followTags(["birds"])
            let pages = try await Self.walkList { try await makeService(server, pageSize: 2).trendingTags(after: $0) }
            #expect(
                pages.map(\.items) == [
                    [
                        Hashtag(name: "Birds", weeklyUses: 15, weeklyAccounts: 7, following: true),
                        Hashtag(name: "gardening", weeklyUses: 4, weeklyAccounts: 4, following: false),
                    ],
                    [Hashtag(name: "Tidepools", weeklyUses: 3, weeklyAccounts: 2, following: false)],
                ]
            )
            #expect(pages.map(\.next) == [PageCursor("2"), nil])
            #expect(fake.requests.map(\.path) == ["/api/v1/trends/tags", "/api/v1/trends/tags"])
            #expect(fake.requests.map(\.query) == [["limit": "2"], ["limit": "2", "offset": "2"]])

            // Mastodon serves at most 20 trending hashtags a page: a larger page asks for 20.
            let wide = try await makeService(server, token: nil, pageSize: 40).trendingTags(after: nil)
            #expect(wide.items.map(\.following) == [nil, nil, nil], "a visitor is not told")
            #expect(wide.next == nil)
            #expect(fake.requests.last?.query == ["limit": "20"])
            #expect(fake.requests.last?.authorization == nil)
        }
    }

    // MARK: - Following

    @Test("follow then unfollow: POST …/follow and …/unfollow with the name as typed but #, and the followed hashtags, paged by Link, show each")
    func followRoundTrip() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.followTags(["older", "oldest"])
            let service = try makeService(server, pageSize: 2)

            let followed = try await service.setTagFollow(" #Birds", to: true)
            #expect(followed == Hashtag(name: "Birds", following: true))
            #expect(fake.followedTagNames == ["Birds", "older", "oldest"])
            #expect(try await service.setTagFollow("birds", to: true).following == true, "following again changes nothing")
            #expect(fake.followedTagNames == ["Birds", "older", "oldest"])

            let records = fake.followedTagRecordIDs.map(String.init)
            let pages = try await Self.walkList { try await service.followedTags(after: $0) }
            #expect(
                pages.map(\.items) == [
                    [Hashtag(name: "Birds", following: true), Hashtag(name: "older", following: true)],
                    [Hashtag(name: "oldest", following: true)],
                ]
            )
            let reads = fake.requests.filter { $0.method == "GET" }
            #expect(reads.map(\.path) == ["/api/v1/followed_tags", "/api/v1/followed_tags"])
            #expect(reads.map(\.query) == [["limit": "2"], ["limit": "2", "max_id": records[1]]], "the next page by the follow record's id")

            let unfollowed = try await service.setTagFollow("BIRDS", to: false)
            #expect(unfollowed == Hashtag(name: "Birds", following: false))
            #expect(try await Self.walkList { try await service.followedTags(after: $0) }.flatMap(\.items).map(\.name) == ["older", "oldest"])
            _ = try await service.setTagFollow("never", to: false)

            let writes = fake.requests.filter { $0.method == "POST" }
            #expect(
                writes.map(\.encodedPath) == [
                    "/api/v1/tags/Birds/follow", "/api/v1/tags/birds/follow", "/api/v1/tags/BIRDS/unfollow", "/api/v1/tags/never/unfollow",
                ]
            )
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a server that leaves following out: a followed hashtag is followed, a follow's answer is what was asked")
    func followingLeftOut() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            fake.enqueue(FakeMastodon.Canned(method: "GET", pathPrefix: "/api/v1/followed_tags", status: 200, body: #"[{"name":"birds","url":""}]"#))
            #expect(try await service.followedTags(after: nil).items == [Hashtag(name: "birds", following: true)])
            for value in [true, false] {
                fake.enqueue(FakeMastodon.Canned(method: "POST", pathPrefix: "/api/v1/tags/", status: 200, body: #"{"name":"birds","url":""}"#))
                #expect(try await service.setTagFollow("birds", to: value) == Hashtag(name: "birds", following: value))
            }
        }
    }

    @Test("a name beyond ASCII is percent-encoded in the path, and read back as it was")
    func encodedName() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            #expect(try await service.setTagFollow("café", to: true) == Hashtag(name: "café", following: true))
            #expect(fake.requests.last?.encodedPath == "/api/v1/tags/caf%C3%A9/follow")
            #expect(try await service.followedTags(after: nil).items == [Hashtag(name: "café", following: true)])
        }
    }

    @Test("a list whose size is a multiple of the page ends on the empty page after it; the trending hashtags on a short one")
    func listsEnd() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.followTags(["a1", "a2", "a3", "a4"])
            fake.trend(Self.trends + [Mastodon.Hashtag(name: "four")])
            let service = try makeService(server, pageSize: 2)
            #expect(try await Self.walkList { try await service.followedTags(after: $0) }.map(\.items.count) == [2, 2, 0])
            #expect(try await Self.walkList { try await service.trendingTags(after: $0) }.map(\.items.count) == [2, 2, 0])
            fake.trend(Self.trends)
            #expect(try await Self.walkList { try await service.trendingTags(after: $0) }.map(\.items.count) == [2, 1])
        }
    }

    // MARK: - Errors

    @Test("a name that is no hashtag (404) and one the server refuses (422) are sentences, not transient; an empty one is refused unsent")
    func refusals() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            let notATag = await thrownError { _ = try await service.setTagFollow("a-b", to: true) }
            #expect(
                FeedFailure(try #require(notATag)).message
                    == "There is no hashtag #a-b to follow (asked \(server)): a hashtag has only letters, digits and underscores."
            )

            fake.fail("/api/v1/tags/", method: "POST", status: 422, error: "Validation failed: You can follow at most 1000 hashtags")
            let limited = await thrownError { _ = try await service.setTagFollow("birds", to: true) }
            #expect(FeedFailure(try #require(limited)).message == "The server could not do this (\"Validation failed: You can follow at most 1000 hashtags\").")
            fake.fail("/api/v1/tags/", method: "POST", status: 422)
            let bare = await thrownError { _ = try await service.setTagFollow("birds", to: false) }
            #expect(FeedFailure(try #require(bare)).message == "The server could not do this (\"#birds is not a hashtag it lets you unfollow\").")

            let count = fake.requests.count
            let empty = await thrownError { _ = try await service.setTagFollow(" # ", to: true) }
            #expect(FeedFailure(try #require(empty)).message == "The server could not do this (\"there is no hashtag to follow\").")
            #expect(fake.requests.count == count, "nothing sent")

            for error in [notATag, limited, bare, empty] { #expect(!FeedFailure(try #require(error)).isTransient) }
            #expect(fake.followedTagNames.isEmpty)
        }
    }

    @Test("signed out, a rejected token (401) and a token without the scope (403) all say to run feedline login, for the list and the changes")
    func needsSignIn() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let login = "Run `feedline login \(server.loginArgument)`"
            let signedOut = try makeService(server, token: nil)
            let visitor = await thrownError { _ = try await signedOut.followedTags(after: nil) }
            #expect(
                visitor as? MastodonHTTPError
                    == .unauthorized(serverMessage: "This API requires an authenticated user", sentToken: false, server: server.loginArgument)
            )
            let visitorFollow = await thrownError { _ = try await signedOut.setTagFollow("birds", to: true) }

            let service = try makeService(server)
            fake.fail("/api/v1/tags/", method: "POST", status: 401, error: "The access token is invalid")
            let rejected = await thrownError { _ = try await service.setTagFollow("birds", to: false) }
            #expect(
                FeedFailure(try #require(rejected)).message
                    == "The server did not accept the access token (\"The access token is invalid\"). "
                    + "\(login) to sign in again (or check FEEDLINE_TOKEN)."
            )

            fake.fail("/api/v1/followed_tags", method: "GET", status: 403, error: "This action is outside the authorized scopes")
            let unscopedRead = await thrownError { _ = try await service.followedTags(after: nil) }
            #expect(
                unscopedRead as? MastodonHTTPError
                    == .unauthorized(serverMessage: "This action is outside the authorized scopes", sentToken: true, server: server.loginArgument)
            )
            fake.fail("/api/v1/tags/", method: "POST", status: 403, error: "This action is outside the authorized scopes")
            let unscopedWrite = await thrownError { _ = try await service.setTagFollow("birds", to: true) }
            #expect(
                unscopedWrite as? MastodonHTTPError
                    == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            for error in [visitor, visitorFollow, rejected, unscopedRead, unscopedWrite] {
                let failure = FeedFailure(try #require(error))
                #expect(failure.message.contains(login), "\(failure.message)")
                #expect(!failure.isTransient)
                expectNoToken(failure)
            }
            #expect(fake.followedTagNames.isEmpty)
        }
    }

    @Test("a follow rate limited is not retried (the core sends it again); the followed list read is, once, just before the reset")
    func rateLimits() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.followTags(["birds"])
            let clock = VirtualClock()
            let service = try makeService(server, clock: clock)
            let reset = ["X-RateLimit-Reset": "2026-11-22T12:00:05.000Z"]
            fake.fail("/api/v1/followed_tags", method: "GET", status: 429, error: "Too many requests", headers: reset)
            #expect(try await service.followedTags(after: nil).items.map(\.name) == ["birds"])
            #expect(clock.now.offset == .seconds(5))

            fake.fail("/api/v1/tags/", method: "POST", status: 429, error: "Too many requests", headers: reset)
            let error = await thrownError { _ = try await service.setTagFollow("gardening", to: true) }
            let limited = try #require(error as? MastodonHTTPError)
            #expect(limited.isTransient && limited.retryAfter == .seconds(5))
            #expect(fake.requests.map(\.method) == ["GET", "GET", "POST"], "the write was sent once")
            #expect(fake.followedTagNames == ["birds"])
        }
    }

    @Test("the sign-in asks for the scopes hashtags need: read (followed tags) and write:follows (follow, unfollow)")
    func scopes() {
        #expect(Login.scopes.contains("read"))
        #expect(Login.scopes.contains("write:follows"))
    }

    // MARK: - Through a session

    @MainActor
    @Test("a session's follow reaches the server, and the followed hashtags screen then shows it followed; an unfollow settles too")
    func session() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.trend(Self.trends)
            let session = FeedSession(
                service: try makeService(server), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock()
            )
            #expect(session.setTagFollow("birds", true))
            await session.settle()
            #expect(fake.followedTagNames == ["Birds"], "spelled as the server knows it")
            #expect(session.tags.follow("birds") == ToggleDisplay(isOn: true))

            session.navigator.push(.list(.followedTags))
            await session.settle()
            let followed = try #require(session.navigator.top.list)
            #expect(followed.rows.compactMap(\.tag) == [Hashtag(name: "Birds", weeklyUses: 15, weeklyAccounts: 7, following: true)])

            session.navigator.push(.list(.trendingTags))
            await session.settle()
            let trending = try #require(session.navigator.top.list)
            #expect(trending.rows.compactMap(\.tag).map(\.following) == [true, false, false])

            #expect(session.setTagFollow("#Birds", false))
            await session.settle()
            #expect(fake.followedTagNames.isEmpty)
            #expect(session.tags.follow("birds") == ToggleDisplay(isOn: false))
            #expect(followed.rows.compactMap(\.tag).map(\.following) == [false], "the row stays, not followed")
            #expect(!session.hasFailures)
        }
    }
}
