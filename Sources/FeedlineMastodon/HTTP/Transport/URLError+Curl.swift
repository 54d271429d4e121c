#if canImport(CCurl)
import CCurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLError {
    /// The `URLError` for a transfer libcurl ended with `code` (`osErrno`: the errno of the last
    /// failed connect; `detail`: libcurl's message), in URLSession's terms, so callers handle
    /// one kind of error whatever the transport. libcurl's message is kept as the description.
    ///
    /// The codes that matter to users each get their own meaning: a connection closed before
    /// the answer was complete (`networkConnectionLost`: fewer bytes than announced, a chunked
    /// body never ended, a reset, nothing at all), a TLS handshake that failed
    /// (`secureConnectionFailed` — also what a server speaking plain HTTP causes), a certificate
    /// refused, a name that does not resolve, a connection refused or unreachable.
    static func curl(_ code: CURLcode, osErrno: Int32, detail: String) -> URLError {
        let mapped: URLError.Code
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL: mapped = .unsupportedURL
        case CURLE_URL_MALFORMAT: mapped = .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: mapped = .cannotFindHost
        case CURLE_COULDNT_CONNECT:
            switch osErrno {
            case ENETUNREACH, ENETDOWN: mapped = .notConnectedToInternet
            case ETIMEDOUT: mapped = .timedOut
            default: mapped = .cannotConnectToHost
            }
        case CURLE_OPERATION_TIMEDOUT: mapped = .timedOut
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            mapped = .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING: mapped = .badServerResponse
        case CURLE_TOO_MANY_REDIRECTS: mapped = .httpTooManyRedirects
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE:
            mapped = .secureConnectionFailed
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            mapped = .serverCertificateUntrusted
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: mapped = .cancelled
        default: mapped = .unknown
        }
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return URLError(mapped, userInfo: [NSLocalizedDescriptionKey: "\(text) (libcurl error \(code.rawValue))"])
    }
}
#endif
