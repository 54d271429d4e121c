import Feedline
import FeedlineMastodon
import Foundation

/// Signing in from a terminal, as toot and tut do, in two halves around the user's visit to the
/// browser:
///
/// 1. ``begin()`` finds the server's sign-in addresses (`/.well-known/oauth-authorization-server`,
///    else the classic paths), registers Feedline once per server (`POST /api/v1/apps`, the
///    out-of-band redirect, ``scopes``), makes a PKCE pair and returns the address to open.
/// 2. ``finish(_:code:)`` trades the code the server showed for a token (`POST /oauth/token`
///    with the verifier), checks it (`verify_credentials`) and stores the account.
///
/// Nothing is stored for the account until every step has passed; the account file is written
/// whole or not at all (``AccountStore``). Only the registration, which holds no user secret,
/// is kept from a sign-in that fails later.
public struct Login: Sendable {
    /// The scopes Feedline asks for, and no more: reading, and the kinds of write the fronts
    /// make (favourites; posts, boosts and their media; bookmarks; follows, mutes and blocks;
    /// lists; direct conversations; server filters; reports to the moderators; the instance's
    /// announcements marked read, and your profile, both of which Mastodon files under
    /// `write:accounts`).
    public static let scopes = [
        "read", "write:favourites", "write:statuses", "write:bookmarks", "write:media", "write:follows", "write:mutes", "write:blocks",
        "write:lists", "write:conversations", "write:filters", "write:notifications", "write:reports",
        "write:accounts",
    ]
    /// The application name the server shows the user ("Feedline").
    public static let clientName = "Feedline"
    /// The request timeout when none is given.
    public static let defaultTimeout: Duration = .seconds(20)

    /// What ``begin()`` hands the user: the address to open, and what ``finish(_:code:)`` needs.
    public struct Authorization: Sendable {
        /// The page where the user signs in and allows Feedline; it then shows a code.
        public let url: URL
        /// Whether the sign-in addresses came from the discovery document.
        public let discovered: Bool
        let endpoints: OAuthEndpoints
        let client: AppRegistration
        let pkce: PKCE
    }

    /// The server.
    public let server: MastodonServer
    /// Where the account is stored.
    public let store: AccountStore
    private let client: OAuthClient
    private let wallClock: WallClock

    /// A sign-in to `address` (`social.example` means `https://social.example`).
    ///
    /// - Parameters:
    ///   - address: a host name (https), or a full address; plain `http://` is accepted for
    ///     loopback hosts only, so the token never crosses a network in clear.
    ///   - store: where the account and the registration are kept.
    ///   - timeout: how long each request may wait for an answer.
    ///   - wallClock: when the account was signed in.
    /// - Throws: ``LoginError`` at the ``LoginError/Step/address`` step.
    public init(
        address: String, store: AccountStore, timeout: Duration = Login.defaultTimeout, wallClock: WallClock = .system,
        userAgent: String = FeedlineVersion.userAgent
    ) throws(LoginError) {
        let server: MastodonServer
        do {
            server = try MastodonServer(parsing: address)
        } catch {
            throw LoginError(.address, server: address.trimmingCharacters(in: .whitespacesAndNewlines), .invalidAddress(error.description))
        }
        guard server.allowsRequests else { throw LoginError(.address, server: server.loginArgument, .insecure) }
        self.server = server
        self.store = store
        self.wallClock = wallClock
        client = OAuthClient(server: server, timeout: timeout, userAgent: userAgent)
    }

    /// Steps 1–2: discovery and registration (a stored registration with the same scopes is
    /// reused), then the authorization address with a fresh PKCE challenge.
    public func begin() async throws(LoginError) -> Authorization {
        let endpoints = try await client.discover()
        let registration: AppRegistration
        if let stored = try? store.registration(for: server), stored.scopes == Self.scopes, stored.redirectURI == OAuthClient.outOfBand {
            registration = stored
        } else {
            registration = try await client.register(at: endpoints.registration, clientName: Self.clientName, scopes: Self.scopes)
            // Kept so the next sign-in on this server reuses it; a failure here only costs that.
            try? store.save(registration)
        }
        let pkce = PKCE()
        // A second account on a server the browser may be signed in to: ask for a fresh sign-in.
        let another = !((try? store.accounts(on: server)) ?? []).isEmpty
        let url = client.authorizationURL(endpoints, client: registration, pkce: pkce, forceLogin: another)
        return Authorization(url: url, discovered: endpoints.discovered, endpoints: endpoints, client: registration, pkce: pkce)
    }

    /// Steps 3–5: the code for a token, the token checked, the account stored. When the account
    /// was stored already, its earlier token is revoked once the new one is saved; when the
    /// check or the saving fails, the new token is revoked, so a failed sign-in leaves no valid
    /// token behind, here or on the server.
    ///
    /// - Parameter code: what the server showed; surrounding spaces are ignored.
    /// - Returns: the stored account.
    public func finish(_ authorization: Authorization, code: String) async throws(LoginError) -> StoredAccount {
        let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else { throw LoginError(.code, server: server.loginArgument, .noCode) }
        let granted: (secret: String, scopes: [String])
        do {
            granted = try await client.exchange(code: code, pkce: authorization.pkce, client: authorization.client, at: authorization.endpoints.token)
        } catch {
            if case .clientRejected = error.reason { try? store.removeRegistration(for: server) }
            throw error
        }
        let stored: StoredAccount
        let replaced: StoredAccount?
        do throws(LoginError) {
            let account = try await client.verify(secret: granted.secret)
            guard StoredAccount.isUsableUsername(account.username) else {
                throw LoginError(.verification, server: server.loginArgument, .unusableUsername(account.username))
            }
            do {
                stored = try StoredAccount(
                    server: server, username: account.username, accountID: account.id, secret: granted.secret, scopes: granted.scopes,
                    signedInAt: wallClock.now(), client: authorization.client, revocationEndpoint: authorization.endpoints.revocation
                )
                replaced = try? store.account(named: stored.id)
                try store.save(stored)
            } catch let error as CredentialStoreError {
                throw LoginError(.saving, server: server.loginArgument, .store(error))
            } catch {
                throw LoginError(.verification, server: server.loginArgument, .unexpectedAnswer("the access token has spaces inside"))
            }
        } catch {
            // The server issued a token that nothing here will keep: revoke it rather than leave
            // it valid with no file pointing at it. A failure here changes nothing stored.
            try? await client.revoke(secret: granted.secret, client: authorization.client, at: authorization.endpoints.revocation)
            throw error
        }
        // Signing in again replaces the account's token: the old one is revoked rather than left
        // valid on the server with no file pointing at it. A failure here changes nothing stored.
        if let replaced, replaced.token.secret != stored.token.secret {
            try? await client.revoke(secret: replaced.token.secret, client: replaced.client, at: replaced.revocationEndpoint)
        }
        return stored
    }

    /// Signs `account` out: revokes its token on the server (`POST /oauth/revoke`), then deletes
    /// its file whatever the server said, so a server that is down never keeps a token on disk.
    ///
    /// - Returns: `nil` when the token was revoked, else why it could not be (the file is gone
    ///   either way).
    /// - Throws: ``CredentialStoreError`` when the file cannot be removed.
    public static func signOut(
        _ account: StoredAccount, store: AccountStore, timeout: Duration = Login.defaultTimeout, userAgent: String = FeedlineVersion.userAgent
    ) async throws(CredentialStoreError) -> LoginError? {
        let client = OAuthClient(server: account.server, timeout: timeout, userAgent: userAgent)
        var failure: LoginError?
        do {
            try await client.revoke(secret: account.token.secret, client: account.client, at: account.revocationEndpoint)
        } catch {
            failure = error
        }
        try store.remove(account)
        return failure
    }
}
