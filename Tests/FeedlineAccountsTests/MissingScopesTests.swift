import FeedlineAccounts
import FeedlineMastodon
import Foundation
import Testing

/// A sign-in older than the scopes Feedline asks for now is told, at the start of a session,
/// what will be refused and how to grant it.
@Suite struct MissingScopesTests {
    static func account(scopes: [String]) throws -> StoredAccount {
        let server = try MastodonServer(parsing: "social.example")
        let client = AppRegistration(server: server, clientID: "c", clientSecret: "s", scopes: scopes, redirectURI: "urn:ietf:wg:oauth:2.0:oob")
        return try StoredAccount(
            server: server, username: "alice", accountID: "1", secret: "secret", scopes: scopes, signedInAt: Date(timeIntervalSince1970: 0),
            client: client, revocationEndpoint: server.url.appendingPathComponent("oauth/revoke")
        )
    }

    @Test("the sign-in asks for write:lists and write:conversations; an account granted every scope misses none")
    func currentSignIn() throws {
        #expect(Login.scopes.contains("write:lists") && Login.scopes.contains("write:conversations"))
        #expect(try Self.account(scopes: Login.scopes).missingScopes.isEmpty)
        #expect(try Self.account(scopes: Login.scopes).missingScopesNote == nil)
        #expect(try Self.account(scopes: ["read", "write"]).missingScopes.isEmpty, "write covers every write:… scope")
    }

    @Test("an older sign-in is told which scopes it lacks and the command that grants them")
    func olderSignIn() throws {
        let older = Array(Login.scopes.prefix { $0 != "write:lists" })
        let account = try Self.account(scopes: older)
        #expect(account.missingScopes == ["write:lists", "write:conversations", "write:filters", "write:notifications", "write:reports", "write:accounts"])
        #expect(
            account.missingScopesNote
                == "alice@social.example was signed in before Feedline asked for write:lists, write:conversations, write:filters, write:notifications, write:reports and write:accounts: what needs them will be refused. Run `feedline login social.example` to grant them."
        )
        let one = try Self.account(scopes: Login.scopes.filter { $0 != "write:conversations" })
        #expect(one.missingScopesNote?.contains("asked for write:conversations: what needs it") == true)
    }
}
