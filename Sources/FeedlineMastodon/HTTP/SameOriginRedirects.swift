import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session delegate that follows a redirect only within the server's origin (scheme, host,
/// port), so the access token is never sent to another host. A refused redirect is handed back
/// as the 3xx response, which the service reports as an unexpected status.
package final class SameOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    private let server: MastodonServer

    package init(server: MastodonServer) {
        self.server = server
    }

    package func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let url = request.url, server.isSameOrigin(url) else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }
}
