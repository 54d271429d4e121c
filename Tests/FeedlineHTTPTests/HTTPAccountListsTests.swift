@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Account lists, search and follow requests over HTTP, checked against the fake server's
/// Mastodon rules (`FakeMastodon+AccountLists.swift`): lists paged by their `Link` header over
/// record ids the accounts do not carry, search paged by `offset` per kind (which Mastodon
/// ignores without a `type`), resolving only for a signed-in user, and answers to follow
/// requests that take the request away.
@Suite("HTTP account lists, search and follow requests")
struct HTTPAccountListsTests {
    static let date = Date(timeIntervalSince1970: 1_795_300_000)
    static let juniper = Mastodon.Account(id: "500", username: "juniper", acct: "juniper", displayName: "Juniper Hale")
    static let birdie = Mastodon.Account(id: "510", username: "birdie", acct: "birdie", displayName: "Birdie")
    static let lady = Mastodon.Account(id: "511", username: "lady", acct: "lady@coast.example", displayName: "The Bird Lady")
    static let watcher = Mastodon.Account(id: "512", username: "watcher", acct: "watcher", displayName: "Bird Watcher")
    /// On another server; this one has not seen it.
    static let remoteKemi = Mastodon.Account(id: "3001", username: "kemi", acct: "kemi@elsewhere.example", displayName: "Kemi elsewhere")

    /// `count` accounts nobody has seen post, `person1`, `person2` …, ids from 601.
    static func people(_ count: Int) -> [Mastodon.Account] {
        (1...count).map { Mastodon.Account(id: String(600 + $0), username: "person\($0)", acct: "person\($0)", displayName: "Person \($0)") }
    }

    /// Juniper's post (so the lookup knows her) and four about birds, newest first.
    static func statuses() -> [Mastodon.Status] {
        let birds = Mastodon.Tag(name: "birds", url: "")
        return [
            Mastodon.Status(id: "9005", createdAt: date + 50, account: juniper, content: "<p>Tea on the porch.</p>"),
            Mastodon.Status(id: "9004", createdAt: date + 40, account: juniper, content: "<p>A bird at the feeder.</p>", tags: [birds]),
            Mastodon.Status(id: "9003", createdAt: date + 30, account: juniper, content: "<p>Bird song at dawn.</p>"),
            Mastodon.Status(id: "9002", createdAt: date + 20, account: juniper, content: "<p>Birdsong again.</p>", tags: [birds]),
            Mastodon.Status(id: "9001", createdAt: date + 10, account: juniper, content: "<p>One more bird.</p>"),
        ]
    }

    /// A result as one line: `account:birdie`, `hashtag:birds 7/3 following`, `post:9004`.
    static func line(_ result: SearchResult) -> String {
        switch result {
        case .account(let profile): "account:\(profile.author.handle)"
        case .hashtag(let tag):
            "hashtag:\(tag.name) \(tag.weeklyUses.map(String.init) ?? "-")/\(tag.weeklyAccounts.map(String.init) ?? "-")"
                + (tag.following == true ? " following" : "")
        case .post(let post): "post:\(post.id.rawValue)"
        }
    }

    // MARK: - Lists

    /// One list as the client names it, as the fake keeps it, and its endpoint.
    struct ListCase: Sendable, CustomTestStringConvertible {
        var list: AccountList
        var stored: AccountList
        var path: String
        /// A lookup comes first (the list names its account by handle).
        var looksUp = false

        var testDescription: String { "\(list) → GET \(path)" }
    }

    static let lists: [ListCase] = [
        ListCase(
            list: .followers(AccountID(handle: "juniper")), stored: .followers(AccountID("500")), path: "/api/v1/accounts/500/followers", looksUp: true
        ),
        ListCase(list: .following(AccountID("500")), stored: .following(AccountID("500")), path: "/api/v1/accounts/500/following"),
        ListCase(list: .endorsed(AccountID("500")), stored: .endorsed(AccountID("500")), path: "/api/v1/accounts/500/endorsements"),
        ListCase(list: .mutes, stored: .mutes, path: "/api/v1/mutes"),
        ListCase(list: .blocks, stored: .blocks, path: "/api/v1/blocks"),
        ListCase(list: .requests, stored: .requests, path: "/api/v1/follow_requests"),
        ListCase(list: .favouritedBy(PostID("9004")), stored: .favouritedBy(PostID("9004")), path: "/api/v1/statuses/9004/favourited_by"),
        ListCase(list: .boostedBy(PostID("9004")), stored: .boostedBy(PostID("9004")), path: "/api/v1/statuses/9004/reblogged_by"),
    ]

    @Test("each list pages by its Link header (max_id of records, not accounts) over three pages and ends", arguments: lists)
    func listPagesByLink(_ listCase: ListCase) async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let people = Self.people(5)
            fake.fill(listCase.stored, with: people)
            let records = fake.recordIDs(on: listCase.stored).map(String.init)
            let service = try makeService(server, pageSize: 2)

            var pages: [Page<Profile>] = []
            var cursor: PageCursor?
            repeat {
                let page = try await service.accounts(in: listCase.list, after: cursor)
                pages.append(page)
                cursor = page.next
            } while cursor != nil && pages.count < 10
            #expect(pages.map(\.items.count) == [2, 2, 1])
            #expect(pages.last?.next == nil, "a page without a next link ends the list")
            #expect(pages.flatMap(\.items) == people.map(Profile.init), "every account once, in the server's order, as profiles")

            let requests = fake.requests
            #expect(requests.map(\.path) == (listCase.looksUp ? ["/api/v1/accounts/lookup"] : []) + Array(repeating: listCase.path, count: 3))
            #expect(
                requests.filter { $0.path == listCase.path }.map(\.query) == [
                    ["limit": "2"], ["limit": "2", "max_id": records[1]], ["limit": "2", "max_id": records[3]],
                ]
            )
            #expect(requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("featured hashtags: Mastodon's payload as sent (a count as a string, a bare date, null), in order; a visitor may read them; an unknown account's 404 names it")
    func featuredTags() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let body = #"[{"id":"627","name":"nowplaying","url":"https://x.example/@juniper/tagged/nowplaying","statuses_count":"70","last_status_at":"2022-08-29"},{"id":"3","name":"Ponds","url":"https://x.example/@juniper/tagged/ponds","statuses_count":0,"last_status_at":null}]"#
            fake.enqueue(.init(pathPrefix: "/api/v1/accounts/500/featured_tags", status: 200, body: body))
            let visitor = try makeService(server, token: nil)
            let tags = try await visitor.featuredTags(of: AccountID("500"))
            let august29 = try #require(Mastodon.DateFormat.date(from: "2022-08-29"))
            #expect(tags == [Hashtag(name: "nowplaying", accountPosts: 70, lastUsed: august29), Hashtag(name: "Ponds", accountPosts: 0)])
            #expect(fake.requests.map(\.path) == ["/api/v1/accounts/500/featured_tags"])
            #expect(fake.requests.allSatisfy { $0.authorization == nil })

            let november20 = try #require(Mastodon.DateFormat.date(from: "2026-11-20"))
            fake.feature([Mastodon.FeaturedTag(id: "1", name: "Birds", statusesCount: 4, lastStatusAt: november20)], for: "500")
            let service = try makeService(server)
            #expect(try await service.featuredTags(of: AccountID("500")) == [Hashtag(name: "Birds", accountPosts: 4, lastUsed: november20)])
            let unknown = await thrownError { _ = try await service.featuredTags(of: AccountID("404404")) }
            #expect(unknown as? MastodonHTTPError == .notFound(serverMessage: "There is no account 404404 (asked \(server))"))
        }
    }

    @Test("an endorsements 404 says there is no such account or the server serves none (Mastodon before 4.4)")
    func endorsementsNotFound() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let service = try makeService(server)
            let endorsed = await thrownError { _ = try await service.accounts(in: .endorsed(AccountID("404404")), after: nil) }
            #expect(
                endorsed as? MastodonHTTPError
                    == .notFound(
                        serverMessage: "There is no account 404404, or \(server) does not serve the accounts one features (Mastodon 4.4 and later do)"
                    )
            )
            #expect(fake.requests.last?.path == "/api/v1/accounts/404404/endorsements")
        }
    }

    @Test("a list whose size is a multiple of the page ends on the empty page after; smaller pages than asked are followed too")
    func listEnds() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            fake.fill(.blocks, with: Self.people(4))
            let service = try makeService(server, pageSize: 2)
            let first = try await service.accounts(in: .blocks, after: nil)
            let second = try await service.accounts(in: .blocks, after: first.next)
            let third = try await service.accounts(in: .blocks, after: second.next)
            #expect([first, second, third].map(\.items.count) == [2, 2, 0])
            #expect(third.next == nil)

            fake.fill(.following(AccountID("500")), with: Self.people(7))
            fake.largestListPage = 3
            let wide = try makeService(server, pageSize: 20)
            var counts: [Int] = []
            var cursor: PageCursor?
            repeat {
                let page = try await wide.accounts(in: .following(AccountID("500")), after: cursor)
                counts.append(page.items.count)
                cursor = page.next
            } while cursor != nil && counts.count < 10
            #expect(counts == [3, 3, 1])
        }
    }

    @Test("a list read rate limited just before its reset waits for it and is retried once")
    func rateLimitedList() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            fake.fill(.mutes, with: Self.people(3))
            let clock = VirtualClock()
            let service = try makeService(server, clock: clock)
            fake.fail("/api/v1/mutes", status: 429, error: "Too many requests", headers: ["X-RateLimit-Reset": "2026-11-22T12:00:05.000Z"])
            let page = try await service.accounts(in: .mutes, after: nil)
            #expect(page.items.count == 3)
            #expect(clock.now.offset == .seconds(5))
            #expect(fake.requests.map(\.path) == ["/api/v1/mutes", "/api/v1/mutes"])
        }
    }

    @Test("the followers of an account the server does not know are a sentence naming it")
    func unknownAccount() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let service = try makeService(server)
            let error = await thrownError { _ = try await service.accounts(in: .followers(AccountID("999")), after: nil) }
            #expect(error as? MastodonHTTPError == .notFound(serverMessage: "There is no account 999 (asked \(server))"))

            let byHandle = await thrownError { _ = try await service.accounts(in: .following(AccountID(handle: "nobody")), after: nil) }
            #expect(FeedFailure(try #require(byHandle)).message == "There is no account @nobody (asked \(server)).")
            #expect(fake.requests.map(\.path) == ["/api/v1/accounts/999/followers", "/api/v1/accounts/lookup"])
        }
    }

    @Test("who favourited a post: Mastodon's payload and Link header as sent, read signed out too; a post the server does not know is its 404")
    func favouritedByPayload() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let base = server.url(path: "/api/v1/statuses/9004/favourited_by").absoluteString
            // As Mastodon 4.3 answers: accounts with every field, paged by favourite records.
            let body = #"""
                [{"id":"109302","username":"kemi","acct":"kemi@fieldnotes.science","display_name":"Kemi Adeyemi","locked":false,"bot":false,
                  "discoverable":true,"indexable":true,"group":false,"created_at":"2022-11-07T00:00:00.000Z","note":"<p>Field notes.</p>",
                  "url":"https://fieldnotes.science/@kemi","uri":"https://fieldnotes.science/users/kemi","avatar":"https://files.example/a.png",
                  "avatar_static":"https://files.example/a.png","header":"https://files.example/h.png","header_static":"https://files.example/h.png",
                  "followers_count":210,"following_count":180,"statuses_count":1200,"last_status_at":"2026-11-20","hide_collections":null,
                  "noindex":false,"emojis":[],"roles":[],"fields":[{"name":"Site","value":"<a href=\"https://fieldnotes.science\">fieldnotes.science</a>","verified_at":null}]}]
                """#
            let next = "<\(base)?limit=1&max_id=77301>; rel=\"next\", <\(base)?limit=1&min_id=77302>; rel=\"prev\""
            fake.enqueue(.init(pathPrefix: "/api/v1/statuses/9004/favourited_by", status: 200, headers: ["Link": next], body: body))
            let signedOut = try makeService(server, token: nil, pageSize: 1)
            let page = try await signedOut.accounts(in: .favouritedBy(PostID("9004")), after: nil)
            #expect(page.items.map(\.author.handle) == ["kemi@fieldnotes.science"])
            #expect(page.items.first?.author.displayName == "Kemi Adeyemi")
            #expect(page.next == PageCursor("\(base)?limit=1&max_id=77301"), "the next link is the cursor")
            let last = try await signedOut.accounts(in: .favouritedBy(PostID("9004")), after: page.next)
            #expect(last.items.isEmpty && last.next == nil, "past the records the list ends")
            #expect(fake.requests.map(\.query) == [["limit": "1"], ["limit": "1", "max_id": "77301"]])
            #expect(fake.requests.allSatisfy { $0.authorization == nil }, "a public post's list needs no token")

            let service = try makeService(server)
            let unknown = await thrownError { _ = try await service.accounts(in: .boostedBy(PostID("404404")), after: nil) }
            #expect(unknown as? MastodonHTTPError == .notFound(serverMessage: "Record not found"))
            #expect(fake.requests.last?.path == "/api/v1/statuses/404404/reblogged_by")
        }
    }

    @Test("the user's own lists: signed out, a rejected token (401) and a token without the scope (403) all say to run feedline login")
    func ownListsNeedSignIn() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let login = "Run `feedline login \(server.loginArgument)`"
            let signedOut = try makeService(server, token: nil)
            let visitor = await thrownError { _ = try await signedOut.accounts(in: .mutes, after: nil) }
            #expect(
                visitor as? MastodonHTTPError
                    == .unauthorized(serverMessage: "This API requires an authenticated user", sentToken: false, server: server.loginArgument)
            )

            let service = try makeService(server)
            fake.fail("/api/v1/follow_requests", status: 401, error: "The access token is invalid")
            let rejected = await thrownError { _ = try await service.accounts(in: .requests, after: nil) }
            #expect(
                FeedFailure(try #require(rejected)).message
                    == "The server did not accept the access token (\"The access token is invalid\"). \(login) to sign in again (or check FEEDLINE_TOKEN)."
            )

            fake.fail("/api/v1/blocks", status: 403, error: "This action is outside the authorized scopes")
            let scoped = await thrownError { _ = try await service.accounts(in: .blocks, after: nil) }
            let failure = FeedFailure(try #require(scoped))
            #expect(failure.message.contains(login), "\(failure.message)")
            #expect(failure.message.contains("This action is outside the authorized scopes"))
            for error in [visitor, rejected, scoped] { #expect(FeedFailure(try #require(error)).isTransient == false) }
            expectNoToken(failure)
        }
    }

    // MARK: - Search

    /// The fake with the bird people, hashtags with a history, and the bird posts.
    private func withSearchServer(_ body: (FakeMastodon, MastodonServer) async throws -> Void) async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            fake.fill(.followers(AccountID("500")), with: [Self.birdie, Self.lady, Self.watcher])
            fake.addRemote([Self.remoteKemi])
            fake.addHashtags([
                Mastodon.Hashtag(
                    name: "birds", url: "",
                    history: [.init(day: "1795305600", uses: 3, accounts: 2), .init(day: "1795219200", uses: 4, accounts: 1)],
                    following: true
                )
            ])
            try await body(fake, server)
        }
    }

    @Test("a search answers accounts, then hashtags (the week's use summed), then posts, from one request")
    func searchOrder() async throws {
        try await withSearchServer { fake, server in
            let service = try makeService(server)
            let page = try await service.search("  bird ", after: nil)
            #expect(
                page.items.map(Self.line) == [
                    "account:birdie", "account:lady@coast.example", "account:watcher", "hashtag:birds 7/3 following",
                    "post:9004", "post:9003", "post:9002", "post:9001",
                ]
            )
            #expect(page.next == nil, "no kind came full (20)")
            #expect(fake.requests.map(\.queryItems) == [["q=bird", "limit=20"]])
            #expect(fake.requests.map(\.path) == ["/api/v2/search"])

            let tagged = try await service.search("#birds", after: nil)
            #expect(tagged.items.map(Self.line) == ["hashtag:birds 7/3 following", "post:9004", "post:9002"])
            #expect(fake.requests.last?.queryItems == ["q=#birds", "limit=20"])
        }
    }

    @Test("Mastodon's answer as it sends it: history counts as strings, a tag without history, lists null or left out")
    func searchAnswerShapes() async throws {
        try await withSearchServer { fake, server in
            let service = try makeService(server)
            fake.enqueue(
                .init(
                    pathPrefix: "/api/v2/search", status: 200,
                    body: """
                        {"accounts":[],"statuses":[],"hashtags":[\
                        {"name":"Birds","url":"https://x.example/tags/birds","following":false,"history":[\
                        {"day":"1574553600","uses":"12","accounts":"5"},{"day":"1574467200","uses":"3","accounts":"2"}]},\
                        {"name":"birding","url":"https://x.example/tags/birding","history":[]},{"name":"bare"}]}
                        """
                )
            )
            fake.enqueue(.init(pathPrefix: "/api/v2/search", status: 200, body: #"{"accounts":null,"hashtags":[{"name":"x","history":[{"day":1,"uses":2,"accounts":1}]}]}"#))
            let documented = try await service.search("bird", after: nil)
            // An empty history is no history: unknown, not zero.
            #expect(documented.items.map(Self.line) == ["hashtag:Birds 15/7", "hashtag:birding -/-", "hashtag:bare -/-"])
            #expect(documented.items.first == .hashtag(Hashtag(name: "Birds", weeklyUses: 15, weeklyAccounts: 7, following: false)))
            let sparse = try await service.search("x", after: nil)
            #expect(sparse.items.map(Self.line) == ["hashtag:x 2/1"])
        }
    }

    /// What the user types, and the query the server gets.
    struct Typed: Sendable, CustomTestStringConvertible {
        var text: String
        var query: [String]
        var testDescription: String { "\(text) → \(query.joined(separator: "&"))" }
    }

    static let typed: [Typed] = [
        Typed(text: "bird", query: ["q=bird", "limit=20"]),
        Typed(text: "#Birds", query: ["q=#Birds", "limit=20"]),
        Typed(text: "@juniper", query: ["q=@juniper", "limit=20"]),
        Typed(text: "kemi@elsewhere.example", query: ["q=@kemi@elsewhere.example", "limit=20", "resolve=true"]),
        Typed(text: "@kemi@elsewhere.example", query: ["q=@kemi@elsewhere.example", "limit=20", "resolve=true"]),
        Typed(text: "https://elsewhere.example/@kemi/1", query: ["q=https://elsewhere.example/@kemi/1", "limit=20", "resolve=true"]),
        Typed(text: "bird watching @ dawn", query: ["q=bird watching @ dawn", "limit=20"]),
    ]

    @Test("a handle or a web address is resolved, signed in; words, tags and local handles are not", arguments: typed)
    func resolveWhat(_ typed: Typed) async throws {
        try await withSearchServer { fake, server in
            let service = try makeService(server)
            _ = try await service.search(typed.text, after: nil)
            #expect(fake.requests.map(\.queryItems) == [typed.query])
        }
    }

    @Test("a remote handle is found only by a resolving search: signed in, yes (and known from then on); signed out, nothing, not asked")
    func resolvesRemoteHandle() async throws {
        try await withSearchServer { fake, server in
            let visitor = try makeService(server, token: nil)
            let unresolved = try await visitor.search("@kemi@elsewhere.example", after: nil)
            #expect(unresolved.items.isEmpty)
            #expect(fake.requests.last?.queryItems == ["q=@kemi@elsewhere.example", "limit=20"], "a visitor may not resolve")

            let service = try makeService(server)
            let resolved = try await service.search("@kemi@elsewhere.example", after: nil)
            #expect(resolved.items == [.account(Profile(Self.remoteKemi))])
            #expect(fake.requests.last?.queryItems == ["q=@kemi@elsewhere.example", "limit=20", "resolve=true"])
            #expect(try await visitor.account(named: "kemi@elsewhere.example").id == "3001", "the server knows it now")

            // A handle on the server's own address is the local account.
            let own = try await service.search("@juniper@\(server.authority)", after: nil)
            #expect(own.items.map(Self.line) == ["account:juniper"])
            #expect(fake.requests.last?.queryItems == ["q=@juniper", "limit=20"])
        }
    }

    @Test("a search pages by offset, one typed request per kind that came full, to the end; a visitor gets one page")
    func searchPagesByOffset() async throws {
        try await withSearchServer { fake, server in
            let service = try makeService(server, pageSize: 2)
            let first = try await service.search("bird", after: nil)
            #expect(first.items.map(Self.line) == ["account:birdie", "account:lady@coast.example", "hashtag:birds 7/3 following", "post:9004", "post:9003"])
            let second = try await service.search("bird", after: first.next)
            #expect(second.items.map(Self.line) == ["account:watcher", "post:9002", "post:9001"])
            let third = try await service.search("bird", after: second.next)
            #expect(third.items.isEmpty)
            #expect(third.next == nil)
            #expect(first.next == PageCursor("2:accounts,statuses"))
            #expect(second.next == PageCursor("4:statuses"))
            #expect(
                fake.requests.map(\.queryItems) == [
                    ["q=bird", "limit=2"],
                    ["q=bird", "type=accounts", "offset=2", "limit=2"],
                    ["q=bird", "type=statuses", "offset=2", "limit=2"],
                    ["q=bird", "type=statuses", "offset=4", "limit=2"],
                ]
            )

            let visitor = try makeService(server, token: nil, pageSize: 2)
            let only = try await visitor.search("bird", after: nil)
            #expect(only.items.map(Self.line) == ["account:birdie", "account:lady@coast.example", "hashtag:birds 7/3 following"])
            #expect(only.next == nil, "Mastodon refuses offset to a visitor")
        }
    }

    @Test("an empty or blank query is refused with a sentence, before anything is sent")
    func emptyQuery() async throws {
        try await withSearchServer { fake, server in
            let service = try makeService(server)
            for query in ["", "   ", "\n\t"] {
                let error = await thrownError { _ = try await service.search(query, after: nil) }
                let failure = FeedFailure(try #require(error))
                #expect(
                    failure.message
                        == "The server could not do this (\"a search needs something to look for: a name, a @handle, a #hashtag, a web address or words of a post\")."
                )
                #expect(!failure.isTransient)
            }
            let stale = await thrownError { _ = try await service.search("bird", after: PageCursor("soon")) }
            #expect(FeedFailure(try #require(stale)).message == "The server could not do this (\"the search cannot go on from \"soon\"\").")
            #expect(fake.requests.isEmpty)
        }
    }

    // MARK: - Follow requests

    @Test("accepting and rejecting a request: the relationship afterwards, and the request is gone from the list")
    func answerRequests() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            let people = Self.people(3)
            fake.fill(.requests, with: people)
            let service = try makeService(server)
            let before = try await service.relationships(of: [AccountID("601")])
            #expect(before.map(\.requestedBy) == [true], "requested_by is read")

            let accepted = try await service.answerFollowRequest(from: AccountID(handle: "person1"), accept: true)
            #expect(accepted == Relationship(accountID: AccountID("601"), followedBy: true, showingBoosts: false))
            #expect(accepted == Relationship(fake.relationship("601")))
            let rejected = try await service.answerFollowRequest(from: AccountID("602"), accept: false)
            #expect(rejected == Relationship(accountID: AccountID("602"), showingBoosts: false))
            #expect(!rejected.requestedBy && !rejected.followedBy)

            #expect(fake.accountIDs(on: .requests) == ["603"])
            let left = try await service.accounts(in: .requests, after: nil)
            #expect(left.items.map(\.author.id) == ["603"])
            #expect(
                fake.requests.dropFirst().prefix(3).map(\.description) == [
                    "GET /api/v1/accounts/lookup [(key: \"acct\", value: \"person1\")]",
                    "POST /api/v1/follow_requests/601/authorize []",
                    "POST /api/v1/follow_requests/602/reject []",
                ]
            )
        }
    }

    @Test("answering a request that no longer waits (404) says so and to reload the requests; a 403 says to run feedline login")
    func answerRefused() async throws {
        try await withFakeServer(statuses: Self.statuses()) { fake, server in
            fake.fill(.requests, with: Self.people(1))
            let service = try makeService(server)
            _ = try await service.answerFollowRequest(from: AccountID("601"), accept: false)
            let again = await thrownError { _ = try await service.answerFollowRequest(from: AccountID(handle: "person1"), accept: false) }
            let failure = FeedFailure(try #require(again))
            #expect(
                failure.message
                    == "No follow request from @person1 is waiting for your answer (asked \(server)): it was withdrawn or answered already. "
                    + "Reload your follow requests to see the ones still waiting."
            )
            #expect(!failure.isTransient)

            fake.fill(.requests, with: [Self.birdie])
            fake.fail("/api/v1/follow_requests/510/authorize", method: "POST", status: 403, error: "This action is outside the authorized scopes")
            let refused = await thrownError { _ = try await service.answerFollowRequest(from: AccountID("510"), accept: true) }
            #expect(
                refused as? MastodonHTTPError
                    == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            #expect(FeedFailure(try #require(refused)).message.contains("Run `feedline login \(server.loginArgument)`"))
            #expect(fake.accountIDs(on: .requests) == ["510"], "still waiting")
        }
    }
}
