#if canImport(CCurl)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over the system's libcurl, driven by Feedline's own loop (``CurlLoop``): the transport
/// on Linux.
///
/// Foundation's `URLSession` on Linux runs on the same libcurl, but its glue
/// (swift-corelibs-foundation's `_MultiHandle`) keeps a write-readiness dispatch source on a
/// socket after libcurl has stopped asking for one. A connected socket is always writable, so
/// while an answer is awaited — an open event stream, a request the server is slow to answer —
/// the source fires without end and each firing asks libcurl to look at a socket with nothing
/// to read: a core spent on nothing. This loop sleeps in `curl_multi_poll` instead.
///
/// Connections are kept and reused between exchanges, TLS certificates are checked against the
/// system's store, and proxies set in the environment (`https_proxy` …) are used, as libcurl does.
/// See ``HTTPTransport`` for what every exchange guarantees.
package final class CurlTransport: HTTPTransport {
    private let loop: CurlLoop?

    package init() {
        loop = CurlLoop()
    }

    package func start(
        _ request: URLRequest, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
    ) -> HTTPTransfer {
        guard let loop else {
            receive(.finished(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be set up"])))
            return HTTPTransfer {}
        }
        let id = loop.start(request, limits: limits, receive: receive)
        return HTTPTransfer { loop.cancel(id) }
    }
}
#endif
