@_spi(FeedService) import Feedline
import Foundation

/// Lists on the sandbox, as Mastodon's `GET/POST /api/v1/lists`, `PUT/DELETE /api/v1/lists/:id`,
/// `GET/POST/DELETE /api/v1/lists/:id/accounts` answer them (rules in ``SandboxLists``). A
/// list's timeline is a feed (``Feedline/Feed/list(_:)``, see ``SandboxStore/feed(_:)``): the
/// home timeline's entries by the list's accounts, following every change at once. Each call is
/// a request of its kind (``SandboxScenario/Request/lists``, ``SandboxScenario/Request/listChange``,
/// ``SandboxScenario/Request/listMembership``) with latency and faults like the others.
extension SandboxService {
    /// The user's lists, in the order they were made.
    @_spi(FeedService) public func lists() async throws -> [UserList] {
        try await performOnAccounts(.lists) { state, _ throws(SandboxError) in state.lists.lists }
    }

    /// Makes a list titled `title` (trimmed; refused when blank).
    @_spi(FeedService) public func createList(title: String) async throws -> UserList {
        try await performOnAccounts(.listChange) { state, _ throws(SandboxError) in
            let list = try state.lists.create(title: title)
            state.lists.tell(&state.store)
            return list
        }
    }

    /// Renames the list `id` (trimmed; refused when blank; a 404 for a list gone).
    @_spi(FeedService) public func renameList(_ id: String, to title: String) async throws -> UserList {
        try await performOnAccounts(.listChange) { state, _ throws(SandboxError) in try state.lists.rename(id, to: title) }
    }

    /// Deletes the list `id` (a 404 for a list gone).
    public func deleteList(_ id: String) async throws {
        try await performOnAccounts(.listChange) { state, _ throws(SandboxError) in
            try state.lists.delete(id)
            state.store.setListMembers(id, nil)
        }
    }

    /// Adds (`true`) or removes `account` to or from the list `list`: only an account the user
    /// follows can be added, as Mastodon says ("Validation failed: Account follow relationship
    /// missing"); the list's timeline follows at once.
    public func setListMembership(list: String, account: AccountID, to value: Bool) async throws {
        try await performOnAccounts(.listMembership) { state, now throws(SandboxError) in
            let id = try state.accountID(account)
            try state.lists.set(id, on: list, to: value, followed: state.accounts.relationship(of: id, at: now).following)
            state.lists.tell(&state.store)
        }
    }
}
