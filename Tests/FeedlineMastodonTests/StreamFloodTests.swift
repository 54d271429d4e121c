import Feedline
import FeedlineMastodon
import Foundation
import HTTPTypes
import Testing

/// A server flooding the user stream faster than the session applies it costs bounded memory:
/// at most ``EventStreamReader/backlog`` signals wait to be read, then the connection ends as a
/// drop (the reconnect's catch-up asks for what was missed) and is closed.
@Suite("Stream flood", .timeLimit(.minutes(10)))
struct StreamFloodTests {
    /// A transport whose one exchange answers an event stream and, at once, `events` posts.
    final class FloodTransport: HTTPTransport, Sendable {
        let events: Int
        let cancelled = Locked(false)

        init(events: Int) {
            self.events = events
        }

        func start(
            _ request: HTTPRequest, body: Data?, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
        ) -> HTTPTransfer {
            var fields = HTTPFields()
            fields[.contentType] = "text/event-stream"
            receive(.response(HTTPResponse(status: .ok, headerFields: fields)))
            let status = String(decoding: (try? Mastodon.makeEncoder().encode(Build.status(7))) ?? Data(), as: UTF8.self)
            let event = "event: update\ndata: \(status)\n\n"
            for _ in 0..<events { receive(.body(Data(event.utf8))) }
            receive(.finished(nil))
            return HTTPTransfer { self.cancelled.withLock { $0 = true } }
        }
    }

    @Test("past the backlog the signals end without an end signal (read as a drop) and the connection is closed")
    func floodEnds() async throws {
        let transport = FloodTransport(events: EventStreamReader.backlog * 3)
        let service = try MastodonHTTPService(
            server: try MastodonServer(parsing: "https://social.example"), token: AccessToken("token", source: .environment), pageSize: 20,
            timeout: .seconds(20), rateLimitWait: .zero, clock: ContinuousClock(), wallClock: .system, userAgent: "test", transport: transport
        )
        let signals = service.openUserStream(at: service.server.url(path: "/api/v1/streaming/user"), idleTimeout: .seconds(60))
        var read = 0
        var ended = false
        for await signal in signals {
            read += 1
            if case .ended = signal { ended = true }
        }
        #expect(read == EventStreamReader.backlog, "what waited was read, nothing more was kept")
        #expect(!ended, "no end signal: the reader takes the finish as a drop")
        #expect(transport.cancelled.withLock { $0 }, "the connection is closed")
    }
}
