import Feedline
import Foundation
import HTTPTypes

/// One API request: method, address, and how messages name it.
struct APIRequest: Sendable {
    var method: String
    var url: URL
    /// "the home timeline", "post 42": how error messages name what was asked.
    var what: String
    /// The feed it reads, if any (206 then means "being prepared").
    var feed: Feed?
    /// An `application/x-www-form-urlencoded` body, if any.
    var form: Data?
    /// An `application/json` body, if any.
    var json: Data? = nil
    /// Any other body, with its content type (a `multipart/form-data` upload).
    var body: (data: Data, contentType: String)? = nil
    /// More header fields (an `Idempotency-Key`).
    var headers: [String: String] = [:]
}

/// A successful answer (2xx).
struct APIResponse: Sendable {
    var data: Data
    /// The status line and header fields.
    var head: HTTPResponse

    var status: Int { head.status.code }

    /// The field `name` (any case), several values joined with ", ".
    func header(_ name: String) -> String? { head.header(name) }

    /// The parsed `Link` header (empty without one).
    var links: LinkHeader { LinkHeader(parsing: header("Link") ?? "") }
}

extension MastodonHTTPService {
    /// Sends `request`; a 429 on a read whose reset is within ``rateLimitWait`` waits for it on
    /// the clock and is retried once. Non-2xx answers become ``MastodonHTTPError``s.
    func send(_ request: APIRequest) async throws -> APIResponse {
        var retried = false
        while true {
            let response = try await transmit(request)
            guard response.status == 429 else {
                try check(response, for: request)
                return response
            }
            let now = wallClock.now()
            let limit = RateLimit(header: response.header, now: now)
            let wait = limit.reset.map { $0.timeIntervalSince(now) }
            if request.method == "GET", !retried, let wait, wait <= rateLimitWait.timeInterval, rateLimitWait > .zero {
                retried = true
                if wait > 0 { try await clock.sleep(for: .seconds(wait)) }
                continue
            }
            throw MastodonHTTPError.rateLimited(reset: limit.reset, secondsToReset: wait.map { max(0, Int($0.rounded(.up))) })
        }
    }

    /// One round trip; network failures become ``MastodonHTTPError``s, cancellation stays one.
    private func transmit(_ request: APIRequest) async throws -> APIResponse {
        var fields: [(String, String)] = [("Accept", "application/json"), ("User-Agent", userAgent)]
        var body: Data?
        if let form = request.form {
            body = form
            fields.append(("Content-Type", "application/x-www-form-urlencoded"))
        } else if let json = request.json {
            body = json
            fields.append(("Content-Type", "application/json"))
        } else if let upload = request.body {
            body = upload.data
            fields.append(("Content-Type", upload.contentType))
        }
        fields += request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if let token, server.isSameOrigin(request.url) {
            fields.append(("Authorization", "Bearer \(token.secret)"))
        }
        let method = HTTPRequest.Method(request.method) ?? .get
        do {
            let (head, data) = try await transport.data(
                for: HTTPRequest(method: method, url: request.url, fields: fields), body: body, limits: requestLimits
            )
            return APIResponse(data: data, head: head)
        } catch {
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw await failure(error, for: request)
        }
    }

    /// Throws the error for a non-2xx status (and for 206 on a timeline).
    private func check(_ response: APIResponse, for request: APIRequest) throws(MastodonHTTPError) {
        let status = response.status
        if status == 206, let feed = request.feed { throw .timelinePreparing(feed) }
        if (200..<300).contains(status) { return }
        let message = serverMessage(response.data)
        switch status {
        case 401: throw .unauthorized(serverMessage: message, sentToken: token != nil, server: server.loginArgument)
        case 403: throw .forbidden(serverMessage: message)
        case 404, 410:
            if message == nil, let page = Self.nonJSONDescription(response) {
                throw .notMastodon(server: server.description, what: request.what, status: status, body: page)
            }
            throw .notFound(serverMessage: message)
        case 422: throw .unprocessable(serverMessage: message)
        case 502, 503, 504: throw .serverUnavailable(status: status)
        case 500..<600: throw .serverError(status: status, serverMessage: message)
        default: throw .unexpectedStatus(status, serverMessage: message)
        }
    }

    /// `type` from the body, or ``MastodonHTTPError/unexpectedBody(what:server:failure:)`` —
    /// ``MastodonHTTPError/notMastodon(server:evidence:)`` when the body is not JSON at all.
    func decode<Value: Decodable>(_ type: Value.Type, from response: APIResponse, what: String) throws(MastodonHTTPError) -> Value {
        do {
            return try Mastodon.decode(type, from: Self.replacingInvalidUTF8(response.data))
        } catch {
            if error.isNotJSON {
                let page = Self.nonJSONDescription(response) ?? "a body that is not JSON"
                throw .notMastodon(server: server.description, what: what, status: response.status, body: page)
            }
            let failure = Mastodon.DecodingFailure(path: redacted(error.path), problem: redacted(error.problem))
            throw .unexpectedBody(what: what, server: server.description, failure: failure)
        }
    }

    /// The page in `response`, at most `limit` elements: a server answering far more than was
    /// asked (a hostile one) is cut to what was asked for, so a screen never holds more.
    ///
    /// Lossy per element: an element that does not decode (a wrong type, a missing field) is
    /// left out and counted in ``DecodedPage/skipped``, so one broken post does not fail its
    /// page. A body that is not a JSON array, or whose every element fails, throws as
    /// ``decode(_:from:what:)`` does (the first element's failure, with its path).
    func decodePage<Element: Decodable>(
        _ type: Element.Type, from response: APIResponse, what: String, limit: Int
    ) throws(MastodonHTTPError) -> DecodedPage<Element> {
        let elements = try decode([Lossy<Element>].self, from: response, what: what).prefix(limit)
        let items = elements.compactMap(\.value)
        if items.isEmpty, !elements.isEmpty {
            // Every element failed: the server's answer is not a page of these at all.
            return DecodedPage(items: Array(try decode([Element].self, from: response, what: what).prefix(limit)), skipped: 0)
        }
        return DecodedPage(items: items, skipped: elements.count - items.count)
    }

    /// `data` with every byte that is not part of valid UTF-8 replaced by U+FFFD, so a post
    /// whose text holds one reads with a replacement character instead of failing the answer
    /// (JSON on the wire is UTF-8, RFC 8259). Valid UTF-8 comes back unchanged.
    static func replacingInvalidUTF8(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        return text.utf8.count == data.count && text.utf8.elementsEqual(data) ? data : Data(text.utf8)
    }

    /// "an HTML page", "text/plain, not JSON": what a body that is not JSON is; `nil` for JSON
    /// and for an empty body (which Mastodon may send too).
    static func nonJSONDescription(_ response: APIResponse) -> String? {
        nonJSONDescription(data: response.data, contentType: response.header("Content-Type"))
    }

    /// What a body with this `Content-Type` is when it is not JSON ("an HTML page", "text/plain,
    /// not JSON"); `nil` for JSON and for an empty body.
    package static func nonJSONDescription(data: Data, contentType: String?) -> String? {
        guard !data.isEmpty,
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
        else { return nil }
        let type = (contentType?.lowercased() ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? ""
        let start = String(decoding: data.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if type.contains("html") || start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return "an HTML page" }
        return type.isEmpty || type.contains("json") ? "a body that is not JSON" : "\(type), not JSON"
    }

    /// The `error` of a Mastodon error body, on one line, at most 200 characters, redacted;
    /// `nil` when the body is not one.
    private func serverMessage(_ data: Data) -> String? {
        guard let body = try? Mastodon.decode(Mastodon.APIError.self, from: data) else { return nil }
        let text = body.errorDescription ?? body.message
        let line = text.unicodeScalars
            .map { $0.properties.generalCategory == .control ? " " : String($0) }
            .joined()
            .trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        return redacted(line.count > 200 ? String(line.prefix(200)) + "…" : line)
    }

    private func redacted(_ text: String) -> String {
        token?.redacting(text) ?? text
    }

    private func failure(_ error: HTTPTransportError, for request: APIRequest) async -> MastodonHTTPError {
        await MastodonHTTPError.diagnosed(error, url: request.url, server: server, limits: requestLimits, transport: transport)
    }
}

extension MastodonHTTPError {
    /// The error for a round trip to `host` that failed with `error` (not a cancellation), under
    /// `limits`: no connection and why, no answer within the idle limit, an answer that ran past
    /// the total limit, a certificate refused, a TLS failure, a redirect loop, an answer too
    /// large or not HTTP.
    package static func transport(_ error: HTTPTransportError, host: String, limits: HTTPTransferLimits) -> MastodonHTTPError {
        switch error.code {
        case .idleTimeout:
            return .timedOut(seconds: limits.idle.timeInterval)
        case .totalTimeout:
            return .tookTooLong(seconds: (limits.total ?? limits.idle).timeInterval)
        case .cannotFindHost:
            return .noConnection(host: host, reason: "the server's name cannot be found")
        case .connectionRefused:
            return .noConnection(host: host, reason: "the connection was refused")
        case .networkUnreachable:
            return .noConnection(host: host, reason: "there is no network connection")
        case .cannotConnect:
            return .noConnection(host: host, reason: "the connection could not be made")
        case .connectionLost:
            return .closedEarly
        case .tlsFailed:
            return .noConnection(host: host, reason: "a secure (TLS) connection could not be made")
        case .certificateUntrusted:
            return .untrustedCertificate(host: host)
        case .badResponse:
            return .network(reason: "the server's answer was not valid HTTP")
        case .headerTooLarge:
            return .headerTooLarge
        case .bodyTooLarge(let limit):
            return .answerTooLarge(limitBytes: limit)
        case .redirectLoop, .tooManyRedirects:
            return .redirectLoop
        case .unsupportedAddress:
            return .network(reason: "the address is not one Feedline can ask")
        case .cancelled, .other:
            return .network(reason: "the connection failed")
        }
    }

    /// ``transport(_:host:limits:)`` for an exchange with `url` on `server`, except that a TLS
    /// handshake that failed against a server answering plain HTTP at the same host and port
    /// says so (``plainHTTP(host:suggestion:)``). To tell, it asks `http://host:port/` once
    /// (no token, within the request's idle limit) through `transport`: any HTTP answer means plain HTTP.
    package static func diagnosed(
        _ error: HTTPTransportError, url: URL, server: MastodonServer, limits: HTTPTransferLimits, transport: any HTTPTransport
    ) async -> MastodonHTTPError {
        // host:port when the address names a port, so "Could not connect" says where exactly.
        let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? server.description
        guard error.code == .tlsFailed, url.scheme?.lowercased() == "https",
            var probe = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return .transport(error, host: host, limits: limits) }
        probe.scheme = "http"
        probe.percentEncodedPath = "/"
        probe.query = nil
        // Within the request timeout, as any request: a cap of its own would make the answer
        // depend on how fast a busy server (or machine) replies.
        guard let probeURL = probe.url, await answersPlainHTTP(probeURL, within: limits.idle, transport: transport) else {
            return .transport(error, host: host, limits: limits)
        }
        var plain = URLComponents(url: server.url, resolvingAgainstBaseURL: false)
        plain?.scheme = "http"
        let suggestion = server.isLoopback ? plain?.url?.absoluteString : nil
        return .plainHTTP(host: host, suggestion: suggestion)
    }

    /// Whether `url` (an `http://` address) gets an HTTP answer, whatever its status.
    private static func answersPlainHTTP(_ url: URL, within limit: Duration, transport: any HTTPTransport) async -> Bool {
        let request = HTTPRequest(method: .get, url: url, fields: [("User-Agent", FeedlineVersion.userAgent)])
        // Only the head matters: a large page is an answer too.
        let limits = HTTPTransferLimits(idle: limit, total: limit, maximumBody: 64 << 10)
        do {
            _ = try await transport.data(for: request, limits: limits)
            return true
        } catch {
            if case .bodyTooLarge = error.code { return true }
            return false
        }
    }
}

/// The elements of a page that decoded, and how many did not.
struct DecodedPage<Element> {
    var items: [Element]
    /// Elements the server sent that could not be read and were left out.
    var skipped: Int
    /// How many elements the server sent (read or not): what it counted against a limit.
    var sent: Int { items.count + skipped }
}

/// One element of a page: its value, or `nil` when it does not decode (the array goes on).
private struct Lossy<Element: Decodable>: Decodable {
    var value: Element?

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Element.self)
    }
}
