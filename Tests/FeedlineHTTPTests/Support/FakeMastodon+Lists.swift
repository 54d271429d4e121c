@_spi(FeedService) import Feedline
import FeedlineMastodon
import FlyingFox
import Foundation

/// The user's lists, with Mastodon's rules (every endpoint needs a user: 401 without one):
///
/// - `GET /api/v1/lists`: every list, oldest first, unpaged.
/// - `POST /api/v1/lists` with `title`: a new list (422 "Validation failed: Title can't be
///   blank" for a blank title); `PUT /api/v1/lists/:id` with `title` renames it;
///   `DELETE /api/v1/lists/:id` answers `{}`. A list that is not there is 404 `Record not found`.
/// - `GET /api/v1/lists/:id/accounts`: its accounts, the most recently added first, paged by the
///   id of the membership *record* (which the accounts do not carry): `max_id`, `since_id`,
///   `min_id` name records and only `Link` tells them (`next` when the page is full, `prev` when
///   it is not empty). `limit` is 40 by default, at most 80.
/// - `POST /api/v1/lists/:id/accounts` with `account_ids[]`: adds the account — only one the
///   user follows (422 "Validation failed: Account follow relationship missing"); 404 for an
///   account the server does not know. `DELETE` with `account_ids[]` in the query removes it.
///   Both answer `{}` and are idempotent.
extension FakeMastodon {
    /// What the server keeps for these endpoints (``FakeMastodon/State/userLists``).
    struct UserListsState: Sendable {
        struct Member: Sendable, Hashable {
            var record: UInt64
            var account: String
        }

        var lists: [Mastodon.List] = []
        /// Each list's memberships, newest first.
        var members: [String: [Member]] = [:]
        var nextList = 3_100
        var nextRecord: UInt64 = 610_000
    }

    static let notFollowedRefusal = "Validation failed: Account follow relationship missing"

    // MARK: - Test controls

    /// Makes a list titled `title` holding `accounts` (ids, the first added first); returns its id.
    @discardableResult
    func makeList(_ title: String, accounts: [String] = []) -> String {
        state.withLock { state in
            let id = String(state.userLists.nextList)
            state.userLists.nextList += 1
            state.userLists.lists.append(Mastodon.List(id: id, title: title, repliesPolicy: "list", exclusive: false))
            for account in accounts {
                state.userLists.members[id, default: []].insert(UserListsState.Member(record: state.userLists.nextRecord, account: account), at: 0)
                state.userLists.nextRecord += 1
            }
            return id
        }
    }

    /// The lists now, as (id, title), oldest first.
    var userLists: [UserList] {
        state.withLock { $0.userLists.lists.map { UserList(id: $0.id, title: $0.title) } }
    }

    /// The account ids on list `id`, the most recently added first.
    func listMembers(_ id: String) -> [String] {
        state.withLock { $0.userLists.members[id]?.map(\.account) ?? [] }
    }

    /// The membership record ids of list `id`, newest first (what `max_id` names).
    func listRecordIDs(_ id: String) -> [UInt64] {
        state.withLock { $0.userLists.members[id]?.map(\.record) ?? [] }
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints, `nil` for any other.
    func userListsRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts[0].isEmpty, parts[1...3] == ["api", "v1", "lists"] else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, parts.count) {
        case ("GET", 4):
            return Self.json(state.withLock { $0.userLists.lists })
        case ("POST", 4):
            let title = (request.form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !title.isEmpty else { return Self.error(422, "Validation failed: Title can't be blank") }
            let id = makeList(title)
            return Self.json(state.withLock { $0.userLists.lists.first { $0.id == id } })
        case ("PUT", 5):
            let title = (request.form["title"] ?? "").trimmingCharacters(in: .whitespaces)
            return state.withLock { state in
                guard let index = state.userLists.lists.firstIndex(where: { $0.id == parts[4] }) else { return Self.error(404, "Record not found") }
                guard !title.isEmpty else { return Self.error(422, "Validation failed: Title can't be blank") }
                state.userLists.lists[index].title = title
                return Self.json(state.userLists.lists[index])
            }
        case ("DELETE", 5):
            return state.withLock { state in
                guard let index = state.userLists.lists.firstIndex(where: { $0.id == parts[4] }) else { return Self.error(404, "Record not found") }
                state.userLists.lists.remove(at: index)
                state.userLists.members[parts[4]] = nil
                return Self.json([String: String]())
            }
        case ("GET", 6) where parts[5] == "accounts":
            return listAccounts(request, list: parts[4])
        case ("POST", 6) where parts[5] == "accounts", ("DELETE", 6) where parts[5] == "accounts":
            let given = request.method == "POST" ? request.form["account_ids[]"] : request.query["account_ids[]"]
            return setMembership(list: parts[4], account: given ?? "", add: request.method == "POST")
        default:
            return unexpected(request)
        }
    }

    private func listAccounts(_ request: Recorded, list: String) -> HTTPResponse {
        let limit = Self.limit(request, default: 40, maximum: 80)
        let accounts = knownAccounts()
        return state.withLock { state in
            guard state.userLists.lists.contains(where: { $0.id == list }) else { return Self.error(404, "Record not found") }
            let page = Self.window(state.userLists.members[list] ?? [], id: \.record, request, limit: limit)
            let shown = page.compactMap { member in accounts.first { $0.id == member.account } }
            let links = link(request, next: page.count == limit ? page.last.map { String($0.record) } : nil, previous: page.first.map { String($0.record) })
            return Self.json(shown, headers: links)
        }
    }

    private func setMembership(list: String, account: String, add: Bool) -> HTTPResponse {
        guard knownAccounts().contains(where: { $0.id == account }) else { return Self.error(404, "Record not found") }
        let following = relationship(account).following
        return state.withLock { state in
            guard state.userLists.lists.contains(where: { $0.id == list }) else { return Self.error(404, "Record not found") }
            var members = state.userLists.members[list] ?? []
            if add {
                guard following else { return Self.error(422, Self.notFollowedRefusal) }
                if !members.contains(where: { $0.account == account }) {
                    members.insert(UserListsState.Member(record: state.userLists.nextRecord, account: account), at: 0)
                    state.userLists.nextRecord += 1
                }
            } else {
                members.removeAll { $0.account == account }
            }
            state.userLists.members[list] = members
            return Self.json([String: String]())
        }
    }
}
