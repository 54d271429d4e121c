#if canImport(CCurl)
import CCurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange on a ``CurlLoop``: its libcurl easy handle, the request as it stands after the
/// redirects followed so far, and the answer's head as its lines come. Used only on the loop's
/// thread (libcurl calls it back from `curl_multi_perform` there).
final class CurlExchange {
    /// The most redirects followed before the exchange fails.
    static let redirectLimit = 10

    let id: Int
    let limits: HTTPTransferLimits
    /// The easy handle, in the loop's multi handle while the exchange runs.
    let easy: UnsafeMutableRawPointer
    private let receive: @Sendable (HTTPTransferEvent) -> Void
    /// The origin every redirect followed must stay in: the first request's.
    private let origin: String?
    private var request: URLRequest
    /// When a byte last arrived (or the exchange began).
    private var lastActivity = ContinuousClock.now
    /// The head of the answer being read.
    private var head: HTTPHead?
    /// Whether the final answer's head was reported.
    private var reported = false
    /// Where the answer being read redirects, within the origin: followed once it has been read.
    private(set) var redirect: URLRequest?
    private(set) var redirects = 0
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// A new exchange for `request`; `nil` when libcurl could not make or set up a handle.
    init?(id: Int, request: URLRequest, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void) {
        guard let easy = curl_easy_init() else { return nil }
        self.id = id
        self.easy = easy
        self.request = request
        self.limits = limits
        self.receive = receive
        origin = request.url.flatMap(MastodonServer.origin(of:))
        guard configure() else { return nil }
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// When the exchange times out for want of bytes.
    var deadline: ContinuousClock.Instant { lastActivity + limits.idle }

    // MARK: - Setting up

    /// Sets the handle up for ``request``; `false` when libcurl refused an option.
    private func configure() -> Bool {
        guard let url = request.url else { return false }
        errorBuffer[0] = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        var codes = [
            feedline_curl_set_string(easy, CURLOPT_URL, url.absoluteString),
            feedline_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            // No signals from a library in a threaded process (name lookups run on threads).
            feedline_curl_set_long(easy, CURLOPT_NOSIGNAL, 1),
            // A proxy's CONNECT answer is not the server's.
            feedline_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
            // Every encoding libcurl can decode, decoded, as URLSession does.
            feedline_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            feedline_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            feedline_curl_set_pointer(easy, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: id)),
            feedline_curl_set_write(easy, { bytes, size, count, context in
                guard let bytes, let context else { return 0 }
                let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
                exchange.receivedBody(UnsafeRawBufferPointer(start: bytes, count: size * count))
                return size * count
            }, context),
            feedline_curl_set_header(easy, { bytes, size, count, context in
                guard let bytes, let context else { return 0 }
                let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
                exchange.receivedHeaderLine(UnsafeRawBufferPointer(start: bytes, count: size * count))
                return size * count
            }, context),
        ]
        if let total = limits.total {
            codes.append(feedline_curl_set_long(easy, CURLOPT_TIMEOUT_MS, Int(total.timeInterval * 1000)))
        }
        codes += configureMethodAndBody()
        codes.append(configureHeaders())
        return codes.allSatisfy { $0 == CURLE_OK }
    }

    private func configureMethodAndBody() -> [CURLcode] {
        let method = request.httpMethod?.uppercased() ?? "GET"
        let body = request.httpBody
        var codes: [CURLcode] = []
        switch method {
        case "GET" where body == nil:
            codes.append(feedline_curl_set_long(easy, CURLOPT_HTTPGET, 1))
        case "HEAD":
            codes.append(feedline_curl_set_long(easy, CURLOPT_NOBODY, 1))
        default:
            if method != "POST" { codes.append(feedline_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, method)) }
            let bytes = body ?? Data()
            codes.append(feedline_curl_set_long(easy, CURLOPT_POST, 1))
            codes.append(feedline_curl_set_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            // COPYPOSTFIELDS copies the bytes (to their size), so they need not outlive this call.
            codes.append(bytes.withUnsafeBytes { raw in
                let empty: CChar = 0
                return withUnsafePointer(to: empty) { fallback in
                    feedline_curl_set_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(fallback))
                    )
                }
            })
        }
        return codes
    }

    /// The request's header fields. libcurl adds `Host`, `Accept-Encoding`, the body's length
    /// and `Accept: */*` when the request names none — but no `Expect: 100-continue` and no
    /// `Content-Type` of its own on a POST.
    private func configureHeaders() -> CURLcode {
        curl_slist_free_all(headerList)
        headerList = nil
        var fields = request.allHTTPHeaderFields ?? [:]
        let names = Set(fields.keys.map { $0.lowercased() })
        if !names.contains("expect") { fields["Expect"] = "" }
        if !names.contains("content-type") { fields["Content-Type"] = "" }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            // "Name:" with nothing after it removes a field libcurl would add.
            let line = value.isEmpty ? "\(name):" : "\(name): \(value)"
            headerList = curl_slist_append(headerList, line)
        }
        return feedline_curl_set_list(easy, CURLOPT_HTTPHEADER, headerList)
    }

    // MARK: - What libcurl hands over

    /// One header line of an answer, its line break included. A status line starts a new answer
    /// (after an interim 1xx, or for a redirect's next request); the empty line ends its head.
    private func receivedHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        // Trailers after a chunked body are not part of the head reported.
        guard !reported else { return }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            head = HTTPHead(status: parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        } else if line.isEmpty {
            guard let head, !(100..<200).contains(head.status) else { return }
            headEnded(head)
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            head?.add(name: name, value: value)
        }
    }

    /// The final head of an answer: a redirect within the origin is kept to follow, anything
    /// else is the answer.
    private func headEnded(_ head: HTTPHead) {
        if (300..<400).contains(head.status), let location = head.header("Location"), let current = request.url,
            let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let origin, MastodonServer.origin(of: target) == origin
        {
            var next = request
            next.url = target
            // As browsers and URLSession do: 303, and 301/302 after a POST, become a GET.
            if head.status == 303 || ((head.status == 301 || head.status == 302) && request.httpMethod?.uppercased() == "POST") {
                next.httpMethod = "GET"
                next.httpBody = nil
                next.setValue(nil, forHTTPHeaderField: "Content-Type")
            }
            redirect = next
            return
        }
        reported = true
        receive(.response(head))
    }

    /// A piece of the body, as it came.
    private func receivedBody(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        // A redirect's own body is nobody's.
        guard redirect == nil, !bytes.isEmpty else { return }
        if !reported, let head {
            reported = true
            receive(.response(head))
        }
        receive(.body(Data(bytes)))
    }

    // MARK: - Going on and ending

    /// Sets the handle up for the redirect that the answer just read named; `false` when it
    /// cannot be (the handle must be out of the multi handle).
    func followRedirect() -> Bool {
        guard let next = redirect else { return false }
        redirects += 1
        redirect = nil
        head = nil
        request = next
        lastActivity = .now
        curl_easy_reset(easy)
        return configure()
    }

    /// The error for a transfer libcurl ended with `code`.
    func error(for code: CURLcode) -> URLError {
        URLError.curl(code, osErrno: Int32(truncatingIfNeeded: feedline_curl_os_errno(easy)), detail: String(cString: errorBuffer))
    }

    /// Reports the end: `error`, or — when libcurl says the answer is complete — the head if it
    /// was not reported yet (an answer without a body), then success.
    func finish(_ error: URLError?) {
        if error == nil, !reported {
            guard let head else {
                receive(.finished(URLError(.badServerResponse)))
                return
            }
            reported = true
            receive(.response(head))
        }
        receive(.finished(error))
    }
}
#endif
