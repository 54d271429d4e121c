import Feedline
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` delegate of one user-stream connection: it turns the answer's headers and each
/// chunk of its body, as they arrive, into ``EventStreamSignal``s.
///
/// `URLSession.bytes` does not exist on Linux; a data task whose delegate gets
/// `urlSession(_:dataTask:didReceive:)` does deliver the body incrementally there (checked against
/// a chunked `text/event-stream`: the headers first, then each chunk as the server flushes it).
/// Parsing (``ServerSentEventParser``) and decoding (``MastodonStreamDecoder``) happen here, on the
/// session's serial delegate queue, so the main actor only applies events. Signals keep the
/// stream's order. Redirects are followed only within the stream's origin, so the token never
/// travels further.
final class EventStreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Reader {
        var parser = ServerSentEventParser()
        var decoder = MastodonStreamDecoder()
        var opened = false
        var ended = false
    }

    private let origin: URL
    private let continuation: AsyncStream<EventStreamSignal>.Continuation
    private let reader = Locked(Reader())

    init(origin: URL, continuation: AsyncStream<EventStreamSignal>.Continuation) {
        self.origin = origin
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            end(.failed)
            completionHandler(.cancel)
            return
        }
        if let end = EventStreamEnd.classify(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type")) {
            self.end(end)
            completionHandler(.cancel)
            return
        }
        let first = reader.withLock { reader in
            defer { reader.opened = true }
            return !reader.opened && !reader.ended
        }
        if first { continuation.yield(.opened) }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let signals: [EventStreamSignal] = reader.withLock { reader in
            guard reader.opened, !reader.ended else { return [] }
            return reader.parser.parse(data).compactMap { event in
                switch reader.decoder.decode(event) {
                case .event(let event): .event(event)
                case .malformed(let type, let reason): .skipped(type: type, reason: reason)
                case .ignored: nil
                }
            }
        }
        for signal in signals { continuation.yield(signal) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let opened = reader.withLock { $0.opened }
        end(opened ? .closed : .failed)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let url = request.url, MastodonServer.origin(of: url) == MastodonServer.origin(of: origin) else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    /// Reports the end, once; later ends are dropped.
    private func end(_ end: EventStreamEnd) {
        let first = reader.withLock { reader in
            defer { reader.ended = true }
            return !reader.ended
        }
        guard first else { return }
        continuation.yield(.ended(end))
        continuation.finish()
    }
}
