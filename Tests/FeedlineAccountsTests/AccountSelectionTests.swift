import FeedlineAccounts
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Which server and token a session gets from --sandbox, --account, --server, the config file's
/// account, FEEDLINE_TOKEN, --token-file and the stored accounts.
@Suite("Account selection")
struct AccountSelectionTests {
    static let none = Setting<String?>(nil, from: .builtIn)

    static func choose(
        _ scratch: ScratchStore, sandbox: Bool = false, server: String? = nil, account: Setting<String?> = none, timeline: String? = nil,
        tokenFile: String? = nil, environment: [String: String] = [:]
    ) throws -> AccountSelection {
        try AccountSelection.choose(
            sandbox: sandbox, server: server, account: account, timeline: timeline, tokenFile: tokenFile, environment: environment, store: scratch.store
        )
    }

    @Test("nothing stored: the sandbox, or a signed-out server; --token-file alone has no server")
    func nothingStored() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        #expect(try Self.choose(scratch) == AccountSelection(choice: nil, token: .sandbox, account: nil))
        #expect(try Self.choose(scratch, server: "social.example", timeline: "public")
            == AccountSelection(choice: .server(address: "social.example", timeline: "public", tokenFile: nil), token: .none, account: nil))
        #expect(try Self.choose(scratch, server: "social.example", environment: ["FEEDLINE_TOKEN": "t"]).token == .environment)
        #expect(throws: AccountSelectionError("--token-file needs a server: pass --server or --account (or sign in with feedline login SERVER).")) {
            try Self.choose(scratch, tokenFile: "/tmp/t")
        }
    }

    @Test("stored accounts: the default without flags, --account picks one, --server picks the one on it, --sandbox ignores them")
    func stored() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let alice = try makeAccount("alice", on: "social.example", minutes: 0)
        let bob = try makeAccount("bob", on: "other.example", minutes: 5)
        let carol = try makeAccount("carol", on: "social.example", minutes: 3)
        for account in [alice, bob, carol] { try scratch.store.save(account) }
        func signedIn(_ account: StoredAccount, timeline: String? = nil) -> AccountSelection {
            AccountSelection(
                choice: .account(id: account.id, server: account.server, timeline: timeline, token: account.token), token: .account(account.id), account: account
            )
        }
        #expect(try Self.choose(scratch) == signedIn(bob))
        #expect(try Self.choose(scratch, sandbox: true) == AccountSelection(choice: nil, token: .sandbox, account: nil))
        #expect(try Self.choose(scratch, account: Setting("alice@social.example", from: .flag("--account")), timeline: "local") == signedIn(alice, timeline: "local"))
        #expect(try Self.choose(scratch, account: Setting("alice@social.example", from: .configFile(line: 1))) == signedIn(alice))
        // On a server with two accounts: the configured one if it is there, else the latest there.
        #expect(try Self.choose(scratch, server: "https://social.example/") == signedIn(carol))
        #expect(try Self.choose(scratch, server: "social.example", account: Setting("alice@social.example", from: .configFile(line: 1))) == signedIn(alice))
        #expect(try Self.choose(scratch, server: "other.example", account: Setting("alice@social.example", from: .configFile(line: 1))) == signedIn(bob))
        #expect(try Self.choose(scratch, server: "third.example").token == .none)
    }

    @Test("FEEDLINE_TOKEN and --token-file win over the stored token; the stored account still names the server")
    func overrides() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let alice = try makeAccount("alice", on: "social.example")
        try scratch.store.save(alice)
        let byEnvironment = try Self.choose(scratch, environment: ["FEEDLINE_TOKEN": "typed-by-hand"])
        #expect(byEnvironment == AccountSelection(choice: .server(address: "https://social.example", timeline: nil, tokenFile: nil), token: .environment, account: alice))
        let byFile = try Self.choose(scratch, server: "social.example", tokenFile: "/tmp/t")
        #expect(byFile == AccountSelection(choice: .server(address: "social.example", timeline: nil, tokenFile: "/tmp/t"), token: .file("/tmp/t"), account: nil))
        let blank = try Self.choose(scratch, environment: ["FEEDLINE_TOKEN": "  "])
        #expect(blank.token == .account("alice@social.example"))
    }

    @Test("mistakes are one sentence: an account not stored (flag or config file), an account on another server")
    func mistakes() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try scratch.store.save(try makeAccount("alice", on: "social.example"))
        #expect(throws: AccountSelectionError("No account dave@x.example is signed in; the signed-in accounts are alice@social.example (feedline accounts lists them).")) {
            try Self.choose(scratch, account: Setting("@dave@x.example", from: .flag("--account")))
        }
        #expect(
            throws: AccountSelectionError(
                "The config file's account dave@x.example (config.toml line 4) is not signed in; the signed-in accounts are alice@social.example: run feedline login SERVER, or change the line."
            )
        ) {
            try Self.choose(scratch, account: Setting("dave@x.example", from: .configFile(line: 4)))
        }
        #expect(throws: AccountSelectionError("--account alice@social.example is on https://social.example, not on --server https://other.example.")) {
            try Self.choose(scratch, server: "other.example", account: Setting("alice@social.example", from: .flag("--account")))
        }
    }

    @Test("a token by hand with a named account or server: the account's server, the hand-given token; an address that does not parse is left for the service to report")
    func overridesWithNames() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let alice = try makeAccount("alice", on: "social.example")
        try scratch.store.save(alice)
        let named = try Self.choose(scratch, account: Setting("alice@social.example", from: .flag("--account")), tokenFile: "/tmp/t")
        #expect(named == AccountSelection(choice: .server(address: "https://social.example", timeline: nil, tokenFile: "/tmp/t"), token: .file("/tmp/t"), account: alice))
        let byServer = try Self.choose(scratch, server: "social.example", timeline: "local", environment: ["FEEDLINE_TOKEN": "by-hand"])
        #expect(byServer == AccountSelection(choice: .server(address: "social.example", timeline: "local", tokenFile: nil), token: .environment, account: nil))
        let unparsable = try Self.choose(scratch, server: "ftp://social.example")
        #expect(unparsable == AccountSelection(choice: .server(address: "ftp://social.example", timeline: nil, tokenFile: nil), token: .none, account: nil))
    }

    @Test("a stored file others can read stops the choice with its sentence, whatever the flags, except --sandbox")
    func tooOpen() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let alice = try makeAccount("alice", on: "social.example")
        try scratch.store.save(alice)
        let path = scratch.store.url(of: alice).path
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: path)
        let sentence = AccountSelectionError(CredentialStoreError.tooOpen(path: path, mode: 0o604).description)
        #expect(throws: sentence) { try Self.choose(scratch) }
        #expect(throws: sentence) { try Self.choose(scratch, server: "social.example") }
        #expect(throws: sentence) { try Self.choose(scratch, account: Setting("alice@social.example", from: .flag("--account"))) }
        #expect(try Self.choose(scratch, sandbox: true).token == .sandbox)
    }
}
