import FeedlineMastodon
import Foundation

/// Feedline's registration with one server (`POST /api/v1/apps`): the client id and secret that
/// every sign-in and revocation on that server presents. Registered once per server and kept
/// in `apps/HOST.json` (0600); each stored account keeps a copy of the one its token came from,
/// because only that client may revoke it.
///
/// The client secret is a secret: ``description`` never shows it.
public struct AppRegistration: Sendable, Hashable, CustomStringConvertible {
    /// The server it is registered with.
    public let server: MastodonServer
    /// `client_id`.
    public let clientID: String
    /// `client_secret`.
    let clientSecret: String
    /// The scopes registered, in order.
    public let scopes: [String]
    /// The redirect URI registered.
    public let redirectURI: String

    /// A registration (made by the sign-in, or read back from its file).
    package init(server: MastodonServer, clientID: String, clientSecret: String, scopes: [String], redirectURI: String) {
        self.server = server
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.redirectURI = redirectURI
    }

    /// `AppRegistration(SERVER, client …)`: never the secret.
    public var description: String { "AppRegistration(\(server), client \(clientID))" }
}

extension AppRegistration {
    /// The file's JSON.
    struct Record: Codable {
        var version: Int
        var server: String
        var clientID: String
        var clientSecret: String
        var scopes: [String]
        var redirectURI: String

        enum CodingKeys: String, CodingKey {
            case version, server, scopes
            case clientID = "client_id"
            case clientSecret = "client_secret"
            case redirectURI = "redirect_uri"
        }
    }

    var record: Record {
        Record(version: 1, server: server.description, clientID: clientID, clientSecret: clientSecret, scopes: scopes, redirectURI: redirectURI)
    }

    /// A registration from its file's record; `nil` when the record is not usable.
    init?(record: Record) {
        guard record.version == 1, let server = try? MastodonServer(parsing: record.server),
            !record.clientID.isEmpty, !record.clientSecret.isEmpty
        else { return nil }
        self.init(server: server, clientID: record.clientID, clientSecret: record.clientSecret, scopes: record.scopes, redirectURI: record.redirectURI)
    }
}
