import Foundation

/// A fixture's notifications file, read at start only for the accounts it names; the
/// notifications themselves are decoded the first time the sandbox is asked for them.
///
/// Decoding the notifications was a tenth of a start on the bundled sandbox, for a screen most
/// sessions never open (Docs/BENCHMARKS.md, "Start-up, issue 33"). The accounts are still read
/// at start, in the order a full decode lists them, so the sandbox's account directory is the
/// same either way. A file whose accounts cannot be read fails the start as before; a file that
/// fails only past them fails the first notifications request, with the same sentence.
public struct DeferredNotifications: Hashable, Sendable {
    /// The file's contents.
    let data: Data
    /// The file as messages name it (`timeline/notifications.json`).
    let file: String
    /// Every account a full decode would hand the directory, in its order: each notification's
    /// status author, then its boosted original's, then every notifying account.
    let authors: [Mastodon.Account]

    /// Reads the accounts of `data`, the contents of the notifications file `file`.
    ///
    /// - Throws: ``FixtureError/invalidJSON(_:)`` or ``FixtureError/wrongNotifications(_:_:)``
    ///   when the file is not an array of objects with an `account` (and, where there is one, a
    ///   `status` with its `account`).
    init(data: Data, file: String) throws(FixtureError) {
        let skeletons: [Skeleton]
        do {
            skeletons = try Mastodon.decode([Skeleton].self, from: data)
        } catch {
            throw error.isNotJSON ? .invalidJSON(file) : .wrongNotifications(file, error)
        }
        self.data = data
        self.file = file
        authors = skeletons.flatMap { skeleton in
            skeleton.status.map { [$0.account] + ($0.reblog == nil ? [] : [$0.original.account]) } ?? []
        } + skeletons.map(\.account)
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

    /// What a start reads of one notification: who acted, and who wrote its status.
    private struct Skeleton: Decodable {
        var account: Mastodon.Account
        var status: StatusSkeleton?

        enum CodingKeys: String, CodingKey { case account, status }
    }

    /// What a start reads of a status: its author, and the boosted status, if any.
    private final class StatusSkeleton: Decodable, Sendable {
        let account: Mastodon.Account
        let reblog: StatusSkeleton?

        enum CodingKeys: String, CodingKey { case account, reblog }

        /// The innermost boosted status (the status itself when it boosts nothing).
        var original: StatusSkeleton {
            var current = self
            while let inner = current.reblog { current = inner }
            return current
        }
    }
}
