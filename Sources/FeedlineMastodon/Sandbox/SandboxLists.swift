@_spi(FeedService) import Feedline
import Foundation

/// The user's lists on the sandbox: titles in the order they were made, and the accounts on
/// each, by account id, in the order they were added. Ids are `1`, `2` … as made (the
/// scenario's first).
///
/// Rules, as Mastodon's: a title must not be blank (422 "Validation failed: Title can't be
/// blank"); only an account the user follows can be added (422 "Validation failed: Account
/// follow relationship missing"); adding an account already on the list, or removing one not on
/// it, changes nothing; a list that is gone is a 404.
struct SandboxLists: Sendable {
    private(set) var lists: [UserList] = []
    private var members: [String: [String]] = [:]
    private var nextID = 1

    /// The scenario's lists, their handles looked up in `directory` (then among the statuses'
    /// authors). Throws for a handle no one has, or an account the user does not follow.
    init(_ fixtures: [SandboxScenario.ListFixture], directory: SandboxAccounts, store: SandboxStore, now: Date) throws(SandboxError) {
        for (index, fixture) in fixtures.enumerated() {
            let list = try create(title: fixture.title)
            for handle in fixture.accounts {
                guard let account = directory.account(named: handle) ?? store.account(named: handle) else {
                    throw .invalidScenario("lists[\(index)].accounts: no account @\(handle) in the fixtures")
                }
                guard directory.relationship(of: account.id, at: now).following else {
                    throw .invalidScenario("lists[\(index)].accounts: the user does not follow @\(handle), and a list holds only followed accounts")
                }
                try set(account.id, on: list.id, to: true, followed: true)
            }
        }
    }

    /// Tells `store` who is on each list, for the lists' timelines.
    func tell(_ store: inout SandboxStore) {
        for list in lists { store.setListMembers(list.id, Set(members[list.id] ?? [])) }
    }

    /// The ids of the accounts on the list `id`, in the order they were added.
    func accountIDs(_ id: String) throws(SandboxError) -> [String] {
        guard lists.contains(where: { $0.id == id }) else { throw .unknownList(id) }
        return members[id] ?? []
    }

    mutating func create(title: String) throws(SandboxError) -> UserList {
        let title = title.trimmingBlanks(newlines: true)
        guard !title.isEmpty else { throw .refused("Validation failed: Title can't be blank") }
        let list = UserList(id: String(nextID), title: title)
        nextID += 1
        lists.append(list)
        members[list.id] = []
        return list
    }

    mutating func rename(_ id: String, to title: String) throws(SandboxError) -> UserList {
        let title = title.trimmingBlanks(newlines: true)
        guard let index = lists.firstIndex(where: { $0.id == id }) else { throw .unknownList(id) }
        guard !title.isEmpty else { throw .refused("Validation failed: Title can't be blank") }
        lists[index].title = title
        return lists[index]
    }

    mutating func delete(_ id: String) throws(SandboxError) {
        guard let index = lists.firstIndex(where: { $0.id == id }) else { throw .unknownList(id) }
        lists.remove(at: index)
        members[id] = nil
    }

    /// Adds (`true`) or removes the account `account` (an id) to or from the list `id`;
    /// `followed` says whether the user follows it (only then can it be added).
    mutating func set(_ account: String, on id: String, to value: Bool, followed: Bool) throws(SandboxError) {
        guard lists.contains(where: { $0.id == id }) else { throw .unknownList(id) }
        if value {
            guard followed else { throw .refused("Validation failed: Account follow relationship missing") }
            if !(members[id] ?? []).contains(account) { members[id, default: []].append(account) }
        } else {
            members[id]?.removeAll { $0 == account }
        }
    }
}
