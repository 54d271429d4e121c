@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Every failure a server or the network can produce becomes a typed error with a sentence,
/// word for word, and none of them shows the token.
@Suite("HTTP errors")
struct HTTPErrorTests {
    /// A failure the fake server is told to produce, the call that meets it, and what it must say.
    enum Case: String, CaseIterable, Sendable {
        case unauthorizedToken, unauthorizedNoToken, forbidden, notFound, unprocessable, preparing
        case serverError, unavailable, notJSON, notMastodon404, plainText404, wrongShape, rateLimited, echoedToken
    }

    private static let html = "<html><body><h1>We're sorry, but something went wrong.</h1></body></html>"

    /// Sets the fake up for `kind` and makes the call that fails.
    private func provoke(_ kind: Case, _ fake: FakeMastodon, _ server: MastodonServer) async throws -> (any Error)? {
        let feed: Feed = kind == .unauthorizedNoToken ? .public : .home
        let service = try makeService(server, token: kind == .unauthorizedNoToken ? nil : secretToken)
        let home = "/api/v1/timelines/home"
        switch kind {
        case .unauthorizedToken: fake.fail(home, status: 401, error: "The access token is invalid")
        case .unauthorizedNoToken: fake.fail("/api/v1/timelines/public", status: 401, error: "This API requires an authenticated user")
        case .forbidden: fake.fail("/api/v1/statuses/", status: 403, error: "This action is not allowed")
        case .notFound: break
        case .unprocessable: fake.fail("/api/v1/statuses/", status: 422, error: "Validation failed: Reblog of status already exists")
        case .preparing: fake.enqueue(.init(pathPrefix: home, status: 206, body: "[]"))
        case .serverError: fake.enqueue(.init(pathPrefix: home, status: 500, body: Self.html))
        case .unavailable: fake.enqueue(.init(pathPrefix: home, status: 503, body: Self.html))
        case .notJSON: fake.enqueue(.init(pathPrefix: home, status: 200, body: Self.html))
        case .notMastodon404: fake.enqueue(.init(pathPrefix: home, status: 404, headers: ["Content-Type": "text/html; charset=utf-8"], body: Self.html))
        case .plainText404: fake.enqueue(.init(pathPrefix: home, status: 404, headers: ["Content-Type": "text/plain"], body: "404 page not found"))
        case .wrongShape: fake.enqueue(.init(pathPrefix: home, status: 200, body: #"[{"id": "1", "account": {"id": "2"}}]"#))
        case .rateLimited:
            fake.fail(home, status: 429, error: "Too many requests", headers: ["X-RateLimit-Reset": "2026-11-22T12:05:00.000Z", "X-RateLimit-Remaining": "0"])
        case .echoedToken: fake.fail("/api/v1/statuses/", status: 422, error: "Token \(secretToken) cannot reblog")
        }
        return await thrownError {
            switch kind {
            case .forbidden, .unprocessable, .echoedToken: _ = try await service.set(.reblog, to: true, postID: "117645532415752138")
            case .notFound: _ = try await service.post("no-such-post")
            default: _ = try await service.page(of: feed, after: nil)
            }
        }
    }

    private func expected(_ kind: Case, port: String) -> (error: MastodonHTTPError?, message: String) {
        let server = "http://127.0.0.1:\(port)"
        return switch kind {
        case .unauthorizedToken:
            (.unauthorized(serverMessage: "The access token is invalid", sentToken: true, server: server),
             #"The server did not accept the access token ("The access token is invalid"). Run `feedline login http://127.0.0.1:PORT` to sign in again (or check FEEDLINE_TOKEN)."#)
        case .unauthorizedNoToken:
            (.unauthorized(serverMessage: "This API requires an authenticated user", sentToken: false, server: server),
             #"The server wants you signed in for this ("This API requires an authenticated user"). Run `feedline login http://127.0.0.1:PORT` (or check FEEDLINE_TOKEN)."#)
        case .forbidden:
            (.forbidden(serverMessage: "This action is not allowed"),
             #"The server does not allow this ("This action is not allowed"); the access token may lack the permission it needs."#)
        case .notFound:
            (.notFound(serverMessage: "Record not found"), "Record not found.")
        case .unprocessable:
            (.unprocessable(serverMessage: "Validation failed: Reblog of status already exists"),
             #"The server could not do this ("Validation failed: Reblog of status already exists")."#)
        case .preparing:
            (.timelinePreparing(.home), "The server is still preparing the home timeline; try again (refresh) in a minute.")
        case .serverError:
            (.serverError(status: 500, serverMessage: nil), "The server failed with an internal error (HTTP 500). Try again later.")
        case .unavailable:
            (.serverUnavailable(status: 503),
             "The server is unavailable right now (HTTP 503): it may be overloaded or down for maintenance. Try again later.")
        case .notJSON:
            (.notMastodon(server: "http://127.0.0.1:PORT", what: "the home timeline", status: 200, body: "an HTML page"),
             "http://127.0.0.1:PORT does not look like a Mastodon-compatible server (it answers the home timeline with an HTML page). Check the address given to --server.")
        case .notMastodon404:
            (.notMastodon(server: "http://127.0.0.1:PORT", what: "the home timeline", status: 404, body: "an HTML page"),
             "http://127.0.0.1:PORT does not look like a Mastodon-compatible server (it answers the home timeline with HTTP 404 and an HTML page). Check the address given to --server.")
        case .plainText404:
            (.notMastodon(server: "http://127.0.0.1:PORT", what: "the home timeline", status: 404, body: "text/plain, not JSON"),
             "http://127.0.0.1:PORT does not look like a Mastodon-compatible server (it answers the home timeline with HTTP 404 and text/plain, not JSON). Check the address given to --server.")
        case .wrongShape:
            (nil, "The server's answer for the home timeline was not the expected JSON ([0].created_at: missing).")
        case .rateLimited:
            (.rateLimited(reset: Date(timeIntervalSince1970: 1_795_348_800 + 300), secondsToReset: 300),
             "The server is rate limiting requests; try again in 5 minutes (at 12:05:00 UTC).")
        case .echoedToken:
            (.unprocessable(serverMessage: "Token [redacted] cannot reblog"), #"The server could not do this ("Token [redacted] cannot reblog")."#)
        }
    }

    @Test("each error status and bad body becomes its sentence, without the token", arguments: Case.allCases)
    func statuses(_ kind: Case) async throws {
        try await withFakeServer { fake, server in
            let error = try #require(try await provoke(kind, fake, server))
            let port = server.url.port.map(String.init) ?? ""
            let (value, message) = expected(kind, port: port)
            if case .notMastodon(_, let what, let status, let body)? = value {
                #expect(error as? MastodonHTTPError == .notMastodon(server: "http://127.0.0.1:\(port)", what: what, status: status, body: body))
            } else if let value {
                #expect(error as? MastodonHTTPError == value)
            }
            #expect(FeedFailure(error).message == message.replacingOccurrences(of: "PORT", with: port))
            expectNoToken(error)
        }
    }

    @Test("a read rate limited with the reset 5 s away waits on the injected clock and is retried once")
    func rateLimitNearResetRetries() async throws {
        try await withFakeServer { fake, server in
            let clock = VirtualClock()
            let service = try makeService(server, clock: clock)
            fake.fail("/api/v1/timelines/home", status: 429, error: "Too many requests", headers: ["X-RateLimit-Reset": "2026-11-22T12:00:05.000Z"])
            let page = try await service.page(of: .home, after: nil)
            #expect(page.posts.count == 20)
            #expect(clock.now.offset == .seconds(5))
            #expect(fake.requests.count == 2)

            // Limited again right after the wait: the error, not a second retry.
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 429, headers: ["X-RateLimit-Reset": "2026-11-22T12:00:05.000Z"], body: "{}", times: 2))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .rateLimited(reset: Date(timeIntervalSince1970: 1_795_348_805), secondsToReset: 5))
            #expect(fake.requests.count == 4)
            #expect(clock.now.offset == .seconds(10))
        }
    }

    @Test("an interaction rate limited near the reset is not retried")
    func rateLimitedWriteDoesNotRetry() async throws {
        try await withFakeServer { fake, server in
            let clock = VirtualClock()
            let service = try makeService(server, clock: clock)
            fake.fail("/api/v1/statuses/", status: 429, headers: ["X-RateLimit-Reset": "2026-11-22T12:00:03.000Z"])
            let error = await thrownError { _ = try await service.set(.favourite, to: true, postID: "117645532415752138") }
            #expect(FeedFailure(try #require(error)).message == "The server is rate limiting requests; try again in 3 seconds (at 12:00:03 UTC).")
            #expect(clock.now.offset == .zero)
            #expect(fake.requests.count == 1)
        }
    }

    @Test("a server slower than the timeout fails with a timeout")
    func timeout() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server, timeout: .milliseconds(300))
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(2)))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .timedOut(seconds: 0.3))
            #expect(FeedFailure(try #require(error)).message == "The server did not answer within 0.3 seconds. Check your connection and try again.")
            expectNoToken(try #require(error))
        }
    }

    @Test("a server that is not listening is a connection error")
    func noConnection() async throws {
        let fake = try FakeMastodon(statuses: [], token: nil)
        let url = try await fake.start()
        await fake.stop()
        let service = try makeService(try MastodonServer(url: url))
        let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
        #expect(
            FeedFailure(try #require(error)).message
                == "Could not connect to 127.0.0.1:\(url.port ?? 0): the connection was refused. Check the server address and your network connection."
        )
        expectNoToken(try #require(error))
    }

    @Test("https:// against a server that answers plain HTTP: the handshake failed, and http:// is suggested")
    func tlsAgainstPlainHTTP() async throws {
        try await withFakeServer { fake, server in
            let port = server.url.port ?? 0
            let service = try makeService(try MastodonServer(parsing: "127.0.0.1:\(port)"))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .plainHTTP(host: "127.0.0.1:\(port)", suggestion: "http://127.0.0.1:\(port)"))
            let failure = FeedFailure(try #require(error))
            #expect(failure.message == "The secure connection to 127.0.0.1:\(port) failed: it answers plain HTTP. Try --server http://127.0.0.1:\(port).")
            #expect(!failure.isTransient)
            // The probe asked for / over plain HTTP, without the token.
            let probes = fake.requests.filter { $0.path == "/" }
            #expect(probes.count == 1)
            #expect(probes.allSatisfy { $0.authorization == nil })
            expectNoToken(try #require(error))
        }
    }

    @Test("https:// where nothing answers plain HTTP either: a TLS failure, no suggestion")
    func tlsAgainstNothing() {
        let error = MastodonHTTPError.transport(HTTPTransportError(.tlsFailed), host: "example.social", limits: HTTPTransferLimits(idle: .seconds(20)))
        #expect(error.description == "Could not connect to example.social: a secure (TLS) connection could not be made. Check the server address and your network connection.")
    }

    @Test("a redirect to another host is not followed, so the token never leaves the server")
    func crossOriginRedirect() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            let elsewhere = "http://localhost:\(server.url.port ?? 0)/api/v1/timelines/home"
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 302, headers: ["Location": elsewhere], body: ""))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .unexpectedStatus(302, serverMessage: nil))
            #expect(fake.requests.count == 1)
        }
    }

    @Test("an answer cut off mid-body after the session worked: the connection closed early, a transient failure")
    func cutOffBody() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            _ = try await service.page(of: .home, after: nil)
            // Half a timeline under a Content-Length of 5,000 bytes, then the connection closes.
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: #"[{"id":"1","created_at":"#, cutOffAt: 5_000))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .closedEarly)
            let failure = FeedFailure(try #require(error))
            #expect(failure.message == "The server closed the connection before its answer was complete.")
            #expect(failure.isTransient)
        }
    }

    @Test("cancelling a call ends it early with CancellationError")
    func cancellation() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            // The reply would come after a minute (and would be a success): ending with
            // CancellationError at all shows the call did not wait for it. The 30 s bound is only
            // a safety net, half the reply's delay, however loaded the machine (or TSan) is.
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(60)))
            let call = Task { try await service.page(of: .home, after: nil) }
            await fake.waitForRequests(1)
            let cancelled = ContinuousClock.now
            call.cancel()
            let result = await call.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ContinuousClock.now - cancelled < .seconds(30))
        }
    }

    @Test("calls cancelled just as their answer comes never hang the canceller: 200 seeded races")
    func cancellationRaces() async throws {
        let seed = testSeed(0x4341_4E43)
        print("Cancellation races from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            for round in 0..<200 {
                fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]"))
                let call = Task { try await service.page(of: .home, after: nil) }
                await fake.waitForRequests(round + 1)
                // Cancelled before, during or after the answer's delivery: each must end.
                for _ in 0..<random.next(below: 4) { await Task.yield() }
                call.cancel()
                switch await call.result {
                case .success, .failure(is CancellationError): break
                case .failure(let error): Issue.record("round \(round) (seed \(seed)): \(error)")
                }
            }
        }
    }
}
