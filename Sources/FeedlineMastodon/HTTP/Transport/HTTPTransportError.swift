/// Why an exchange ended without its whole answer, in Feedline's own terms: whatever the
/// library underneath, callers handle this one type (``MastodonHTTPError/transport(_:host:timeout:)``
/// turns it into a sentence).
package struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Code: Hashable, Sendable {
        /// The exchange was cancelled (``HTTPTransfer/cancel()``, or its task).
        case cancelled
        /// Nothing arrived for the idle limit (connecting included).
        case idleTimeout
        /// The exchange ran past its total limit, bytes still arriving.
        case totalTimeout
        /// The host's name does not resolve.
        case cannotFindHost
        /// The host refused the connection.
        case connectionRefused
        /// No route to the host: no network.
        case networkUnreachable
        /// Another failure to connect.
        case cannotConnect
        /// The connection closed before the answer was complete (fewer bytes than announced,
        /// a chunked body never ended, a reset, nothing at all).
        case connectionLost
        /// The TLS handshake failed (also what a server answering plain HTTP causes).
        case tlsFailed
        /// The server's certificate is not trusted: self-signed, expired, or for another name.
        case certificateUntrusted
        /// The answer is not valid HTTP.
        case badResponse
        /// The answer's header fields are larger than the parser reads.
        case headerTooLarge
        /// The body would be larger than the exchange's limit (bytes).
        case bodyTooLarge(limit: Int)
        /// A redirect within the origin led back to an address already asked.
        case redirectLoop
        /// More redirects within the origin than ``AsyncHTTPClientTransport/redirectLimit``.
        case tooManyRedirects
        /// The address is not an `http`/`https` one the transport can ask.
        case unsupportedAddress
        /// Anything else (``HTTPTransportError/detail`` says what).
        case other
    }

    /// What went wrong.
    package var code: Code
    /// The library's own words, for logs and for ``Code/other``; never shown as the sentence.
    package var detail: String

    package init(_ code: Code, detail: String = "") {
        self.code = code
        self.detail = detail
    }

    package var description: String { detail.isEmpty ? "\(code)" : "\(code): \(detail)" }
}
