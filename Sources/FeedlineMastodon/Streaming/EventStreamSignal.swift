@_spi(FeedService) import Feedline
import Foundation

/// What one connection to the user stream reports, in order: ``opened`` at most once, then
/// events, then exactly one ``ended(_:)`` — unless the reader cancels first.
package enum EventStreamSignal: Hashable, Sendable {
    /// The server answered 200 with `text/event-stream`: the stream is live.
    case opened
    /// An event for the session, decoded.
    case event(StreamEvent)
    /// An event of a kind Feedline uses whose payload did not decode, skipped (for tests and logs).
    case skipped(type: String, reason: String)
    /// The connection is over, and why.
    case ended(EventStreamEnd)
}

/// Why a connection to the user stream ended.
package enum EventStreamEnd: Hashable, Sendable {
    /// The server ended the stream, the connection broke, or it went silent past the idle timeout.
    case closed
    /// It did not open now, in a way worth trying again: no connection, a timeout, 408, 429, 5xx.
    case failed
    /// It is not here: 404, or a redirect to another host.
    case movedElsewhere
    /// There is no stream to be had: 403, 405, 501, another 4xx, or a 2xx answer that is not an
    /// event stream.
    case refused
    /// 401: the server refused the access token.
    case unauthorized

    /// How an answer with `status` and `contentType` ends the connection before it opens; `nil`
    /// when it opens (2xx with `text/event-stream`).
    package static func classify(status: Int, contentType: String?) -> EventStreamEnd? {
        switch status {
        case 200..<300:
            let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            return type == "text/event-stream" ? nil : .refused
        case 300..<400, 404: return .movedElsewhere
        case 408, 429: return .failed
        case 401: return .unauthorized
        case 501: return .refused
        case 500..<600: return .failed
        default: return .refused
        }
    }
}
