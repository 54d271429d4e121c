import FeedlineMastodon
import Foundation

/// Where a server signs users in: the four addresses of Mastodon's OAuth flow, from the
/// server's `/.well-known/oauth-authorization-server` document (RFC 8414, Mastodon 4.3+) or,
/// without one, Mastodon's classic paths.
public struct OAuthEndpoints: Sendable, Hashable {
    /// `GET`: the page where the user allows Feedline (`/oauth/authorize`).
    public var authorization: URL
    /// `POST`: trades a code for a token (`/oauth/token`).
    public var token: URL
    /// `POST`: revokes a token (`/oauth/revoke`).
    public var revocation: URL
    /// `POST`: registers an application (`/api/v1/apps`).
    public var registration: URL
    /// Whether they came from the discovery document (else they are the classic paths).
    public var discovered: Bool

    /// Mastodon's classic paths on `server`.
    public static func classic(for server: MastodonServer) -> OAuthEndpoints {
        OAuthEndpoints(
            authorization: server.url(path: "/oauth/authorize"),
            token: server.url(path: "/oauth/token"),
            revocation: server.url(path: "/oauth/revoke"),
            registration: server.url(path: "/api/v1/apps"),
            discovered: false
        )
    }
}

/// The parts of RFC 8414's metadata document Feedline reads.
struct AuthorizationServerMetadata: Decodable {
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var revocationEndpoint: String?
    var appRegistrationEndpoint: String?
    var codeChallengeMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case appRegistrationEndpoint = "app_registration_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
    }
}
