@_spi(FeedService) import Feedline
import FeedlineAccounts
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Domain blocks over HTTP, checked against the fake server's Mastodon rules
/// (`FakeMastodon+DomainBlocks.swift`): the list paged by its `Link` header over record ids the
/// domain names do not carry, blocks and unblocks that the list then shows, the server's 422
/// and the sign-in sentences.
@Suite("HTTP domain blocks")
struct HTTPDomainBlocksTests {
    /// `count` domains, `d1.example`, `d2.example` …
    static func domains(_ count: Int) -> [String] {
        (1...count).map { "d\($0).example" }
    }

    /// Every page of the blocked domains from the top (at most 10 pages: a loop is a failure).
    static func walk(_ service: MastodonHTTPService, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Page<String>] {
        var pages: [Page<String>] = []
        var cursor: PageCursor?
        repeat {
            let page = try await service.domainBlocks(after: cursor)
            pages.append(page)
            cursor = page.next
        } while cursor != nil && pages.count < 10
        #expect(cursor == nil, "the domain blocks did not end within 10 pages", sourceLocation: sourceLocation)
        return pages
    }

    // MARK: - Paging

    @Test("the list pages by its Link header (max_id of block records, not domains) over three pages and ends")
    func pagesByLink() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.blockDomains(Self.domains(5))
            let records = fake.domainBlockRecordIDs.map(String.init)
            let service = try makeService(server, pageSize: 2)

            let pages = try await Self.walk(service)
            #expect(pages.map(\.items) == [["d1.example", "d2.example"], ["d3.example", "d4.example"], ["d5.example"]])
            #expect(pages.last?.next == nil, "a page without a next link ends the list")
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == Array(repeating: "GET /api/v1/domain_blocks", count: 3))
            #expect(
                fake.requests.map(\.query) == [["limit": "2"], ["limit": "2", "max_id": records[1]], ["limit": "2", "max_id": records[3]]]
            )
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a list whose size is a multiple of the page ends on the empty page after; smaller pages than asked are followed too")
    func listEnds() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.blockDomains(Self.domains(4))
            let pages = try await Self.walk(try makeService(server, pageSize: 2))
            #expect(pages.map(\.items.count) == [2, 2, 0])

            fake.blockDomains(Self.domains(7).map { "more-" + $0 })
            fake.largestDomainBlocksPage = 5
            let wide = try await Self.walk(try makeService(server, pageSize: 20))
            #expect(wide.map(\.items.count) == [5, 5, 1])
            #expect(wide.flatMap(\.items) == fake.blockedDomains, "every domain once, in the server's order")
        }
    }

    @Test("a list read rate limited just before its reset waits for it and is retried once; a block is not retried")
    func rateLimits() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.blockDomains(["promo.example"])
            let clock = VirtualClock()
            let service = try makeService(server, clock: clock)
            let reset = ["X-RateLimit-Reset": "2026-11-22T12:00:05.000Z"]
            fake.fail("/api/v1/domain_blocks", method: "GET", status: 429, error: "Too many requests", headers: reset)
            let page = try await service.domainBlocks(after: nil)
            #expect(page.items == ["promo.example"])
            #expect(clock.now.offset == .seconds(5))

            fake.fail("/api/v1/domain_blocks", method: "POST", status: 429, error: "Too many requests", headers: reset)
            let error = await thrownError { try await service.setDomainBlock("spam.example", to: true) }
            let limited = try #require(error as? MastodonHTTPError)
            #expect(limited == .rateLimited(reset: Date(timeIntervalSince1970: 1_795_348_805), secondsToReset: 5))
            #expect(limited.isTransient && limited.retryAfter == .seconds(5))
            #expect(fake.requests.map(\.method) == ["GET", "GET", "POST"], "the write was sent once")
            #expect(fake.blockedDomains == ["promo.example"])
        }
    }

    // MARK: - Blocking

    @Test("block then unblock: POST with the domain as a form field, DELETE with it in the query; the list shows each")
    func roundTrip() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.blockDomains(["old.example"])
            let service = try makeService(server, pageSize: 1)

            try await service.setDomainBlock(" @Promo.Example", to: true)
            #expect(fake.blockedDomains == ["promo.example", "old.example"])
            #expect(try await Self.walk(service).flatMap(\.items) == ["promo.example", "old.example"], "the newest block first")

            try await service.setDomainBlock("promo.example", to: true)
            #expect(fake.blockedDomains == ["promo.example", "old.example"], "blocking again changes nothing")

            try await service.setDomainBlock("promo.example", to: false)
            #expect(fake.blockedDomains == ["old.example"])
            #expect(try await Self.walk(service).flatMap(\.items) == ["old.example"])
            try await service.setDomainBlock("nothing.example", to: false)

            let writes = fake.requests.filter { $0.method != "GET" }
            #expect(writes.map { "\($0.method) \($0.path)" } == ["POST", "POST", "DELETE", "DELETE"].map { "\($0) /api/v1/domain_blocks" })
            #expect(writes.map(\.form) == [["domain": "promo.example"], ["domain": "promo.example"], [:], [:]])
            #expect(writes.map(\.query) == [[:], [:], ["domain": "promo.example"], ["domain": "nothing.example"]])
            #expect(writes.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a name that is empty once trimmed is refused before anything is sent")
    func emptyName() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            let error = await thrownError { try await service.setDomainBlock(" @ ", to: true) }
            #expect(FeedFailure(try #require(error)).message == "The server could not do this (\"there is no domain to block\").")
            #expect(fake.requests.isEmpty)
        }
    }

    @Test("the server's 422 (its own domain) is its sentence, not transient; a 422 without one names the domain")
    func refused() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            let own = try #require(server.url.host)
            let error = await thrownError { try await service.setDomainBlock(own, to: true) }
            let failure = FeedFailure(try #require(error))
            #expect(failure.message == "The server could not do this (\"\(FakeMastodon.ownDomainRefusal)\").")
            #expect(!failure.isTransient)
            #expect(fake.blockedDomains.isEmpty)

            fake.fail("/api/v1/domain_blocks", method: "DELETE", status: 422)
            let bare = await thrownError { try await service.setDomainBlock("promo.example", to: false) }
            #expect(
                FeedFailure(try #require(bare)).message == "The server could not do this (\"promo.example is not a domain it lets you unblock\")."
            )
        }
    }

    @Test("signed out, a rejected token (401) and a token without the scope (403) all say to run feedline login, for reads and writes")
    func needsSignIn() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let login = "Run `feedline login \(server.loginArgument)`"
            let signedOut = try makeService(server, token: nil)
            let visitor = await thrownError { _ = try await signedOut.domainBlocks(after: nil) }
            #expect(
                visitor as? MastodonHTTPError
                    == .unauthorized(serverMessage: "This API requires an authenticated user", sentToken: false, server: server.loginArgument)
            )
            let visitorBlock = await thrownError { try await signedOut.setDomainBlock("promo.example", to: true) }

            let service = try makeService(server)
            fake.fail("/api/v1/domain_blocks", method: "DELETE", status: 401, error: "The access token is invalid")
            let rejected = await thrownError { try await service.setDomainBlock("promo.example", to: false) }
            #expect(
                FeedFailure(try #require(rejected)).message
                    == "The server did not accept the access token (\"The access token is invalid\"). "
                    + "\(login) to sign in again (or check FEEDLINE_TOKEN)."
            )

            fake.fail("/api/v1/domain_blocks", method: "GET", status: 403, error: "This action is outside the authorized scopes")
            let unscopedRead = await thrownError { _ = try await service.domainBlocks(after: nil) }
            fake.fail("/api/v1/domain_blocks", method: "POST", status: 403, error: "This action is outside the authorized scopes")
            let unscopedWrite = await thrownError { try await service.setDomainBlock("promo.example", to: true) }
            #expect(
                unscopedWrite as? MastodonHTTPError
                    == .writeRefused(serverMessage: "This action is outside the authorized scopes", server: server.loginArgument)
            )
            for error in [visitor, visitorBlock, rejected, unscopedRead, unscopedWrite] {
                let failure = FeedFailure(try #require(error))
                #expect(failure.message.contains(login), "\(failure.message)")
                #expect(!failure.isTransient)
                expectNoToken(failure)
            }
            #expect(fake.blockedDomains.isEmpty)
        }
    }

    @Test("the sign-in asks for the scopes domain blocks need: read (the list) and write:blocks (block, unblock)")
    func scopes() {
        #expect(Login.scopes.contains("read"))
        #expect(Login.scopes.contains("write:blocks"))
    }

    // MARK: - Through a session

    @MainActor
    @Test("a session's domain block reaches the server and settles confirmed; the server's refusal rolls back with its sentence")
    func session() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            let service = try makeService(server)
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
            #expect(session.setDomainBlock("X.example", true))
            await session.settle()
            #expect(fake.blockedDomains == ["x.example"])
            #expect(session.domainBlocks.block("x.example") == ToggleDisplay(isOn: true))

            let own = try #require(server.url.host)
            #expect(session.setDomainBlock(own, true))
            await session.settle()
            #expect(fake.blockedDomains == ["x.example"])
            #expect(
                session.domainBlocks.block(own)
                    == ToggleDisplay(
                        isOn: false,
                        failure: "Could not block the domain \(own): The server could not do this (\"\(FakeMastodon.ownDomainRefusal)\")."
                    )
            )

            #expect(session.setDomainBlock("x.example", false))
            await session.settle()
            #expect(fake.blockedDomains.isEmpty)
            #expect(session.domainBlocks.block("x.example") == ToggleDisplay(isOn: false))
        }
    }
}
