import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries Feedline's HTTP exchanges: one request in, its answer out as it arrives.
///
/// On Linux it is `CurlTransport` (libcurl on a thread of its own that sleeps while nothing
/// arrives); elsewhere ``URLSessionTransport``. ``platformDefaultTransport()`` picks.
///
/// Every transport guarantees, for each ``start(_:limits:receive:)``:
/// - `receive` is called with ``HTTPTransferEvent/response(_:)`` at most once, then
///   ``HTTPTransferEvent/body(_:)`` chunks in order, then exactly one
///   ``HTTPTransferEvent/finished(_:)`` — also after ``HTTPTransfer/cancel()`` (with
///   `URLError(.cancelled)` unless the exchange had already ended);
/// - calls to `receive` for one exchange never overlap;
/// - a redirect is followed only within the origin (scheme, host, port) of the request's URL,
///   so a token the request carries never reaches another host; any other redirect is the
///   answer (its 3xx status and headers);
/// - an exchange during which nothing arrives for ``HTTPTransferLimits/idle`` ends with
///   `URLError(.timedOut)`, and one that lasts longer than ``HTTPTransferLimits/total`` too.
package protocol HTTPTransport: Sendable {
    /// Starts `request` and reports what happens to it to `receive` (see the type's guarantees).
    func start(
        _ request: URLRequest, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
    ) -> HTTPTransfer
}

/// How long an exchange may go on.
package struct HTTPTransferLimits: Hashable, Sendable {
    /// The longest time without a byte arriving (connecting included).
    package var idle: Duration
    /// The longest the whole exchange may take; `nil` for no limit (an event stream).
    package var total: Duration?

    package init(idle: Duration, total: Duration? = nil) {
        self.idle = idle
        self.total = total
    }
}

/// What an exchange reports, in order.
package enum HTTPTransferEvent: Sendable {
    /// The final answer's status and headers (after any redirect followed).
    case response(HTTPHead)
    /// The next piece of the answer's body, as it arrived.
    case body(Data)
    /// The exchange is over: `nil` when the whole answer came, else why not.
    case finished(URLError?)
}

/// An answer's status line and header fields.
package struct HTTPHead: Hashable, Sendable {
    /// The HTTP status.
    package var status: Int
    /// Header fields by lowercased name; a field that came more than once is its values joined
    /// with ", ".
    package var headers: [String: String]

    package init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        self.headers = headers
    }

    /// The value of the field `name` (any case), if it came.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Adds one field as it came on the wire.
    package mutating func add(name: String, value: String) {
        let key = name.lowercased()
        headers[key] = headers[key].map { $0 + ", " + value } ?? value
    }
}

/// A started exchange: the handle to cancel it.
package struct HTTPTransfer: Sendable {
    private let cancelling: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) {
        cancelling = cancel
    }

    /// Ends the exchange and closes its connection; it reports ``HTTPTransferEvent/finished(_:)``
    /// with `URLError(.cancelled)` unless it had ended already. Never waits for the transport,
    /// so it may be called from anywhere, a task's cancellation handler included.
    package func cancel() { cancelling() }
}

/// The transport of this platform: `CurlTransport` on Linux, ``URLSessionTransport`` elsewhere.
package func platformDefaultTransport() -> any HTTPTransport {
    #if canImport(CCurl)
    CurlTransport()
    #else
    URLSessionTransport()
    #endif
}
