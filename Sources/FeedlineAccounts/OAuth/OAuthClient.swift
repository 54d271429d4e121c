import FeedlineMastodon
import Foundation
import HTTPTypes

/// The requests of Mastodon's OAuth flow against one server, over the same `HTTPTransport` as
/// the API (AsyncHTTPClient, the process's one client): discovery,
/// application registration, the code-for-token exchange, the token check and revocation.
///
/// Redirects are followed within the server's origin only. Every failure is a ``LoginError``
/// naming its step; text the server sends back is redacted of every secret the request carried.
final class OAuthClient: Sendable {
    /// Mastodon's out-of-band redirect: the server shows the code for the user to paste.
    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"

    /// One answer: body, status, and its `Content-Type`.
    struct Response {
        var data: Data
        var status: Int
        var contentType: String?
    }

    let server: MastodonServer
    let timeout: Duration
    let userAgent: String
    private let transport: any HTTPTransport

    init(server: MastodonServer, timeout: Duration, userAgent: String, transport: any HTTPTransport = platformDefaultTransport()) {
        self.server = server
        self.timeout = timeout
        self.userAgent = userAgent
        self.transport = transport
    }

    private var name: String { server.loginArgument }

    // MARK: - Steps

    /// The server's sign-in addresses: from `/.well-known/oauth-authorization-server` when it
    /// serves one, else the classic paths once `GET /api/v1/instance` shows a Mastodon-API server.
    func discover() async throws(LoginError) -> OAuthEndpoints {
        let wellKnown = server.url(path: "/.well-known/oauth-authorization-server")
        let response = try await send("GET", wellKnown, step: .discovery)
        if response.status == 200, let metadata = try? JSONDecoder().decode(AuthorizationServerMetadata.self, from: response.data),
            metadata.authorizationEndpoint != nil || metadata.tokenEndpoint != nil
        {
            return try endpoints(from: metadata)
        }
        // No discovery document (Mastodon before 4.3, GoToSocial, Pleroma): check that this is a
        // Mastodon-API server at all before registering anything with it.
        let instance = try await send("GET", server.url(path: "/api/v1/instance"), step: .discovery)
        let isJSONObject = (try? JSONSerialization.jsonObject(with: instance.data)) is [String: Any]
        guard isJSONObject, instance.status != 404 else {
            if (500..<600).contains(instance.status) { throw LoginError(.discovery, server: name, .unreachable(.serverUnavailable(status: instance.status))) }
            throw LoginError(.discovery, server: name, .notMastodon(what: "/api/v1/instance", answer: Self.answer(instance)))
        }
        return .classic(for: server)
    }

    /// Registers Feedline (`POST /api/v1/apps`) with the out-of-band redirect and `scopes`.
    func register(at url: URL, clientName: String, scopes: [String]) async throws(LoginError) -> AppRegistration {
        let form = [("client_name", clientName), ("redirect_uris", Self.outOfBand), ("scopes", scopes.joined(separator: " "))]
        let response = try await send("POST", url, form: form, step: .registration)
        try check(response, step: .registration, what: url.path, secrets: [])
        struct Application: Decodable {
            var clientID: String?
            var clientSecret: String?
            enum CodingKeys: String, CodingKey {
                case clientID = "client_id"
                case clientSecret = "client_secret"
            }
        }
        guard let app = try? JSONDecoder().decode(Application.self, from: response.data) else {
            throw LoginError(.registration, server: name, .unexpectedAnswer("no application object"))
        }
        guard let clientID = app.clientID, !clientID.isEmpty, let secret = app.clientSecret, !secret.isEmpty else {
            throw LoginError(.registration, server: name, .unexpectedAnswer("client_id or client_secret missing"))
        }
        return AppRegistration(server: server, clientID: clientID, clientSecret: secret, scopes: scopes, redirectURI: Self.outOfBand)
    }

    /// The page the user opens to allow Feedline: `response_type=code`, the client, the
    /// out-of-band redirect, the scopes and the PKCE challenge (`S256`); `forceLogin` asks the
    /// server to sign in afresh (for a second account on the same server).
    func authorizationURL(_ endpoints: OAuthEndpoints, client: AppRegistration, pkce: PKCE, forceLogin: Bool) -> URL {
        var components = URLComponents(url: endpoints.authorization, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: client.clientID),
            URLQueryItem(name: "redirect_uri", value: client.redirectURI),
            URLQueryItem(name: "scope", value: client.scopes.joined(separator: " ")),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: PKCE.method),
        ]
        if forceLogin { items.append(URLQueryItem(name: "force_login", value: "true")) }
        components.percentEncodedQuery = FormBody.query(items.map { ($0.name, $0.value ?? "") })
        return components.url ?? endpoints.authorization
    }

    /// Trades `code` for a token (`POST /oauth/token`, `authorization_code` with the verifier).
    /// Returns the token's secret and the scopes granted.
    func exchange(code: String, pkce: PKCE, client: AppRegistration, at url: URL) async throws(LoginError) -> (secret: String, scopes: [String]) {
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", client.clientID),
            ("client_secret", client.clientSecret), ("redirect_uri", client.redirectURI), ("code_verifier", pkce.verifier),
            ("scope", client.scopes.joined(separator: " ")),
        ]
        let secrets = [code, pkce.verifier, client.clientSecret]
        let response = try await send("POST", url, form: form, step: .token)
        if response.status == 400 || response.status == 401 {
            let error = Self.oauthError(response.data)
            if error == "invalid_grant" { throw LoginError(.token, server: name, .codeRejected) }
            if error == "invalid_client" || error == "unauthorized_client" { throw LoginError(.token, server: name, .clientRejected) }
        }
        try check(response, step: .token, what: url.path, secrets: secrets)
        struct Token: Decodable {
            var accessToken: String?
            var scope: String?
            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token"
                case scope
            }
        }
        guard let token = try? JSONDecoder().decode(Token.self, from: response.data), let secret = token.accessToken,
            (try? AccessToken(secret)) != nil
        else {
            throw LoginError(.token, server: name, .unexpectedAnswer("no usable access_token"))
        }
        let scopes = token.scope.map { $0.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init) } ?? client.scopes
        return (secret, scopes)
    }

    /// The account a token belongs to (`GET /api/v1/accounts/verify_credentials`).
    func verify(secret: String) async throws(LoginError) -> Mastodon.Account {
        let url = server.url(path: "/api/v1/accounts/verify_credentials")
        let response = try await send("GET", url, bearer: secret, step: .verification)
        try check(response, step: .verification, what: url.path, secrets: [secret])
        do {
            return try Mastodon.decode(Mastodon.Account.self, from: response.data)
        } catch {
            throw LoginError(.verification, server: name, .unexpectedAnswer(Self.redact(error.description, [secret])))
        }
    }

    /// Revokes a token (`POST /oauth/revoke` with the client it was issued to).
    func revoke(secret: String, client: AppRegistration, at url: URL) async throws(LoginError) {
        let form = [("client_id", client.clientID), ("client_secret", client.clientSecret), ("token", secret)]
        let response = try await send("POST", url, form: form, step: .revocation)
        try check(response, step: .revocation, what: url.path, secrets: [secret, client.clientSecret])
    }

    // MARK: - Transport

    private func send(_ method: String, _ url: URL, form: [(String, String)]? = nil, bearer: String? = nil, step: LoginError.Step) async throws(LoginError) -> Response {
        // Secrets go in clear to this machine only (a server's discovery document, or an
        // account file edited by hand, could name any address).
        guard url.scheme?.lowercased() == "https" || (url.scheme?.lowercased() == "http" && url.host.map(MastodonServer.isLoopback(host:)) == true)
        else { throw LoginError(step, server: name, .insecure) }
        var fields = [("Accept", "application/json"), ("User-Agent", userAgent)]
        if let bearer { fields.append(("Authorization", "Bearer \(bearer)")) }
        var body: Data?
        if let form {
            fields.append(("Content-Type", "application/x-www-form-urlencoded"))
            body = FormBody.encode(form)
        }
        let request = HTTPRequest(method: HTTPRequest.Method(method) ?? .get, url: url, fields: fields)
        let limits = HTTPTransferLimits(idle: timeout, total: timeout * 2, maximumBody: MastodonHTTPService.maximumAnswerSize)
        do {
            let (head, data) = try await transport.data(for: request, body: body, limits: limits)
            return Response(data: data, status: head.status.code, contentType: head.header("Content-Type"))
        } catch where error.code != .cancelled {
            let diagnosed = await MastodonHTTPError.diagnosed(error, url: url, server: server, limits: limits, transport: transport)
            throw LoginError(step, server: name, .unreachable(diagnosed))
        } catch {
            throw LoginError(step, server: name, .unreachable(.network(reason: "the request was cancelled")))
        }
    }

    /// Throws the error for an answer that is not 2xx (or not JSON).
    private func check(_ response: Response, step: LoginError.Step, what: String, secrets: [String]) throws(LoginError) {
        let status = response.status
        if (200..<300).contains(status) {
            if let page = MastodonHTTPService.nonJSONDescription(data: response.data, contentType: response.contentType) {
                throw LoginError(step, server: name, .notMastodon(what: what, answer: page))
            }
            return
        }
        let message = Self.serverMessage(response.data).map { Self.redact($0, secrets) }
        if status == 429 { throw LoginError(step, server: name, .rateLimited) }
        if message == nil, status == 404 || status == 405 || status == 410 {
            throw LoginError(step, server: name, .notMastodon(what: what, answer: Self.answer(response)))
        }
        if [502, 503, 504].contains(status) { throw LoginError(step, server: name, .unreachable(.serverUnavailable(status: status))) }
        throw LoginError(step, server: name, .refused(status: status, message: message))
    }

    // MARK: - Text

    /// "an HTML page" or "HTTP 404 and an HTML page": what came back, for a not-Mastodon message.
    private static func answer(_ response: Response) -> String {
        let body = MastodonHTTPService.nonJSONDescription(data: response.data, contentType: response.contentType)
        if (200..<300).contains(response.status) { return body ?? "something other than a Mastodon answer" }
        return body.map { "HTTP \(response.status) and \($0)" } ?? "HTTP \(response.status)"
    }

    /// The `error` code of an OAuth error body (`invalid_grant`).
    private static func oauthError(_ data: Data) -> String? {
        (try? JSONDecoder().decode(Mastodon.APIError.self, from: data))?.message
    }

    /// The readable text of an error body, on one line, at most 200 characters.
    private static func serverMessage(_ data: Data) -> String? {
        guard let body = try? JSONDecoder().decode(Mastodon.APIError.self, from: data) else { return nil }
        let text = (body.errorDescription ?? body.message).unicodeScalars
            .map { $0.properties.generalCategory == .control ? " " : String($0) }
            .joined()
            .trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// `text` with every secret replaced by `[redacted]`.
    static func redact(_ text: String, _ secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: "[redacted]") }
    }

    /// Endpoints from a discovery document: each on this server's origin, the classic path for
    /// any it leaves out.
    private func endpoints(from metadata: AuthorizationServerMetadata) throws(LoginError) -> OAuthEndpoints {
        var endpoints = OAuthEndpoints.classic(for: server)
        endpoints.discovered = true
        func take(_ text: String?, into keyPath: WritableKeyPath<OAuthEndpoints, URL>) throws(LoginError) {
            guard let text else { return }
            guard let url = URL(string: text), server.isSameOrigin(url) else {
                throw LoginError(.discovery, server: name, .foreignEndpoint(text))
            }
            endpoints[keyPath: keyPath] = url
        }
        try take(metadata.authorizationEndpoint, into: \.authorization)
        try take(metadata.tokenEndpoint, into: \.token)
        try take(metadata.revocationEndpoint, into: \.revocation)
        try take(metadata.appRegistrationEndpoint, into: \.registration)
        return endpoints
    }
}
