@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's lists and their members, as a Mastodon server keeps them: the lists
/// slice of ``ServerModel``.
///
/// Its laws: lists read in the order they were made; a title is trimmed and a blank one
/// refused; a rename is seen by the next read; a deleted list is gone, with its members, and
/// a list gone answers "Record not found"; only an account the user follows joins a list;
/// adding or removing twice is doing it once.
package struct ServerLists: Hashable, Sendable {
    /// The lists, in the order they were made.
    package private(set) var lists: [UserList]
    /// The members of each list, in the order they joined.
    package private(set) var members: [String: [AccountID]] = [:]
    /// How many lists were made here (numbers the ids of new ones).
    private var made: Int
    /// What the ids of new lists start with: `list1`, `list2`… by default; a Mastodon server's
    /// are plain numbers (an empty prefix).
    private let idPrefix: String

    /// `lists` with `members`; new lists are numbered after `numbered` with ids starting with
    /// `idPrefix`.
    package init(_ lists: [UserList] = [], members: [String: [AccountID]] = [:], idPrefix: String = "list", numbered: Int = 0) {
        self.lists = lists
        self.members = members
        self.idPrefix = idPrefix
        made = numbered
    }

    /// Makes a list titled `title` (trimmed) and returns it.
    ///
    /// - Throws: ``ServerRefusal`` for a blank title.
    package mutating func create(title: String) throws(ServerRefusal) -> UserList {
        let title = try Self.valid(title)
        made += 1
        var id = "\(idPrefix)\(made)"
        while lists.contains(where: { $0.id == id }) {
            made += 1
            id = "\(idPrefix)\(made)"
        }
        let list = UserList(id: id, title: title)
        lists.append(list)
        return list
    }

    /// Renames the list `id` to `title` (trimmed) and returns it.
    ///
    /// - Throws: ``RecordNotFound`` for a list gone, ``ServerRefusal`` for a blank title.
    package mutating func rename(_ id: String, to title: String) throws -> UserList {
        guard let index = lists.firstIndex(where: { $0.id == id }) else { throw RecordNotFound() }
        lists[index].title = try Self.valid(title)
        return lists[index]
    }

    /// Deletes the list `id` and its members.
    ///
    /// - Throws: ``RecordNotFound`` for a list gone.
    package mutating func delete(_ id: String) throws(RecordNotFound) {
        guard lists.contains(where: { $0.id == id }) else { throw RecordNotFound() }
        lists.removeAll { $0.id == id }
        members[id] = nil
    }

    /// Adds (`true`) or removes `account` to or from the list `list`; `followed` says whether
    /// the user follows the account.
    ///
    /// - Throws: ``RecordNotFound`` for a list gone, ``ServerRefusal`` for adding an account
    ///   the user does not follow.
    package mutating func set(_ account: AccountID, on list: String, to value: Bool, followed: Bool) throws {
        guard lists.contains(where: { $0.id == list }) else { throw RecordNotFound() }
        var accounts = members[list] ?? []
        if value {
            guard followed else { throw ServerRefusal("Validation failed: Account follow relationship missing") }
            if !accounts.contains(account) { accounts.append(account) }
        } else {
            accounts.removeAll { $0 == account }
        }
        members[list] = accounts
    }

    private static func valid(_ title: String) throws(ServerRefusal) -> String {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw ServerRefusal("Validation failed: Title can't be blank") }
        return title
    }
}
