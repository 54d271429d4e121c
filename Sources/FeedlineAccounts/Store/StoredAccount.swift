import FeedlineMastodon
import Foundation

/// An account signed in with `feedline login`: who, on which server, its access token and the
/// registration that token was issued to. Kept in `accounts/USER@HOST.json`, mode 0600.
///
/// The token and client secret are secrets: ``description`` and `dump` show neither.
public struct StoredAccount: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The server.
    public let server: MastodonServer
    /// The user name on the server (`alice`).
    public let username: String
    /// The account's id on the server.
    public let accountID: String
    /// The access token; its source is ``AccessToken/Source/account(_:)``.
    public let token: AccessToken
    /// The scopes the server granted.
    public let scopes: [String]
    /// When the account was signed in (from the injected wall clock).
    public let signedInAt: Date
    /// The registration the token was issued to (revocation needs it).
    let client: AppRegistration
    /// Where the token is revoked (`POST`), as discovered at sign-in.
    let revocationEndpoint: URL

    /// An account as the sign-in makes it (and tests, which have no server to sign in to).
    package init(
        server: MastodonServer, username: String, accountID: String, secret: String, scopes: [String], signedInAt: Date,
        client: AppRegistration, revocationEndpoint: URL
    ) throws(MastodonSetupError) {
        self.server = server
        self.username = username
        self.accountID = accountID
        token = try AccessToken(secret, source: .account("\(username)@\(server.authority)"))
        self.scopes = scopes
        self.signedInAt = signedInAt
        self.client = client
        self.revocationEndpoint = revocationEndpoint
    }

    /// `alice@social.example` (`alice@127.0.0.1:8080` with a port): how commands name the account.
    public var id: String { "\(username)@\(server.authority)" }

    /// `@alice@social.example`.
    public var handle: String { "@" + id }

    /// The scopes Feedline asks for now (``Login/scopes``) that this sign-in was not granted — an
    /// account signed in before Feedline asked for them, in ``Login/scopes`` order. A granted
    /// `write` (or `read`) covers every `write:…` (`read:…`) scope.
    public var missingScopes: [String] {
        let granted = Set(scopes)
        return Login.scopes.filter { scope in
            guard !granted.contains(scope) else { return false }
            let umbrella = scope.split(separator: ":").first.map(String.init) ?? scope
            return !granted.contains(umbrella)
        }
    }

    /// What a session signed in as this account says at the start when ``missingScopes`` is not
    /// empty: what may be refused, and the command that grants it; `nil` otherwise.
    public var missingScopesNote: String? {
        let missing = missingScopes
        guard !missing.isEmpty else { return nil }
        let list = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", ") + " and " + (missing.last ?? "")
        return "\(id) was signed in before Feedline asked for \(list): what needs \(missing.count == 1 ? "it" : "them") will be refused. Run `feedline login \(server.loginArgument)` to grant \(missing.count == 1 ? "it" : "them")."
    }

    /// `StoredAccount(alice@social.example)`: never the token.
    public var description: String { "StoredAccount(\(id))" }

    /// A mirror without the secrets, so `dump` and debuggers never show them.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "server": server, "scopes": scopes, "signedInAt": signedInAt], displayStyle: .struct)
    }

    /// Whether `name` names this account: `alice@social.example`, with or without a leading `@`,
    /// in any case.
    public func isNamed(_ name: String) -> Bool {
        Self.normalized(name) == id.lowercased()
    }

    /// `name` without surrounding spaces or a leading `@`, lowercased.
    static func normalized(_ name: String) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("@") { text.removeFirst() }
        return text.lowercased()
    }

    /// Whether a user name the server sent can name a file: letters, digits, `_`, `.` and `-`,
    /// not starting with `.` (Mastodon's own are letters, digits and `_`).
    static func isUsableUsername(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0)) }
    }
}

extension StoredAccount {
    /// The file's JSON.
    struct Record: Codable {
        var version: Int
        var server: String
        var username: String
        var accountID: String
        var accessToken: String
        var scopes: [String]
        var signedInAt: Date
        var client: AppRegistration.Record
        var revocationEndpoint: String

        enum CodingKeys: String, CodingKey {
            case version, server, username, scopes, client
            case accountID = "account_id"
            case accessToken = "access_token"
            case signedInAt = "signed_in_at"
            case revocationEndpoint = "revocation_endpoint"
        }
    }

    var record: Record {
        Record(
            version: 1, server: server.description, username: username, accountID: accountID, accessToken: token.secret,
            scopes: scopes, signedInAt: signedInAt, client: client.record, revocationEndpoint: revocationEndpoint.absoluteString
        )
    }

    /// An account from the record read from the file at `path`.
    ///
    /// - Throws: ``CredentialStoreError/malformed(path:reason:)`` saying what is not usable.
    static func from(_ record: Record, path: String) throws(CredentialStoreError) -> StoredAccount {
        func malformed(_ reason: String) -> CredentialStoreError { .malformed(path: path, reason: reason) }
        guard record.version == 1 else { throw malformed("version \(record.version) is not one this Feedline reads") }
        guard let server = try? MastodonServer(parsing: record.server) else { throw malformed("its server address is not usable") }
        guard isUsableUsername(record.username) else { throw malformed("its user name is not usable") }
        guard let client = AppRegistration(record: record.client) else { throw malformed("its client registration is incomplete") }
        guard let revocation = URL(string: record.revocationEndpoint), server.isSameOrigin(revocation) else {
            throw malformed("its revocation address is not on its server")
        }
        do {
            return try StoredAccount(
                server: server, username: record.username, accountID: record.accountID, secret: record.accessToken,
                scopes: record.scopes, signedInAt: record.signedInAt, client: client, revocationEndpoint: revocation
            )
        } catch {
            throw malformed("its access token is empty or has spaces inside")
        }
    }
}
