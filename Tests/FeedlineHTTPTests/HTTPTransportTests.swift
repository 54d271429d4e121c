import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every `HTTPTransport` promises, checked against the fake server for the platform's
/// transport (libcurl on Linux) and for `URLSessionTransport` (Apple platforms' — run here too,
/// so it keeps working where it cannot be the default): the head and body of an answer, the
/// request's fields and body as sent, redirects within the origin only, a body delivered as it
/// comes, the idle limit, and cancellation.
@Suite("HTTP transports", .timeLimit(.minutes(10)))
struct HTTPTransportTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case platform, urlSession

        var testDescription: String { self == .platform ? "the platform's transport" : "URLSessionTransport" }

        func make() -> any HTTPTransport {
            switch self {
            case .platform: platformDefaultTransport()
            case .urlSession: URLSessionTransport()
            }
        }
    }

    /// One exchange's events as they come, and a way to wait for them.
    final class Exchange: Sendable {
        private let events = Locked<[HTTPTransferEvent]>([])
        private let changes: AsyncStream<Void>
        private let changed: AsyncStream<Void>.Continuation
        private let transfer = Locked<HTTPTransfer?>(nil)

        init(_ transport: any HTTPTransport, _ request: URLRequest, limits: HTTPTransferLimits = HTTPTransferLimits(idle: .seconds(60))) {
            (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let started = transport.start(request, limits: limits) { [self] event in record(event) }
            transfer.withLock { $0 = started }
        }

        private func record(_ event: HTTPTransferEvent) {
            events.withLock { $0.append(event) }
            changed.yield()
        }

        func cancel() { transfer.withLock { $0 }?.cancel() }

        /// Returns the events once `condition` holds for them.
        func wait(until condition: ([HTTPTransferEvent]) -> Bool) async -> [HTTPTransferEvent] {
            var iterator = changes.makeAsyncIterator()
            while true {
                let now = events.withLock { $0 }
                if condition(now) { return now }
                _ = await iterator.next()
            }
        }

        /// Returns the events once the exchange has finished.
        func finished() async -> [HTTPTransferEvent] {
            await wait { $0.contains { if case .finished = $0 { true } else { false } } }
        }
    }

    static func head(_ events: [HTTPTransferEvent]) -> HTTPHead? {
        events.lazy.compactMap { if case .response(let head) = $0 { head } else { nil } }.first
    }

    static func body(_ events: [HTTPTransferEvent]) -> Data {
        events.reduce(into: Data()) { if case .body(let data) = $1 { $0.append(data) } }
    }

    static func end(_ events: [HTTPTransferEvent]) -> URLError?? {
        events.lazy.compactMap { if case .finished(let error) = $0 { .some(error) } else { nil } }.first
    }

    static func request(_ url: URL, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Feedline-test", forHTTPHeaderField: "User-Agent")
        request.setValue("Bearer \(secretToken)", forHTTPHeaderField: "Authorization")
        return request
    }

    @Test("an answer: its head once (fields by any case), its body, then the end; the request's fields as sent", arguments: Kind.allCases)
    func answer(_ kind: Kind) async throws {
        try await withFakeServer { fake, server in
            let exchange = Exchange(kind.make(), Self.request(server.url(path: "/api/v1/timelines/home", query: [URLQueryItem(name: "limit", value: "2")])))
            let events = await exchange.finished()
            #expect(events.filter { if case .response = $0 { true } else { false } }.count == 1)
            let head = try #require(Self.head(events))
            #expect(head.status == 200)
            #expect(head.header("x-ratelimit-limit") == "300" && head.header("X-RateLimit-Limit") == "300")
            let statuses = try Mastodon.decode([Mastodon.Status].self, from: Self.body(events))
            #expect(statuses.count == 2)
            #expect(Self.end(events) == .some(nil))
            let seen = try #require(fake.requests.last)
            #expect(seen.authorization == "Bearer \(secretToken)" && seen.userAgent == "Feedline-test" && seen.query["limit"] == "2")
        }
    }

    @Test("a POST carries its form body", arguments: Kind.allCases)
    func formBody(_ kind: Kind) async throws {
        try await withFakeServer(token: nil) { fake, server in
            var request = Self.request(server.url(path: "/api/v1/apps"), method: "POST")
            request.setValue(nil, forHTTPHeaderField: "Authorization")
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("client_name=Feedline&redirect_uris=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&scopes=read".utf8)
            let events = await Exchange(kind.make(), request).finished()
            #expect(Self.head(events)?.status == 200)
            #expect(fake.requests.last?.form["client_name"] == "Feedline")
            #expect(fake.requests.last?.form["scopes"] == "read")
        }
    }

    @Test("a redirect within the origin is followed; one to another origin is the answer, not followed", arguments: Kind.allCases)
    func redirects(_ kind: Kind) async throws {
        try await withFakeServer { fake, server in
            let transport = kind.make()
            fake.enqueue(.init(pathPrefix: "/moved", status: 302, headers: ["Location": "/api/v1/timelines/home?limit=1"], body: ""))
            let followed = await Exchange(transport, Self.request(server.url(path: "/moved"))).finished()
            #expect(Self.head(followed)?.status == 200)
            let statuses = try Mastodon.decode([Mastodon.Status].self, from: Self.body(followed))
            #expect(statuses.count == 1)
            #expect(fake.requests.last?.authorization == "Bearer \(secretToken)")

            let elsewhere = "http://localhost:\(server.url.port ?? 0)/api/v1/timelines/home"
            fake.enqueue(.init(pathPrefix: "/away", status: 302, headers: ["Location": elsewhere], body: ""))
            let before = fake.requests.count
            let refused = await Exchange(transport, Self.request(server.url(path: "/away"))).finished()
            #expect(Self.head(refused)?.status == 302)
            #expect(Self.head(refused)?.header("Location") == elsewhere)
            #expect(Self.end(refused) == .some(nil))
            #expect(fake.requests.count == before + 1, "the other origin is never asked")
        }
    }

    @Test("a body that never ends arrives piece by piece; cancelling ends the exchange with cancelled", arguments: Kind.allCases)
    func openBody(_ kind: Kind) async throws {
        try await withFakeServer { fake, server in
            fake.serveStream()
            let exchange = Exchange(kind.make(), Self.request(server.url(path: FakeMastodon.userStreamPath)))
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

    @Test("nothing arriving for the idle limit ends the exchange with timedOut", arguments: Kind.allCases)
    func idleLimit(_ kind: Kind) async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(120)))
            let exchange = Exchange(kind.make(), Self.request(server.url(path: "/api/v1/timelines/home")), limits: HTTPTransferLimits(idle: .milliseconds(300)))
            let events = await exchange.finished()
            #expect(Self.end(events)??.code == .timedOut)
            #expect(Self.head(events) == nil)
        }
    }

    @Test("cancelling an exchange that waits for its answer ends it with cancelled, and only once", arguments: Kind.allCases)
    func cancelWaiting(_ kind: Kind) async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(120)))
            let exchange = Exchange(kind.make(), Self.request(server.url(path: "/api/v1/timelines/home")))
            await fake.waitForRequests(1)
            exchange.cancel()
            exchange.cancel()
            let events = await exchange.finished()
            #expect(Self.end(events)??.code == .cancelled)
            #expect(events.count == 1)
        }
    }
}
