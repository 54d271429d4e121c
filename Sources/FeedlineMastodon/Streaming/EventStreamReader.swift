import Feedline
import Foundation

/// Reads one user-stream connection: turns what its exchange reports (``HTTPTransferEvent``:
/// the answer's head, each chunk of its body as it arrives, the end) into
/// ``EventStreamSignal``s.
///
/// The transport delivers the body chunk by chunk as the server flushes it (an event stream
/// never ends on its own). Parsing (``ServerSentEventParser``) and decoding
/// (``MastodonStreamDecoder``) happen here, on the transport's thread, so the main actor only
/// applies events. Signals keep the stream's order; after ``EventStreamSignal/ended(_:)`` the
/// signal stream finishes, which cancels the exchange if it still runs. The signal stream holds
/// at most ``backlog`` signals not yet read; past that it finishes without an end signal, which
/// the reader takes as a drop.
package final class EventStreamReader: Sendable {
    /// The most signals waiting to be read before the connection is given up (see the type).
    package static let backlog = 1_000

    private struct Reader {
        var parser = ServerSentEventParser()
        var decoder = MastodonStreamDecoder()
        var opened = false
        var ended = false
    }

    private let continuation: AsyncStream<EventStreamSignal>.Continuation
    private let reader = Locked(Reader())

    init(continuation: AsyncStream<EventStreamSignal>.Continuation) {
        self.continuation = continuation
    }

    /// Takes in what the exchange reported.
    func receive(_ event: HTTPTransferEvent) {
        switch event {
        case .response(let head):
            if let end = EventStreamEnd.classify(status: head.status.code, contentType: head.header("Content-Type")) {
                self.end(end)
                return
            }
            let first = reader.withLock { reader in
                defer { reader.opened = true }
                return !reader.opened && !reader.ended
            }
            if first { continuation.yield(.opened) }
        case .body(let data):
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
            for signal in signals {
                // The reader fell behind by a whole backlog (a server flooding events faster
                // than they are applied): the connection ends, as a drop, and the reconnect's
                // catch-up asks the server for what it missed, so memory stays bounded.
                if case .dropped = continuation.yield(signal) {
                    overflowed()
                    return
                }
            }
        case .finished:
            let opened = reader.withLock { $0.opened }
            end(opened ? .closed : .failed)
        }
    }

    /// Ends the signals without a last one (the buffer has no room for it): read as a drop.
    private func overflowed() {
        let first = reader.withLock { reader in
            defer { reader.ended = true }
            return !reader.ended
        }
        if first { continuation.finish() }
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
