import FeedlineAccounts
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The credential store: files written whole, 0600 in 0700 directories, refused when others can
/// read them, one per account so two writers never lose each other's account.
@Suite("Account store")
struct AccountStoreTests {
    @Test("an account is written 0600 in 0700 directories and reads back equal; the secret never shows in its description")
    func roundTrip() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let account = try makeAccount("alice", on: "social.example")
        try scratch.store.save(account)
        #expect(scratch.files() == ["alice@social.example.json"])
        #expect(scratch.mode(scratch.store.url(of: account)) == 0o600)
        #expect(scratch.mode(scratch.accountsFolder) == 0o700)
        #expect(scratch.mode(scratch.store.directory.url) == 0o700)
        let read = try #require(try scratch.store.account(named: "@ALICE@social.example"))
        #expect(read == account)
        #expect(read.token.source == .account("alice@social.example"))
        #expect(read.handle == "@alice@social.example")
        var dumped = ""
        dump(read, to: &dumped)
        for text in [read.description, String(reflecting: read), dumped, "\(read.token)"] {
            #expect(!text.contains(storedSecret))
            #expect(!text.contains("client-secret"))
        }
    }

    @Test("an existing directory others could enter is tightened to 0700 before a secret goes in")
    func tightensDirectory() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.accountsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.store.directory.url.path)
        try scratch.store.save(try makeAccount("alice", on: "social.example"))
        #expect(scratch.mode(scratch.accountsFolder) == 0o700)
        #expect(scratch.mode(scratch.store.directory.url) == 0o700)
    }

    @Test("a file others can read is refused with the chmod that fixes it; a file Feedline did not write says so")
    func refusals() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let account = try makeAccount("alice", on: "social.example")
        try scratch.store.save(account)
        let path = scratch.store.url(of: account).path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(throws: CredentialStoreError.tooOpen(path: path, mode: 0o640)) { try scratch.store.accounts() }
        #expect(
            CredentialStoreError.tooOpen(path: path, mode: 0o640).description
                == "The credential file \(path) can be read by other users (permissions 640), so Feedline will not use it: run chmod 600 \(path)."
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try Data("{\"version\": 1}".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(throws: CredentialStoreError.malformed(path: path, reason: "it is not the JSON Feedline writes")) { try scratch.store.accounts() }
    }

    @Test("a failed write leaves nothing behind: no temporary file, and the old file intact")
    func failedWrite() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let account = try makeAccount("alice", on: "social.example")
        try scratch.store.save(account)
        // A directory where the file should go: the rename fails after the secret was written.
        let blocked = try makeAccount("bob", on: "social.example")
        try FileManager.default.createDirectory(at: scratch.store.url(of: blocked), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: scratch.store.url(of: blocked).appendingPathComponent("x").path, contents: Data()))
        #expect(throws: CredentialStoreError.self) { try scratch.store.save(blocked) }
        #expect(scratch.files() == ["alice@social.example.json", "bob@social.example.json"])  // the directory, no temporaries
        try FileManager.default.removeItem(at: scratch.store.url(of: blocked))
        #expect(try scratch.store.account(named: "alice@social.example") == account)
    }

    @Test("the default account: the configured one, else the latest sign-in; a configured name that is not stored is a sentence")
    func defaults() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        #expect(try scratch.store.defaultAccount(configured: nil) == nil)
        let alice = try makeAccount("alice", on: "social.example", minutes: 0)
        let bob = try makeAccount("bob", on: "other.example", minutes: 5)
        let carol = try makeAccount("carol", on: "social.example", minutes: 2)
        for account in [alice, bob, carol] { try scratch.store.save(account) }
        #expect(try scratch.store.accounts().map(\.id) == ["alice@social.example", "bob@other.example", "carol@social.example"])
        #expect(try scratch.store.defaultAccount(configured: nil) == bob)
        #expect(try scratch.store.defaultAccount(configured: "Alice@Social.Example") == alice)
        #expect(try scratch.store.accounts(on: try MastodonServer(parsing: "social.example")).map(\.username) == ["carol", "alice"])
        #expect(throws: CredentialStoreError.noSuchAccount("dave@x.example", known: ["alice@social.example", "bob@other.example", "carol@social.example"])) {
            try scratch.store.defaultAccount(configured: "@dave@x.example")
        }
        #expect(try scratch.store.remove(bob))
        #expect(try !scratch.store.remove(bob))
        #expect(try scratch.store.defaultAccount(configured: nil) == carol)
    }

    @Test("two writers at once: different accounts all land, the same account ends whole as one of the writes")
    func concurrentWriters() async throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let store = scratch.store
        let accounts = try (0..<16).map { try makeAccount("user\($0)", on: "social.example", minutes: Double($0)) }
        let same = try (0..<16).map { try makeAccount("alice", on: "other.example", minutes: Double($0), secret: "secret-\($0)") }
        await withTaskGroup(of: Void.self) { group in
            for account in accounts + same {
                group.addTask { try? store.save(account) }
            }
        }
        let stored = try store.accounts()
        #expect(stored.count == 17)
        #expect(Set(stored.map(\.id)) == Set(accounts.map(\.id) + ["alice@other.example"]))
        let alice = try #require(stored.first { $0.id == "alice@other.example" })
        #expect(same.contains(alice))
        #expect(scratch.files().allSatisfy { !$0.hasPrefix(".") })
    }

    @Test("names cannot climb out of the directory: every file lies in accounts/, none hidden, none with a slash")
    func fileNames() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        for name in ["../../evil", ".hidden", "a/b", "x y", "ünï"] {
            let account = try makeAccount(name, on: "x.example")
            let url = scratch.store.url(of: account)
            #expect(url.deletingLastPathComponent().standardizedFileURL == scratch.accountsFolder.standardizedFileURL)
            #expect(!url.lastPathComponent.hasPrefix("."))
            #expect(url.lastPathComponent.hasSuffix("@x.example.json"))
        }
        #expect(scratch.store.url(of: try makeAccount("../../evil", on: "x.example")).lastPathComponent == "%2E.%2F..%2Fevil@x.example.json")
    }

    @Test("a file edited to send the token elsewhere, or from another version, is refused, naming what is wrong")
    func tamperedFiles() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let account = try makeAccount("alice", on: "social.example")
        try scratch.store.save(account)
        let url = scratch.store.url(of: account)
        let original = try String(contentsOf: url, encoding: .utf8)
        /// Writes `original` with `old` replaced by `new`, keeping the file 0600.
        func edit(_ old: String, _ new: String) throws {
            #expect(original.contains(old))
            try Data(original.replacingOccurrences(of: old, with: new).utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        let cases = [
            ("https://social.example/oauth/revoke", "https://elsewhere.example/oauth/revoke", "its revocation address is not on its server"),
            ("\"version\" : 1", "\"version\" : 2", "version 2 is not one this Feedline reads"),
            ("\"username\" : \"alice\"", "\"username\" : \"../alice\"", "its user name is not usable"),
            ("\"access_token\" : \"\(storedSecret)\"", "\"access_token\" : \"two words\"", "its access token is empty or has spaces inside"),
        ]
        for (old, new, reason) in cases {
            try edit(old, new)
            #expect(throws: CredentialStoreError.malformed(path: url.path, reason: reason)) { try scratch.store.accounts() }
        }
        try edit("\"alice\"", "\"alice\"")  // the file as written reads back
        #expect(try scratch.store.accounts() == [account])
    }

    @Test("registrations: one 0600 file per server, read back for that server only; one that does not decode is only a lost cache")
    func registrations() throws {
        let scratch = try ScratchStore()
        defer { scratch.remove() }
        let social = try MastodonServer(parsing: "social.example")
        let other = try MastodonServer(parsing: "other.example")
        #expect(try scratch.store.registration(for: social) == nil)
        let registration = AppRegistration(
            server: social, clientID: "id-1", clientSecret: "secret-1", scopes: ["read"], redirectURI: "urn:ietf:wg:oauth:2.0:oob"
        )
        try scratch.store.save(registration)
        let file = scratch.store.directory.apps.appendingPathComponent("social.example.json")
        #expect(scratch.mode(file) == 0o600)
        #expect(scratch.mode(scratch.store.directory.apps) == 0o700)
        #expect(try scratch.store.registration(for: social) == registration)
        #expect(try scratch.store.registration(for: other) == nil)
        #expect(!registration.description.contains("secret-1"))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(throws: CredentialStoreError.tooOpen(path: file.path, mode: 0o644)) { try scratch.store.registration(for: social) }
        try Data("{}".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try scratch.store.registration(for: social) == nil)

        try scratch.store.save(registration)
        try scratch.store.removeRegistration(for: social)
        #expect(try scratch.store.registration(for: social) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
