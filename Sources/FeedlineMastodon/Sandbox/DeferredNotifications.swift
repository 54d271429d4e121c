import Foundation

/// A fixture's notifications file, read at start only for the ids of the accounts it names;
/// the notifications themselves are decoded the first time the sandbox is asked for them.
///
/// Decoding the notifications was a tenth of a start on the bundled sandbox, for a screen most
/// sessions never open (Docs/BENCHMARKS.md, "Start-up, issue 33's second round"). The sandbox's
/// account directory still gets every account the file names, in the order a full decode lists
/// them: accounts the other fixtures already show are skipped (the directory keeps an account's
/// first copy), and only when the file names others are its accounts decoded at start. A file
/// whose account ids cannot be read fails the start as before; a file that fails only past
/// them fails the first notifications request, with the same sentence.
public struct DeferredNotifications: Hashable, Sendable {
    /// The file's contents.
    let data: Data
    /// The file as messages name it (`timeline/notifications.json`).
    let file: String
    /// The ids of every account a full decode would hand the directory, in its order: each
    /// notification's status author, then its boosted original's, then every notifying account.
    let authorIDs: [String]

    /// Reads the account ids of `data`, the contents of the notifications file `file`.
    ///
    /// - Throws: ``FixtureError/invalidJSON(_:)`` or ``FixtureError/wrongNotifications(_:_:)``
    ///   when the file is not an array of objects with an `account` id (and, where there is a
    ///   `status`, one for its `account`).
    init(data: Data, file: String) throws(FixtureError) {
        let skeletons = try Self.skeletons(of: AccountID.self, in: data, file: file)
        self.data = data
        self.file = file
        authorIDs = Self.authors(of: skeletons).map(\.id)
    }

    /// The accounts the file names whose ids are not in `known`, each once (its first copy), in
    /// the order a full decode lists them; none, without decoding any, when all are known.
    ///
    /// - Throws: ``FixtureError/wrongNotifications(_:_:)`` when one of those cannot be decoded.
    func accounts(unknownTo known: Set<String>) throws(FixtureError) -> [Mastodon.Account] {
        guard authorIDs.contains(where: { !known.contains($0) }) else { return [] }
        let skeletons = try Self.skeletons(of: Mastodon.Account.self, in: data, file: file)
        var seen = known
        return Self.authors(of: skeletons).filter { seen.insert($0.id).inserted }
    }

    /// The notifications, decoded in full.
    ///
    /// - Throws: ``FixtureError/invalidJSON(_:)`` or ``FixtureError/wrongNotifications(_:_:)``.
    func decode() throws(FixtureError) -> [Mastodon.Notification] {
        try Self.notifications(in: data, file: file)
    }

    /// The notifications in `data`, the contents of the notifications file `file`.
    ///
    /// - Throws: ``FixtureError/invalidJSON(_:)`` or ``FixtureError/wrongNotifications(_:_:)``.
    static func notifications(in data: Data, file: String) throws(FixtureError) -> [Mastodon.Notification] {
        do {
            return try Mastodon.decode([Mastodon.Notification].self, from: data)
        } catch {
            throw error.isNotJSON ? .invalidJSON(file) : .wrongNotifications(file, error)
        }
    }

    /// The file read for its notifications' accounts (as `Account`): through a parsed tree, or
    /// with `JSONDecoder` when the tree does not read it (which then names the problem).
    private static func skeletons<Account: TreeReadable & Sendable>(
        of account: Account.Type, in data: Data, file: String
    ) throws(FixtureError) -> [Skeleton<Account>] {
        if let skeletons = Mastodon.decodeQuickly([Skeleton<Account>].self, from: data) { return skeletons }
        do {
            return try Mastodon.decode([Skeleton<Account>].self, from: data)
        } catch {
            throw error.isNotJSON ? .invalidJSON(file) : .wrongNotifications(file, error)
        }
    }

    /// The accounts of `skeletons` in the order the sandbox lists a decoded file's: every
    /// status author (and its boosted original's), then every notifying account.
    private static func authors<Account>(of skeletons: [Skeleton<Account>]) -> [Account] {
        skeletons.flatMap { skeleton in
            skeleton.status.map { [$0.account] + ($0.reblog == nil ? [] : [$0.original.account]) } ?? []
        } + skeletons.map(\.account)
    }

    /// An account read for its id alone (by the rule `Mastodon.Account` reads ids with).
    private struct AccountID: ReadableEntity, Sendable {
        var id: String

        enum CodingKeys: String, CodingKey { case id }

        init(from decoder: any Decoder) throws {
            try self.init(reading: decoder.container(keyedBy: CodingKeys.self))
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            id = try container.id(.id)
        }
    }

    /// What a start reads of one notification: who acted, and who wrote its status.
    private struct Skeleton<Account: TreeReadable & Sendable>: ReadableEntity, Sendable {
        var account: Account
        var status: StatusSkeleton<Account>?

        enum CodingKeys: String, CodingKey { case account, status }

        init(from decoder: any Decoder) throws {
            try self.init(reading: decoder.container(keyedBy: CodingKeys.self))
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            account = try container.decode(Account.self, forKey: .account)
            status = try container.decodeIfPresent(StatusSkeleton<Account>.self, forKey: .status)
        }
    }

    /// What a start reads of a status: its author, and the boosted status, if any.
    private final class StatusSkeleton<Account: TreeReadable & Sendable>: ReadableEntity, Sendable {
        let account: Account
        let reblog: StatusSkeleton<Account>?

        enum CodingKeys: String, CodingKey { case account, reblog }

        convenience init(from decoder: any Decoder) throws {
            try self.init(reading: decoder.container(keyedBy: CodingKeys.self))
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            account = try container.decode(Account.self, forKey: .account)
            reblog = try container.decodeIfPresent(StatusSkeleton<Account>.self, forKey: .reblog)
        }

        /// The innermost boosted status (the status itself when it boosts nothing).
        var original: StatusSkeleton<Account> {
            var current = self
            while let inner = current.reblog { current = inner }
            return current
        }
    }
}
