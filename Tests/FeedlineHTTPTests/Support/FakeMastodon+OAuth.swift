import CLibCrypto
import FlyingFox
import Foundation

/// The OAuth side of the fake server, as Mastodon 4.3 has it: the discovery document (which a
/// test can withdraw), `/api/v1/instance`, application registration, an authorization page that
/// a test "opens" in place of a browser (the user signed in there is set by the test), the code
/// exchange with PKCE checked against the challenge, `verify_credentials` and revocation.
///
/// Time is the test's: a code is valid for ``FakeOAuth/codeLifetime`` of the fake's own clock,
/// which moves only when a test calls ``FakeMastodon/advanceClock(by:)``.
struct FakeOAuth: Sendable {
    struct App: Sendable {
        var secret: String
        var scopes: Set<String>
        var redirectURI: String
    }

    struct Grant: Sendable {
        var clientID: String
        var challenge: String
        var scopes: [String]
        var redirectURI: String
        var user: String
        var issuedAt: Double
        var used = false
    }

    struct Issued: Sendable {
        var clientID: String
        var user: String
        var revoked = false
    }

    /// What Mastodon registers apps with: these scopes and no others.
    static let knownScopes: Set<String> = [
        "read", "write", "follow", "push", "write:favourites", "write:statuses", "write:bookmarks", "write:media", "write:follows",
        "write:mutes", "write:blocks", "write:lists", "write:conversations", "write:filters",
        "write:notifications", "write:reports", "write:accounts",
    ]
    /// How long a code lives (Doorkeeper's default: 10 minutes).
    static let codeLifetime: Double = 600

    /// Whether `/.well-known/oauth-authorization-server` is served.
    var discovery = true
    /// Whether every request is answered with an HTML 404 (a web server that is not Mastodon).
    var notMastodon = false
    /// The user signed in to the "browser" that opens the authorization page.
    var browserUser: String?
    /// The fake's clock, in seconds.
    var now: Double = 0
    var apps: [String: App] = [:]
    var grants: [String: Grant] = [:]
    var issued: [String: Issued] = [:]
    var counter = 0

    mutating func next(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)-\(counter)-\(UUID().uuidString.prefix(8))"
    }
}

extension FakeMastodon {
    // MARK: - Test controls

    /// Sets the user the authorization page signs in as (`nil`: nobody is signed in).
    func signInBrowser(as user: String?) {
        state.withLock { $0.oauth.browserUser = user }
    }

    /// Withdraws (or restores) the discovery document, as on Mastodon before 4.3.
    func serveDiscovery(_ serve: Bool) {
        state.withLock { $0.oauth.discovery = serve }
    }

    /// Makes every answer an HTML 404, as a web server that is not Mastodon gives.
    func pretendNotMastodon() {
        state.withLock { $0.oauth.notMastodon = true }
    }

    /// Moves the fake's clock (code expiry) forward.
    func advanceClock(by seconds: Double) {
        state.withLock { $0.oauth.now += seconds }
    }

    /// Every access token the fake issued (tests search all output for them).
    var issuedTokens: [String] { state.withLock { Array($0.oauth.issued.keys) } }

    /// Every client secret the fake handed out.
    var clientSecrets: [String] { state.withLock { $0.oauth.apps.values.map(\.secret) } }

    /// Every code the authorization page showed.
    var codes: [String] { state.withLock { Array($0.oauth.grants.keys) } }

    /// Whether `token` was issued and then revoked.
    func isRevoked(_ token: String) -> Bool { state.withLock { $0.oauth.issued[token]?.revoked == true } }

    /// Whether `token` was issued here and is not revoked.
    func isIssued(_ token: String) -> Bool { state.withLock { $0.oauth.issued[token].map { !$0.revoked } ?? false } }

    var hasIssuedTokens: Bool { state.withLock { !$0.oauth.issued.isEmpty } }

    /// Revokes every token, as a user removing the app in the server's settings would.
    func revokeAll() {
        state.withLock { state in
            for key in state.oauth.issued.keys { state.oauth.issued[key]?.revoked = true }
        }
    }

    // MARK: - Serving

    /// The answer for an OAuth or account request; `nil` for the rest of the API.
    func oauthRoute(_ request: Recorded) -> HTTPResponse? {
        if state.withLock({ $0.oauth.notMastodon }) {
            return Self.response(404, ["Content-Type": "text/html"], Data("<html><body>Not Found</body></html>".utf8))
        }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/oauth-authorization-server"):
            guard state.withLock({ $0.oauth.discovery }) else {
                return Self.response(404, ["Content-Type": "text/html"], Data("<html><body>The page you were looking for doesn't exist.</body></html>".utf8))
            }
            let base = baseURL
            return Self.object([
                "issuer": base + "/",
                "authorization_endpoint": base + "/oauth/authorize",
                "token_endpoint": base + "/oauth/token",
                "revocation_endpoint": base + "/oauth/revoke",
                "app_registration_endpoint": base + "/api/v1/apps",
                "scopes_supported": FakeOAuth.knownScopes.sorted(),
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
                "grant_types_supported": ["authorization_code", "client_credentials"],
            ])
        case ("GET", "/api/v1/instance"):
            // A description a streaming test set wins over the plain one sign-in reads.
            if state.withLock({ $0.streaming.legacyDescription != nil }) { return serverDescription(version: "v1") }
            return Self.object(["uri": baseURL.replacingOccurrences(of: "http://", with: ""), "title": "Fake Mastodon", "version": "4.3.0"])
        case ("POST", "/api/v1/apps"):
            return registerApp(request.form)
        case ("GET", "/oauth/authorize"):
            return authorize(request.query)
        case ("POST", "/oauth/token"):
            return exchange(request.form)
        case ("POST", "/oauth/revoke"):
            return revoke(request.form)
        case ("GET", "/api/v1/accounts/verify_credentials"):
            return verifyCredentials(request.authorization)
        default:
            return nil
        }
    }

    private func registerApp(_ form: [String: String]) -> HTTPResponse {
        let scopes = Set((form["scopes"] ?? "read").split(separator: " ").map(String.init))
        guard let name = form["client_name"], !name.isEmpty else { return Self.error(422, "Validation failed: Application name can't be blank") }
        guard let redirect = form["redirect_uris"], !redirect.isEmpty else { return Self.error(422, "Validation failed: Redirect URI can't be blank") }
        guard scopes.isSubset(of: FakeOAuth.knownScopes) else { return Self.error(422, "Validation failed: Scopes are invalid") }
        return state.withLock { state in
            let clientID = state.oauth.next("client")
            let secret = state.oauth.next("client-secret")
            state.oauth.apps[clientID] = FakeOAuth.App(secret: secret, scopes: scopes, redirectURI: redirect)
            return Self.object([
                "id": String(state.oauth.counter), "name": name, "redirect_uri": redirect, "redirect_uris": [redirect],
                "scopes": scopes.sorted(), "client_id": clientID, "client_secret": secret,
            ])
        }
    }

    /// The page a signed-in user sees after allowing the app with the out-of-band redirect: the code.
    private func authorize(_ query: [String: String]) -> HTTPResponse {
        func page(_ status: Int, _ text: String) -> HTTPResponse {
            Self.response(status, ["Content-Type": "text/html; charset=utf-8"], Data("<html><body>\(text)</body></html>".utf8))
        }
        return state.withLock { state in
            guard query["response_type"] == "code" else { return page(400, "unsupported_response_type") }
            guard let clientID = query["client_id"], let app = state.oauth.apps[clientID] else { return page(401, "invalid_client") }
            guard query["redirect_uri"] == app.redirectURI else { return page(400, "invalid_redirect_uri") }
            let scopes = (query["scope"] ?? "read").split(separator: " ").map(String.init)
            guard Set(scopes).isSubset(of: app.scopes) else { return page(400, "invalid_scope") }
            guard query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], !challenge.isEmpty else {
                return page(400, "invalid_request: PKCE S256 required")
            }
            guard let user = state.oauth.browserUser else { return page(401, "Log in") }
            let code = state.oauth.next("code")
            state.oauth.grants[code] = FakeOAuth.Grant(
                clientID: clientID, challenge: challenge, scopes: scopes, redirectURI: app.redirectURI, user: user, issuedAt: state.oauth.now
            )
            return page(200, "<h2>Copy this authorization code and paste it to the application.</h2><input class=\"oauth-code\" readonly type=\"text\" value=\"\(code)\">")
        }
    }

    private func exchange(_ form: [String: String]) -> HTTPResponse {
        let invalidGrant = Self.oauthError(400, "invalid_grant", "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.")
        return state.withLock { state in
            guard form["grant_type"] == "authorization_code" else { return Self.oauthError(400, "unsupported_grant_type", "The authorization grant type is not supported.") }
            guard let clientID = form["client_id"], let app = state.oauth.apps[clientID], form["client_secret"] == app.secret else {
                return Self.oauthError(401, "invalid_client", "Client authentication failed.")
            }
            guard let code = form["code"], var grant = state.oauth.grants[code], !grant.used, grant.clientID == clientID,
                form["redirect_uri"] == grant.redirectURI, state.oauth.now - grant.issuedAt <= FakeOAuth.codeLifetime
            else { return invalidGrant }
            // PKCE: BASE64URL(SHA-256(verifier)) must be the challenge the authorization carried.
            guard let verifier = form["code_verifier"], Self.challenge(verifier) == grant.challenge else { return invalidGrant }
            grant.used = true
            state.oauth.grants[code] = grant
            let token = state.oauth.next("access-token")
            state.oauth.issued[token] = FakeOAuth.Issued(clientID: clientID, user: grant.user)
            return Self.object(["access_token": token, "token_type": "Bearer", "scope": grant.scopes.joined(separator: " "), "created_at": 1_795_348_800])
        }
    }

    private func revoke(_ form: [String: String]) -> HTTPResponse {
        state.withLock { state in
            guard let clientID = form["client_id"], let app = state.oauth.apps[clientID], form["client_secret"] == app.secret else {
                return Self.oauthError(401, "invalid_client", "Client authentication failed.")
            }
            guard let token = form["token"], let issued = state.oauth.issued[token] else { return Self.object([:]) }
            guard issued.clientID == clientID else { return Self.oauthError(403, "unauthorized_client", "You are not authorized to revoke this token") }
            state.oauth.issued[token]?.revoked = true
            return Self.object([:])
        }
    }

    private func verifyCredentials(_ authorization: String?) -> HTTPResponse {
        let bearer = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        return state.withLock { state in
            guard let bearer, let issued = state.oauth.issued[bearer], !issued.revoked else { return Self.error(401, "The access token is invalid") }
            return Self.object([
                "id": String(issued.user.utf8.reduce(7) { ($0 &* 31 &+ Int($1)) & 0xFFFFF }), "username": issued.user, "acct": issued.user, "display_name": issued.user.capitalized,
                "locked": false, "bot": false, "created_at": "2024-01-01T00:00:00.000Z", "note": "", "url": "\(baseURL)/@\(issued.user)",
                "avatar": "", "header": "", "followers_count": 0, "following_count": 0, "statuses_count": 0,
            ])
        }
    }

    // MARK: - Helpers

    static func challenge(_ verifier: String) -> String {
        Self.sha256(Data(verifier.utf8)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func object(_ value: [String: Any], status: Int = 200) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return response(status, [:], data)
    }

    static func oauthError(_ status: Int, _ code: String, _ description: String) -> HTTPResponse {
        object(["error": code, "error_description": description], status: status)
    }

    /// The fields of an `application/x-www-form-urlencoded` body (`+` is a space).
    static func formFields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String { String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}

extension FakeMastodon {
    /// SHA-256 straight from libcrypto: the fake checks verifiers without Feedline's PKCE code.
    static func sha256(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer { out in feedline_sha256(bytes.baseAddress, bytes.count, out.baseAddress) }
        }
        return Data(digest)
    }
}
