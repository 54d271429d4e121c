import Foundation
import HTTPTypes

/// What carries Feedline's HTTP exchanges: one request in, its answer out as it arrives.
///
/// The transport on every platform is ``AsyncHTTPClientTransport`` (AsyncHTTPClient on SwiftNIO);
/// ``platformDefaultTransport()`` returns it. Tests pass their own.
///
/// Every transport guarantees, for each ``start(_:body:limits:receive:)``:
/// - `receive` is called with ``HTTPTransferEvent/response(_:)`` at most once, then
///   ``HTTPTransferEvent/body(_:)`` chunks in order, then exactly one
///   ``HTTPTransferEvent/finished(_:)`` — also after ``HTTPTransfer/cancel()`` (with
///   ``HTTPTransportError/Code/cancelled`` unless the exchange had already ended);
/// - calls to `receive` for one exchange never overlap;
/// - a redirect is followed only within the origin (scheme, host, port) of the request's URL,
///   so a token the request carries never reaches another host; any other redirect is the
///   answer (its 3xx status and headers);
/// - an exchange during which nothing arrives for ``HTTPTransferLimits/idle`` ends with
///   ``HTTPTransportError/Code/idleTimeout``, one that lasts longer than
///   ``HTTPTransferLimits/total`` with ``HTTPTransportError/Code/totalTimeout``, and one whose
///   body would pass ``HTTPTransferLimits/maximumBody`` with
///   ``HTTPTransportError/Code/bodyTooLarge(limit:)`` before the byte past the limit is delivered.
package protocol HTTPTransport: Sendable {
    /// Starts `request` with `body` and reports what happens to it to `receive` (see the type's
    /// guarantees).
    func start(
        _ request: HTTPRequest, body: Data?, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
    ) -> HTTPTransfer
}

/// How long an exchange may go on, and how much it may bring.
package struct HTTPTransferLimits: Hashable, Sendable {
    /// The longest time without a byte arriving (connecting included).
    package var idle: Duration
    /// The longest the whole exchange may take; `nil` for no limit (an event stream).
    package var total: Duration?
    /// The most body bytes the answer may have; `nil` for no limit (an event stream, whose
    /// reader bounds each event itself).
    package var maximumBody: Int?

    package init(idle: Duration, total: Duration? = nil, maximumBody: Int? = nil) {
        self.idle = idle
        self.total = total
        self.maximumBody = maximumBody
    }
}

/// What an exchange reports, in order.
package enum HTTPTransferEvent: Sendable {
    /// The final answer's status and header fields (after any redirect followed).
    case response(HTTPResponse)
    /// The next piece of the answer's body, as it arrived.
    case body(Data)
    /// The exchange is over: `nil` when the whole answer came, else why not.
    case finished(HTTPTransportError?)
}

/// A started exchange: the handle to cancel it.
package struct HTTPTransfer: Sendable {
    private let cancelling: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) {
        cancelling = cancel
    }

    /// Ends the exchange and closes its connection; it reports ``HTTPTransferEvent/finished(_:)``
    /// with ``HTTPTransportError/Code/cancelled`` unless it had ended already. Never waits for
    /// the transport, so it may be called from anywhere, a task's cancellation handler included.
    package func cancel() { cancelling() }
}

extension HTTPResponse {
    /// The value of the field `name` (any case), its values joined with ", " when it came more
    /// than once; `nil` when it did not come (or `name` is no field name).
    package func header(_ name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        let values = headerFields[values: field]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension HTTPRequest {
    /// A request for `url` with these header fields (names that are not field names, and
    /// values with line breaks, are left out).
    package init(method: Method, url: URL, fields: [(String, String)]) {
        var headerFields = HTTPFields()
        for (name, value) in fields {
            guard let name = HTTPField.Name(name) else { continue }
            headerFields.append(HTTPField(name: name, value: value))
        }
        self.init(method: method, url: url, headerFields: headerFields)
    }
}

/// The transport of every platform: ``AsyncHTTPClientTransport`` on the process's one client.
package func platformDefaultTransport() -> any HTTPTransport {
    AsyncHTTPClientTransport()
}
