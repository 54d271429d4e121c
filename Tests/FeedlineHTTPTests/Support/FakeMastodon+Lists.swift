@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FlyingFox
import FeedlineTestSupport
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
    /// What the server keeps for these endpoints besides the lists and their members, which are
    /// the model's (``ServerModel/lists``): the id of each membership *record*, what Mastodon
    /// pages a list's accounts by (``FakeMastodon/State/userLists``).
    struct UserListsState: Sendable {
        /// Each list's membership record ids, by account.
        var records: [String: [String: UInt64]] = [:]
        var nextRecord: UInt64 = 610_000
    }

    struct Member: Sendable, Hashable {
        var record: UInt64
        var account: String
    }

    /// The lists as a Mastodon server numbers them (from 3100).
    static func modelLists() -> ServerLists { ServerLists(idPrefix: "", numbered: 3_099) }

    static let notFollowedRefusal = "Validation failed: Account follow relationship missing"

    // MARK: - Test controls

    /// Makes a list titled `title` holding `accounts` (ids, the first added first, followed or
    /// not); returns its id.
    @discardableResult
    func makeList(_ title: String, accounts: [String] = []) -> String {
        state.withLock { state in
            guard let list = try? state.server.lists.create(title: title) else { return "" }
            for account in accounts { Self.add(account, to: list.id, followed: true, &state) }
            return list.id
        }
    }

    /// The lists now, oldest first.
    var userLists: [UserList] { state.withLock { $0.server.lists.lists } }

    /// The account ids on list `id`, the most recently added first.
    func listMembers(_ id: String) -> [String] {
        state.withLock { Self.members(of: id, $0).map(\.account) }
    }

    /// The membership record ids of list `id`, newest first (what `max_id` names).
    func listRecordIDs(_ id: String) -> [UInt64] {
        state.withLock { Self.members(of: id, $0).map(\.record) }
    }

    /// The memberships of `list`, newest first, each with its record id.
    private static func members(of list: String, _ state: State) -> [Member] {
        (state.server.lists.members[list] ?? []).reversed().map { account in
            Member(record: state.userLists.records[list]?[account.rawValue] ?? 0, account: account.rawValue)
        }
    }

    /// Adds `account` to `list` (a test's setting: whatever the model would refuse is left out).
    private static func add(_ account: String, to list: String, followed: Bool, _ state: inout State) {
        _ = try? addChecked(account, to: list, followed: followed, &state)
    }

    /// Adds `account` to `list` by the model's laws, numbering a new membership's record.
    ///
    /// - Throws: the model's refusal (a list gone, an account not followed).
    private static func addChecked(_ account: String, to list: String, followed: Bool, _ state: inout State) throws {
        let before = state.server.lists.members[list] ?? []
        try state.server.lists.set(AccountID(account), on: list, to: true, followed: followed)
        if !before.contains(AccountID(account)) {
            state.userLists.records[list, default: [:]][account] = state.userLists.nextRecord
            state.userLists.nextRecord += 1
        }
    }

    /// The list `list` as Mastodon answers it.
    private static func answer(_ list: UserList) -> Mastodon.List {
        Mastodon.List(id: list.id, title: list.title, repliesPolicy: "list", exclusive: false)
    }

    /// A refusal of the model as Mastodon answers it: 404 for what is not there, 422 with its
    /// sentence for what it will not do.
    private static func refusal(_ error: any Error) -> HTTPResponse {
        if let refusal = error as? ServerRefusal { return Self.error(422, refusal.message) }
        return Self.error(404, "Record not found")
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints, `nil` for any other.
    func userListsRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts[0].isEmpty, parts[1...3] == ["api", "v1", "lists"] else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, parts.count) {
        case ("GET", 4):
            return Self.json(state.withLock { $0.server.lists.lists.map(Self.answer) })
        case ("POST", 4):
            return state.withLock { state in
                do {
                    return Self.json(Self.answer(try state.server.lists.create(title: request.form["title"] ?? "")))
                } catch {
                    return Self.refusal(error)
                }
            }
        case ("PUT", 5):
            return state.withLock { state in
                do {
                    return Self.json(Self.answer(try state.server.lists.rename(parts[4], to: request.form["title"] ?? "")))
                } catch {
                    return Self.refusal(error)
                }
            }
        case ("DELETE", 5):
            return state.withLock { state in
                do {
                    try state.server.lists.delete(parts[4])
                    state.userLists.records[parts[4]] = nil
                    return Self.json([String: String]())
                } catch {
                    return Self.refusal(error)
                }
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
            guard state.server.lists.lists.contains(where: { $0.id == list }) else { return Self.error(404, "Record not found") }
            let page = Self.window(Self.members(of: list, state), id: \.record, request, limit: limit)
            let shown = page.compactMap { member in accounts.first { $0.id == member.account } }
            let links = link(request, next: page.count == limit ? page.last.map { String($0.record) } : nil, previous: page.first.map { String($0.record) })
            return Self.json(shown, headers: links)
        }
    }

    private func setMembership(list: String, account: String, add: Bool) -> HTTPResponse {
        guard knownAccounts().contains(where: { $0.id == account }) else { return Self.error(404, "Record not found") }
        let following = relationship(account).following
        return state.withLock { state in
            do {
                if add {
                    try Self.addChecked(account, to: list, followed: following, &state)
                } else {
                    try state.server.lists.set(AccountID(account), on: list, to: false, followed: following)
                    state.userLists.records[list]?[account] = nil
                }
                return Self.json([String: String]())
            } catch {
                return Self.refusal(error)
            }
        }
    }
}
