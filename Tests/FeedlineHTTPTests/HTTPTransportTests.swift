import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

import HTTPTypes

/// What every `HTTPTransport` promises, checked against the fake server for the transport
/// (AsyncHTTPClient): the head and body of an answer, the request's fields and body as sent,
/// redirects within the origin only (and never round in a loop), a body delivered as it comes,
/// the idle, total and size limits, and cancellation.
@Suite("HTTP transport", .timeLimit(.minutes(10)))
struct HTTPTransportTests {
    /// One exchange's events as they come, and a way to wait for them.
    final class Exchange: Sendable {
        /// The limits of an exchange whose test is not about them: an idle limit no test waits
        /// for, so a test starved of threads a while (ThreadSanitizer, a busy machine) still
        /// sees its bytes, not an idle timeout.
        static let generous = HTTPTransferLimits(idle: .seconds(600))

        private let events = Locked<[HTTPTransferEvent]>([])
        private let changes: AsyncStream<Void>
        private let changed: AsyncStream<Void>.Continuation
        private let transfer = Locked<HTTPTransfer?>(nil)

        init(
            _ request: HTTPRequest, body: Data? = nil, limits: HTTPTransferLimits = Exchange.generous,
            transport: any HTTPTransport = platformDefaultTransport()
        ) {
            (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let started = transport.start(request, body: body, limits: limits) { [self] event in record(event) }
            transfer.withLock { $0 = started }
        }

        private func record(_ event: HTTPTransferEvent) {
            events.withLock { $0.append(event) }
            changed.yield()
        }

        func cancel() { transfer.withLock { $0 }?.cancel() }

        /// Returns the events once `condition` holds for them, or once the exchange has ended
        /// (nothing more can come: the test's expectations then say what is missing instead of
        /// the test hanging), or when the waiting task is cancelled (its time limit).
        func wait(until condition: ([HTTPTransferEvent]) -> Bool) async -> [HTTPTransferEvent] {
            var iterator = changes.makeAsyncIterator()
            while true {
                let now = events.withLock { $0 }
                if condition(now) || HTTPTransportTests.end(now) != nil { return now }
                // `nil`: cancelled. The stream ends then, and would answer `nil` at once forever.
                guard await iterator.next() != nil else { return now }
            }
        }

        /// Returns the events once the exchange has finished.
        func finished() async -> [HTTPTransferEvent] {
            await wait { $0.contains { if case .finished = $0 { true } else { false } } }
        }
    }

    static func head(_ events: [HTTPTransferEvent]) -> HTTPResponse? {
        events.lazy.compactMap { if case .response(let head) = $0 { head } else { nil } }.first
    }

    static func body(_ events: [HTTPTransferEvent]) -> Data {
        events.reduce(into: Data()) { if case .body(let data) = $1 { $0.append(data) } }
    }

    static func end(_ events: [HTTPTransferEvent]) -> HTTPTransportError?? {
        events.lazy.compactMap { if case .finished(let error) = $0 { .some(error) } else { nil } }.first
    }

    static func request(_ url: URL, method: HTTPRequest.Method = .get) -> HTTPRequest {
        HTTPRequest(
            method: method, url: url,
            fields: [("Accept", "application/json"), ("User-Agent", "Feedline-test"), ("Authorization", "Bearer \(secretToken)")]
        )
    }

    @Test("an answer: its head once (fields by any case), its body, then the end; the request's fields as sent")
    func answer() async throws {
        try await withFakeServer { fake, server in
            let exchange = Exchange(Self.request(server.url(path: "/api/v1/timelines/home", query: [URLQueryItem(name: "limit", value: "2")])))
            let events = await exchange.finished()
            #expect(events.filter { if case .response = $0 { true } else { false } }.count == 1)
            let head = try #require(Self.head(events))
            #expect(head.status == .ok)
            #expect(head.header("x-ratelimit-limit") == "300" && head.header("X-RateLimit-Limit") == "300")
            let statuses = try Mastodon.decode([Mastodon.Status].self, from: Self.body(events))
            #expect(statuses.count == 2)
            #expect(Self.end(events) == .some(nil))
            let seen = try #require(fake.requests.last)
            #expect(seen.authorization == "Bearer \(secretToken)" && seen.userAgent == "Feedline-test" && seen.query["limit"] == "2")
        }
    }

    @Test("a POST carries its form body")
    func formBody() async throws {
        try await withFakeServer(token: nil) { fake, server in
            var request = Self.request(server.url(path: "/api/v1/apps"), method: .post)
            request.headerFields[.authorization] = nil
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
            let body = Data("client_name=Feedline&redirect_uris=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&scopes=read".utf8)
            let events = await Exchange(request, body: body).finished()
            #expect(Self.head(events)?.status == .ok)
            #expect(fake.requests.last?.form["client_name"] == "Feedline")
            #expect(fake.requests.last?.form["scopes"] == "read")
        }
    }

    @Test("a redirect within the origin is followed; one to another origin is the answer, not followed")
    func redirects() async throws {
        try await withFakeServer { fake, server in
            let transport = platformDefaultTransport()
            fake.enqueue(.init(pathPrefix: "/moved", status: 302, headers: ["Location": "/api/v1/timelines/home?limit=1"], body: ""))
            let followed = await Exchange(Self.request(server.url(path: "/moved")), transport: transport).finished()
            #expect(Self.head(followed)?.status == .ok)
            let statuses = try Mastodon.decode([Mastodon.Status].self, from: Self.body(followed))
            #expect(statuses.count == 1)
            #expect(fake.requests.last?.authorization == "Bearer \(secretToken)")

            let elsewhere = "http://localhost:\(server.url.port ?? 0)/api/v1/timelines/home"
            fake.enqueue(.init(pathPrefix: "/away", status: 302, headers: ["Location": elsewhere], body: ""))
            let before = fake.requests.count
            let refused = await Exchange(Self.request(server.url(path: "/away")), transport: transport).finished()
            #expect(Self.head(refused)?.status == .found)
            #expect(Self.head(refused)?.header("Location") == elsewhere)
            #expect(Self.end(refused) == .some(nil))
            #expect(fake.requests.count == before + 1, "the other origin is never asked")
        }
    }

    @Test("a body that never ends arrives piece by piece; cancelling ends the exchange with cancelled")
    func openBody() async throws {
        try await withFakeServer { fake, server in
            fake.serveStream()
            let exchange = Exchange(Self.request(server.url(path: FakeMastodon.userStreamPath)))
            _ = await exchange.wait { Self.head($0) != nil }
            fake.streamBytes(Array(":thump\n".utf8))
            let events = await exchange.wait { String(decoding: Self.body($0), as: UTF8.self).contains(":thump\n") }
            #expect(Self.head(events)?.header("Content-Type") == "text/event-stream")
            #expect(Self.end(events) == nil)
            exchange.cancel()
            let ended = await exchange.finished()
            #expect(Self.end(ended)??.code == .cancelled)
        }
    }

    @Test("nothing arriving for the idle limit ends the exchange with idleTimeout")
    func idleLimit() async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(120)))
            let exchange = Exchange(Self.request(server.url(path: "/api/v1/timelines/home")), limits: HTTPTransferLimits(idle: .milliseconds(300)))
            let events = await exchange.finished()
            #expect(Self.end(events)??.code == .idleTimeout)
            #expect(Self.head(events) == nil)
        }
    }

    @Test("cancelling an exchange that waits for its answer ends it with cancelled, and only once")
    func cancelWaiting() async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(120)))
            let exchange = Exchange(Self.request(server.url(path: "/api/v1/timelines/home")))
            await fake.waitForRequests(1)
            exchange.cancel()
            exchange.cancel()
            let events = await exchange.finished()
            #expect(Self.end(events)??.code == .cancelled)
            #expect(events.count == 1)
        }
    }

    @Test("a redirect back to an address already asked is a loop; more than ten redirects are too many; neither is followed for ever")
    func redirectLoops() async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/loop/a", status: 302, headers: ["Location": "/loop/b"], body: "", times: 100))
            fake.enqueue(.init(pathPrefix: "/loop/b", status: 307, headers: ["Location": "/loop/a"], body: "", times: 100))
            let loop = await Exchange(Self.request(server.url(path: "/loop/a"))).finished()
            #expect(Self.end(loop)??.code == .redirectLoop)
            #expect(Self.head(loop) == nil)
            #expect(fake.requests.count == 2)

            for step in 0...AsyncHTTPClientTransport.redirectLimit {
                fake.enqueue(.init(pathPrefix: "/hop/\(step)-", status: 301, headers: ["Location": "/hop/\(step + 1)-"], body: ""))
            }
            let before = fake.requests.count
            let chain = await Exchange(Self.request(server.url(path: "/hop/0-"))).finished()
            #expect(Self.end(chain)??.code == .tooManyRedirects)
            #expect(fake.requests.count - before == AsyncHTTPClientTransport.redirectLimit + 1)
        }
    }

    @Test("a body past the size limit is refused before the byte past it is delivered: announced, or chunked without end")
    func bodyLimit() async throws {
        try await withFakeServer { fake, server in
            let piece = String(repeating: "x", count: 64 << 10)
            let limits = HTTPTransferLimits(idle: Exchange.generous.idle, maximumBody: 1 << 20)
            // 512 MiB announced: refused on its Content-Length, before any of it is read.
            fake.enqueue(.init(pathPrefix: "/huge/announced", status: 200, body: piece, repeats: (8192, true)))
            let announced = await Exchange(Self.request(server.url(path: "/huge/announced")), limits: limits).finished()
            #expect(Self.end(announced)??.code == .bodyTooLarge(limit: 1 << 20))
            #expect(Self.body(announced).isEmpty)
            // 512 MiB chunked: cut once the limit is passed.
            fake.enqueue(.init(pathPrefix: "/huge/chunked", status: 200, body: piece, repeats: (8192, false)))
            let chunked = await Exchange(Self.request(server.url(path: "/huge/chunked")), limits: limits).finished()
            #expect(Self.end(chunked)??.code == .bodyTooLarge(limit: 1 << 20))
            #expect(Self.body(chunked).count <= 1 << 20)
            // Exactly the limit is an answer.
            fake.enqueue(.init(pathPrefix: "/huge/fits", status: 200, body: piece, repeats: (16, false)))
            let fits = await Exchange(Self.request(server.url(path: "/huge/fits")), limits: limits).finished()
            #expect(Self.end(fits) == .some(nil))
            #expect(Self.body(fits).count == 1 << 20)
        }
    }

    @Test("an exchange still open at the total limit ends with totalTimeout, not idleTimeout")
    func totalLimit() async throws {
        try await withFakeServer { fake, server in
            fake.serveStream()
            let exchange = Exchange(
                Self.request(server.url(path: FakeMastodon.userStreamPath)), limits: HTTPTransferLimits(idle: Exchange.generous.idle, total: .milliseconds(500))
            )
            // Whether or not the head came by then (a busy machine may take longer), the total
            // limit ends it, not the idle one.
            let events = await exchange.finished()
            #expect(Self.end(events)??.code == .totalTimeout)
        }
    }

    @Test("header fields larger than the parser reads end the exchange with headerTooLarge")
    func headerLimit() async throws {
        try await withFakeServer { fake, server in
            let huge = String(repeating: "a", count: 200 << 10)
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, headers: ["X-Padding": huge], body: "[]"))
            let events = await Exchange(Self.request(server.url(path: "/api/v1/timelines/home"))).finished()
            #expect(Self.end(events)??.code == .headerTooLarge)
        }
    }
}
