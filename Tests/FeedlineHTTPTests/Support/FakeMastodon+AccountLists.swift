@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Account lists, search and follow requests, with Mastodon's rules:
///
/// - `GET /api/v1/accounts/:id/followers|following`, `GET /api/v1/mutes`, `GET /api/v1/blocks`,
///   `GET /api/v1/follow_requests`: the accounts, newest record first, paged as Mastodon pages
///   them — by the id of the follow (mute, block, request) *record*, which the accounts do not
///   carry: `max_id`, `since_id`, `min_id` name records, and only `Link` tells them (`next` when
///   the page is full, `prev` when it is not empty). `limit` is 40 by default, at most 80, and at
///   most ``largestListPage``. A list of an account the server does not know is 404; mutes, blocks
///   and requests need a user (401).
/// - `GET /api/v1/statuses/:id/favourited_by|reblogged_by`: the accounts that favourited or
///   boosted the status, paged the same way by the favourite's (boost's) record id; 404 for a
///   status the server does not know.
/// - `GET /api/v2/search` (this file's ``search(_:)``; see there).
/// - `POST /api/v1/follow_requests/:id/authorize|reject`: the request is gone from the list and
///   the relationship says so (`requested_by` off; `followed_by` on an accept); 404 when no
///   request of that account waits.
///
/// Accounts put on a list (``fill(_:with:)``) are known to the server from then on (lookup,
/// `GET /api/v1/accounts/:id`, relationships); ``remote`` ones only once a resolving search
/// fetched them.
///
/// Who is on mutes, blocks and follow requests is the model's (``ServerModel/relationships``:
/// the accounts whose relationship mutes, blocks, or asks to follow), and so are the followers
/// of other accounts (``ServerRelationships/followers``), so a mute, block or answer through
/// the API shows on the lists. The fake keeps each account's record id on those lists, which
/// Mastodon pages by, and the following of other accounts, which the model does not keep.
extension FakeMastodon {
    /// What the server keeps for these endpoints (``FakeMastodon/State/lists``).
    struct AccountListsState: Sendable {
        /// A follow, mute, block or follow request: its record id and the account listed.
        struct Record: Sendable, Hashable {
            var id: UInt64
            var accountID: String
        }

        /// Accounts the server knows besides the statuses' authors.
        var accounts: [Mastodon.Account] = []
        /// Accounts of other servers it has not seen: found only by a signed-in resolving search
        /// (as if fetched by WebFinger), known from then on.
        var remote: [Mastodon.Account] = []
        /// The following of other accounts, newest record first, by account id (every other
        /// list is the model's).
        var records: [AccountList: [Record]] = [:]
        /// The record id of each account on a list the model keeps, by list and account id.
        var modelRecordIDs: [AccountList: [String: UInt64]] = [:]
        /// Hashtags with their use, as search answers them (tags that statuses use but that are
        /// not here are answered without a history).
        var hashtags: [Mastodon.Hashtag] = []
        /// The next record id: a sequence of its own, far from account ids.
        var nextRecord: UInt64 = 610_000
        /// The most accounts a list page holds whatever `limit` asks (Mastodon's 80).
        var largestListPage = 80
    }

    // MARK: - Test controls

    /// Makes account `id` feature `tags` on its profile, in this order.
    func feature(_ tags: [Mastodon.FeaturedTag], for id: String) {
        state.withLock { $0.tags.featured[id] = tags }
    }

    /// Puts `accounts` on `list` (followers and following named by account id), in this order
    /// from the newest record, above those already on it; each gets the next record id. Accounts
    /// the server did not know become known. Accounts put on `.requests` have `requested_by` set.
    func fill(_ list: AccountList, with accounts: [Mastodon.Account]) {
        state.withLock { state in
            let known = Set(state.known.flatMap { [$0.account.id, $0.original.account.id] } + state.lists.accounts.map(\.id))
            state.lists.accounts += accounts.filter { !known.contains($0.id) }
            for account in accounts.reversed() {
                let id = AccountID(account.id)
                switch list {
                case .mutes: _ = try? state.server.relationships.set(.mute, to: true, of: id)
                case .blocks: _ = try? state.server.relationships.set(.block, to: true, of: id)
                case .requests: state.server.relationships.byAccount[id, default: Relationship(accountID: id)].requestedBy = true
                case .followers(let of):
                    state.server.relationships.followers[of, default: []].removeAll { $0 == id }
                    state.server.relationships.followers[of, default: []].insert(id, at: 0)
                case .following, .endorsed, .members, .favouritedBy, .boostedBy:
                    state.lists.records[list, default: []].insert(AccountListsState.Record(id: state.lists.nextRecord, accountID: account.id), at: 0)
                    state.lists.nextRecord += 1
                    continue
                }
                state.lists.modelRecordIDs[list, default: [:]][account.id] = state.lists.nextRecord
                state.lists.nextRecord += 1
            }
        }
    }

    /// The ids of the accounts on `list` now, newest record first.
    func accountIDs(on list: AccountList) -> [String] {
        state.withLock { $0.accountRecords(on: list).map(\.accountID) }
    }

    /// The record ids of `list` now, newest first (what `max_id` names).
    func recordIDs(on list: AccountList) -> [UInt64] {
        state.withLock { $0.accountRecords(on: list).map(\.id) }
    }

    /// Accounts of other servers that only a resolving search finds.
    func addRemote(_ accounts: [Mastodon.Account]) {
        state.withLock { $0.lists.remote += accounts }
    }

    /// Hashtags the search knows, with their history.
    func addHashtags(_ hashtags: [Mastodon.Hashtag]) {
        state.withLock { $0.lists.hashtags += hashtags }
    }

    /// The most accounts a list page holds, whatever the client asks.
    var largestListPage: Int {
        get { state.withLock { $0.lists.largestListPage } }
        set { state.withLock { $0.lists.largestListPage = newValue } }
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints (but the search), `nil` for any other.
    ///
    /// Called with requests whose token the server accepted: here a request is signed in when
    /// it carries one.
    func accountListsRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else { return nil }
        let signedIn = request.authorization != nil
        let rest = Array(parts.dropFirst(2))
        switch (request.method, rest.count) {
        case ("GET", 3) where rest[0] == "accounts" && ["followers", "following", "endorsements"].contains(rest[2]):
            guard knownAccounts().contains(where: { $0.id == rest[1] }) else { return Self.error(404, "Record not found") }
            let id = AccountID(rest[1])
            return listPage(request, rest[2] == "followers" ? .followers(id) : rest[2] == "endorsements" ? .endorsed(id) : .following(id))
        case ("GET", 3) where rest[0] == "accounts" && rest[2] == "featured_tags":
            guard knownAccounts().contains(where: { $0.id == rest[1] }) else { return Self.error(404, "Record not found") }
            return Self.json(state.withLock { $0.tags.featured[rest[1]] ?? [] })
        case ("GET", 1) where ["mutes", "blocks", "follow_requests"].contains(rest[0]):
            guard signedIn else { return Self.error(401, "This API requires an authenticated user") }
            return listPage(request, rest[0] == "mutes" ? .mutes : rest[0] == "blocks" ? .blocks : .requests)
        case ("GET", 3) where rest[0] == "statuses" && (rest[2] == "favourited_by" || rest[2] == "reblogged_by"):
            guard state.withLock({ $0.server.entry(rest[1]) != nil }) else { return Self.error(404, "Record not found") }
            let id = PostID(rest[1])
            return listPage(request, rest[2] == "favourited_by" ? .favouritedBy(id) : .boostedBy(id))
        case ("POST", 3) where rest[0] == "follow_requests":
            guard rest[2] == "authorize" || rest[2] == "reject" else { return unexpected(request) }
            return answerRequest(of: rest[1], accept: rest[2] == "authorize")
        default:
            return nil
        }
    }

    private func listPage(_ request: Recorded, _ list: AccountList) -> HTTPResponse {
        let (records, largest) = state.withLock { ($0.accountRecords(on: list), $0.lists.largestListPage) }
        let limit = Self.limit(request, default: min(40, largest), maximum: min(80, largest))
        let page = Self.window(records, id: \.id, request, limit: limit)
        let accounts = knownAccounts()
        let shown = page.compactMap { record in accounts.first { $0.id == record.accountID } }
        let links = link(request, next: page.count == limit ? page.last.map { String($0.id) } : nil, previous: page.first.map { String($0.id) })
        return Self.json(shown, headers: links)
    }

    private func answerRequest(of accountID: String, accept: Bool) -> HTTPResponse {
        guard knownAccounts().contains(where: { $0.id == accountID }) else { return Self.error(404, "Record not found") }
        return state.withLock { state in
            guard state.server.relationships.relationship(of: AccountID(accountID)).requestedBy else { return Self.error(404, "Record not found") }
            let answered = state.server.relationships.answerFollowRequest(from: AccountID(accountID), accept: accept)
            state.recordListChanges(of: AccountID(accountID))
            return Self.json(Self.mastodon(answered))
        }
    }

    // MARK: - Search

    /// `GET /api/v2/search` as Mastodon answers it:
    ///
    /// - `q` is required (400 when missing or blank). Signed out, `offset` is 401 and so is
    ///   `resolve=true`, with Mastodon's sentences.
    /// - `type` (`accounts`, `hashtags`, `statuses`) keeps one kind; `offset` counts only with a
    ///   `type` (Mastodon ignores it without one); `limit` is 20 by default, at most 40, per kind.
    /// - Accounts: for a handle (`@user@host`, `user@host`, a leading `@` dropped) the account with
    ///   exactly that `acct` — a ``AccountListsState/remote`` one only with `resolve=true`, which
    ///   makes it known; for anything else, accounts whose `acct` or display name contains the
    ///   query, an exact `acct` first.
    /// - Hashtags: for a query without `@`, tags whose name contains it (a leading `#` dropped),
    ///   by name; those the test gave carry their history.
    /// - Statuses, signed in only and not for a lone handle: the posts (no boosts) whose content
    ///   contains the query — for `#name`, those with that tag — newest first.
    /// - An `http(s)` address with `resolve=true`: only the status (or account) at that address.
    func search(_ request: Recorded) -> HTTPResponse {
        let query = (request.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return Self.error(400, "param is missing or the value is empty: q") }
        let signedIn = request.authorization != nil
        let resolve = request.query["resolve"] == "true"
        if !signedIn, request.query["offset"] != nil {
            return Self.error(401, "Search queries pagination is not supported without authentication")
        }
        if !signedIn, resolve {
            return Self.error(401, "Search queries that resolve remote resources are not supported without authentication")
        }
        let type = request.query["type"]
        let offset = type == nil ? 0 : max(0, request.query["offset"].flatMap { Int($0) } ?? 0)
        let limit = Self.limit(request, default: 20, maximum: 40)
        func slice<Item>(_ items: [Item], _ kind: String) -> [Item] {
            guard type == nil || type == kind, offset < items.count else { return [] }
            return Array(items[offset..<min(items.count, offset + limit)])
        }

        let lowered = query.lowercased()
        if resolve, lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let statuses = state.withLock { state in state.known.filter { $0.url == query || $0.uri == query }.map { state.rendered($0) } }
            let accounts = knownAccounts().filter { $0.url == query }
            return Self.json(Mastodon.Search(accounts: slice(accounts, "accounts"), statuses: slice(statuses, "statuses")))
        }
        var name = Substring(query)
        while name.hasPrefix("@") { name.removeFirst() }
        let isHandle = name.split(separator: "@", omittingEmptySubsequences: false).count == 2 && !name.contains(" ")
        let accounts: [Mastodon.Account]
        if isHandle {
            let acct = name.lowercased()
            if let known = knownAccounts().first(where: { $0.acct.lowercased() == acct }) {
                accounts = [known]
            } else if resolve {
                accounts = state.withLock { state in
                    guard let index = state.lists.remote.firstIndex(where: { $0.acct.lowercased() == acct }) else { return [] }
                    let fetched = state.lists.remote.remove(at: index)
                    state.lists.accounts.append(fetched)
                    return [fetched]
                }
            } else {
                accounts = []
            }
        } else {
            let wanted = name.lowercased()
            let matching = knownAccounts().filter { $0.acct.lowercased().contains(wanted) || $0.displayName.lowercased().contains(wanted) }
            accounts = matching.filter { $0.acct.lowercased() == wanted } + matching.filter { $0.acct.lowercased() != wanted }
        }
        let tagName = (query.hasPrefix("#") ? String(query.dropFirst()) : query).lowercased()
        let (hashtags, statuses) = state.withLock { state -> ([Mastodon.Hashtag], [Mastodon.Status]) in
            var hashtags: [Mastodon.Hashtag] = []
            if !query.contains("@") {
                var byName: [String: Mastodon.Hashtag] = [:]
                for tag in state.known.flatMap(\.tags) { byName[tag.name.lowercased()] = Mastodon.Hashtag(name: tag.name, url: tag.url) }
                for tag in state.lists.hashtags { byName[tag.name.lowercased()] = tag }
                hashtags = byName.filter { $0.key.contains(tagName) }.sorted { $0.key < $1.key }.map(\.value)
            }
            guard signedIn, !isHandle else { return (hashtags, []) }
            let statuses = state.known.filter { status in
                guard status.reblog == nil else { return false }
                if query.hasPrefix("#") { return status.tags.contains { $0.name.lowercased() == tagName } }
                return status.content.lowercased().contains(lowered)
            }
            return (hashtags, statuses.map { state.rendered($0) })
        }
        return Self.json(
            Mastodon.Search(accounts: slice(accounts, "accounts"), statuses: slice(statuses, "statuses"), hashtags: slice(hashtags, "hashtags"))
        )
    }
}

extension FakeMastodon.State {
    /// The lists of the signed-in user the model keeps.
    private static let userLists: [AccountList] = [.mutes, .blocks, .requests]

    /// Whether `relationship` puts its account on `list` (one of ``userLists``).
    private static func isOn(_ list: AccountList, _ relationship: Relationship) -> Bool {
        switch list {
        case .mutes: relationship.muting
        case .blocks: relationship.blocking
        case .requests: relationship.requestedBy
        case .followers, .following, .endorsed, .members, .favouritedBy, .boostedBy: false
        }
    }

    /// The accounts on `list`, newest record first: the model's (with the record ids the fake
    /// gave them), or the fake's own following of another account.
    func accountRecords(on list: AccountList) -> [FakeMastodon.AccountListsState.Record] {
        let ids: [String]
        switch list {
        case .mutes, .blocks, .requests:
            ids = server.relationships.byAccount.values.filter { Self.isOn(list, $0) }.map(\.accountID.rawValue)
        case .followers(let account):
            return (server.relationships.followers[account] ?? []).map { id in
                FakeMastodon.AccountListsState.Record(id: lists.modelRecordIDs[list]?[id.rawValue] ?? 0, accountID: id.rawValue)
            }
        case .following, .endorsed, .members, .favouritedBy, .boostedBy:
            return lists.records[list, default: []]
        }
        let records = ids.map { FakeMastodon.AccountListsState.Record(id: lists.modelRecordIDs[list]?[$0] ?? 0, accountID: $0) }
        return records.sorted { ($0.id, $0.accountID) > ($1.id, $1.accountID) }
    }

    /// After `account`'s relationship changed in the model: a list it joined gives it the next
    /// record id (on top), a list it left forgets its record.
    mutating func recordListChanges(of account: AccountID) {
        let relationship = server.relationships.relationship(of: account)
        for list in Self.userLists {
            let recorded = lists.modelRecordIDs[list]?[account.rawValue] != nil
            let isOn = Self.isOn(list, relationship)
            if isOn, !recorded {
                lists.modelRecordIDs[list, default: [:]][account.rawValue] = lists.nextRecord
                lists.nextRecord += 1
            } else if !isOn, recorded {
                lists.modelRecordIDs[list]?[account.rawValue] = nil
            }
        }
    }
}
