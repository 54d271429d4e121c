import FeedlineMastodon
import Foundation

/// The accounts `feedline login` signed in and Feedline's registrations with their servers,
/// kept under a ``FeedlineDirectory``.
///
/// - One file per account (`accounts/alice@social.example.json`) and per server
///   (`apps/social.example.json`), each written whole through a temporary file and a rename
///   (see `SecureFile`), mode 0600 in 0700 directories. Two processes signing in at once never
///   corrupt a file and never lose each other's account: different accounts are different
///   files, and the same account signed in twice keeps the last token written.
/// - A file other users can read is refused with a sentence saying how to fix it.
///
/// The store keeps no state in memory: every call reads the files, so two processes see each
/// other's changes.
public struct AccountStore: Sendable {
    /// The directory the files live under.
    public let directory: FeedlineDirectory

    /// The store under `directory`.
    public init(directory: FeedlineDirectory) {
        self.directory = directory
    }

    // MARK: - Accounts

    /// Every stored account, ordered by ``StoredAccount/id``.
    ///
    /// - Throws: ``CredentialStoreError`` for a file that cannot be read, is readable by others
    ///   or is not one Feedline wrote.
    public func accounts() throws(CredentialStoreError) -> [StoredAccount] {
        var found: [StoredAccount] = []
        for url in try files(in: directory.accounts) {
            if let account = try load(url) { found.append(account) }
        }
        return found.sorted { $0.id < $1.id }
    }

    /// The account `name` names (`alice@social.example`, any case, a leading `@` allowed), or `nil`.
    public func account(named name: String) throws(CredentialStoreError) -> StoredAccount? {
        try accounts().first { $0.isNamed(name) }
    }

    /// The accounts on `server` (same scheme, host and port), most recently signed in first.
    public func accounts(on server: MastodonServer) throws(CredentialStoreError) -> [StoredAccount] {
        try accounts().filter { $0.server.isSameOrigin(server.url) }.sorted { $0.signedInAt > $1.signedInAt }
    }

    /// The account used when none is named: the one `configured` names (the config file's
    /// `account`), else the one signed in most recently; `nil` when none is stored.
    ///
    /// - Throws: ``CredentialStoreError/noSuchAccount(_:known:)`` when `configured` names none.
    public func defaultAccount(configured: String?) throws(CredentialStoreError) -> StoredAccount? {
        let all = try accounts()
        if let configured {
            guard let account = all.first(where: { $0.isNamed(configured) }) else {
                throw .noSuchAccount(StoredAccount.normalized(configured), known: all.map(\.id))
            }
            return account
        }
        return all.max { ($0.signedInAt, $1.id) < ($1.signedInAt, $0.id) }
    }

    /// Stores `account`, replacing any earlier sign-in of the same account.
    public func save(_ account: StoredAccount) throws(CredentialStoreError) {
        try SecureFile.prepareDirectory(directory.url)
        try SecureFile.save(try encode(account.record, path: url(of: account).path), to: url(of: account))
    }

    /// Deletes `account`'s file; `false` when it was already gone.
    @discardableResult
    public func remove(_ account: StoredAccount) throws(CredentialStoreError) -> Bool {
        try SecureFile.remove(url(of: account))
    }

    /// The file an account lives in: `accounts/alice@social.example.json`.
    public func url(of account: StoredAccount) -> URL {
        directory.accounts.appendingPathComponent(Self.fileName(account.id) + ".json")
    }

    private func load(_ url: URL) throws(CredentialStoreError) -> StoredAccount? {
        guard let data = try SecureFile.load(url) else { return nil }
        let record = try decode(StoredAccount.Record.self, from: data, path: url.path)
        return try StoredAccount.from(record, path: url.path)
    }

    // MARK: - Registrations

    /// Feedline's registration with `server`, when one is stored and usable.
    ///
    /// - Throws: ``CredentialStoreError`` for a file others can read or that cannot be read.
    package func registration(for server: MastodonServer) throws(CredentialStoreError) -> AppRegistration? {
        let url = registrationURL(server)
        guard let data = try SecureFile.load(url) else { return nil }
        // A registration that does not decode is only a cache: register again.
        guard let record = try? JSONDecoder().decode(AppRegistration.Record.self, from: data),
            let registration = AppRegistration(record: record), registration.server == server
        else { return nil }
        return registration
    }

    /// Stores `registration` for its server.
    package func save(_ registration: AppRegistration) throws(CredentialStoreError) {
        try SecureFile.prepareDirectory(directory.url)
        let url = registrationURL(registration.server)
        try SecureFile.save(try encode(registration.record, path: url.path), to: url)
    }

    /// Forgets the registration with `server` (the server no longer knows it).
    package func removeRegistration(for server: MastodonServer) throws(CredentialStoreError) {
        try SecureFile.remove(registrationURL(server))
    }

    private func registrationURL(_ server: MastodonServer) -> URL {
        directory.apps.appendingPathComponent(Self.fileName(server.authority) + ".json")
    }

    // MARK: - Files

    /// `*.json` files (not hidden: temporaries start with `.`) in `folder`; none when it is missing.
    private func files(in folder: URL) throws(CredentialStoreError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) { return [] }
            throw .unreadable(path: folder.path, reason: isDirectory.boolValue ? "permission denied" : "it is not a directory")
        }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// A file name for `name`: letters, digits, `@ . _ - :` kept, anything else percent-encoded,
    /// so a name a server sent can never climb out of the directory.
    static func fileName(_ name: String) -> String {
        var result = ""
        for byte in name.lowercased().utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, CharacterSet.alphanumerics.contains(scalar) || "@._-:[]".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result.hasPrefix(".") ? "%2E" + result.dropFirst() : result
    }

    private func encode(_ value: some Encodable, path: String) throws(CredentialStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Milliseconds, so two sign-ins in the same second still tell which came last.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        do {
            return try encoder.encode(value) + Data("\n".utf8)
        } catch {
            throw .unwritable(path: path, reason: "it could not be encoded")
        }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from data: Data, path: String) throws(CredentialStoreError) -> Value {
        let decoder = Mastodon.makeDecoder()  // dates with or without fractional seconds
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw .malformed(path: path, reason: "it is not the JSON Feedline writes")
        }
    }
}
