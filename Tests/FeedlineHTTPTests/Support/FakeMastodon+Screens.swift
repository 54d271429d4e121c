import Feedline
@testable import FeedlineMastodon
import FlyingFox
import Foundation

/// The endpoints of the screens beyond the timelines, as Mastodon serves them.
extension FakeMastodon {
    // MARK: - Test controls

    /// How `GET /api/v2/notifications` is answered (Mastodon 4.3 or older).
    var groupedNotifications: GroupedNotifications {
        get { state.withLock { $0.groupedNotifications } }
        set { state.withLock { $0.groupedNotifications = newValue } }
    }

    /// Bookmarks the statuses in this order, as if the user had (the last one is the newest
    /// bookmark); each gets the next bookmark record id.
    func bookmark(_ statusIDs: [String]) {
        state.withLock { state in
            for id in statusIDs {
                state.mark(id, bookmark: true)
                state.server.update(id) { $0.bookmarked = true }
            }
        }
    }

    /// Favourites the statuses in this order, as if the user had (the last one is the newest).
    func favourite(_ statusIDs: [String]) {
        state.withLock { state in
            for id in statusIDs {
                state.mark(id, favourite: true)
                state.server.update(id) { $0.favourited = true }
            }
        }
    }

    /// The bookmark records, newest first.
    var bookmarks: [Mark] { state.withLock { $0.bookmarks } }
    /// The favourite records, newest first.
    var favourites: [Mark] { state.withLock { $0.favourites } }

    /// The notifications, newest first, with the group key each has on the server.
    var notifications: [Mastodon.Notification] {
        state.withLock { state in
            zip(state.notifications, state.groupKeys).map { notification, key in
                var keyed = notification
                keyed.groupKey = key
                return keyed
            }
        }
    }

    /// A notification arriving now: `type` by `account` about the status `statusID`, at `date`,
    /// with the next notification id, which it returns.
    @discardableResult
    func notify(_ type: String, by account: Mastodon.Account, about statusID: String? = nil, at date: Date) -> String {
        state.withLock { state in
            // Other users' notifications take ids in between.
            let id = String((state.notifications.compactMap { UInt64($0.id) }.max() ?? 48_000_000) + 3)
            let status = statusID.flatMap { state.server.entry($0) }
            state.setNotifications([Mastodon.Notification(id: id, type: type, createdAt: date, account: account, status: status)] + state.notifications)
            return id
        }
    }

    /// Every account the server knows: authors, boosters, who sent notifications, and the
    /// accounts on its lists (`FakeMastodon+AccountLists.swift`).
    func knownAccounts() -> [Mastodon.Account] {
        state.withLock { state in
            var seen: Set<String> = []
            let all = state.known.flatMap { [$0.account, $0.original.account] } + state.notifications.map(\.account) + state.lists.accounts
            return all.filter { seen.insert($0.id).inserted }
        }
    }

    // MARK: - Accounts

    /// `GET /api/v1/accounts/lookup?acct=user@host`: the account, or 404 `Record not found`.
    /// Compared without case; a leading `@` is ignored.
    func lookup(_ request: Recorded) -> HTTPResponse {
        var acct = request.query["acct"] ?? ""
        while acct.hasPrefix("@") { acct.removeFirst() }
        guard !acct.isEmpty, let account = knownAccounts().first(where: { $0.acct.lowercased() == acct.lowercased() }) else {
            return Self.error(404, "Record not found")
        }
        return Self.json(account)
    }

    /// `GET /api/v1/accounts/:id/statuses`: the account's posts and boosts, newest first, paged
    /// by status id, direct messages left out (as Mastodon's profile timeline leaves them out);
    /// with `pinned=true`, only its pinned posts; 404 for an account the server does not know.
    func accountPage(_ request: Recorded, accountID: String) -> HTTPResponse {
        guard knownAccounts().contains(where: { $0.id == accountID }) else { return Self.error(404, "Record not found") }
        let pinnedOnly = request.query["pinned"] == "true"
        let entries = state.withLock { state in
            state.known.filter { $0.account.id == accountID && $0.visibility != .direct }.map { state.rendered($0) }
                .filter { !pinnedOnly || ($0.reblog == nil && $0.pinned == true) }
        }
        return statusPage(request, of: entries)
    }

    // MARK: - Hashtags

    /// `GET /api/v1/timelines/tag/:name`: public posts (no boosts) with the hashtag, compared
    /// without case, among every status the server knows; `local=true` keeps this server's.
    func tagPage(_ request: Recorded, name: String) -> HTTPResponse {
        let entries = state.withLock { state in
            state.known
                .filter { status in
                    status.reblog == nil && status.visibility == .public
                        && status.tags.contains { $0.name.lowercased() == name.lowercased() }
                        && (request.query["local"] != "true" || !status.account.acct.contains("@"))
                }
                .map { state.rendered($0) }
        }
        return statusPage(request, of: entries)
    }

    // MARK: - Bookmarks and favourites

    /// `GET /api/v1/bookmarks` or `/api/v1/favourites`: the statuses, most recently marked first.
    /// As on Mastodon, the page is cut by the bookmark's (favourite's) own record id, which the
    /// statuses do not carry: `max_id`, `since_id` and `min_id` name records, and only `Link`
    /// tells them (`next` when the page is full, `prev` when it is not empty). Which statuses
    /// are marked is the model's (each original's flag, ``ServerModel/interactions(of:)``); the
    /// fake keeps the records, which give the order and the ids.
    func markedPage(_ request: Recorded, bookmarks: Bool) -> HTTPResponse {
        let limit = Self.limit(request, default: 20, maximum: 40)
        let (marks, server) = state.withLock { state in
            let marks = (bookmarks ? state.bookmarks : state.favourites).filter { mark in
                state.server.interactions(of: mark.statusID).map { bookmarks ? $0.bookmarked : $0.favourited } ?? false
            }
            return (marks, state.server)
        }
        let page = Self.window(marks, id: \.id, request, limit: limit)
        let shown = page.compactMap { mark in server.entry(mark.statusID) }
        let links = link(request, next: page.count == limit ? page.last.map { String($0.id) } : nil, previous: page.first.map { String($0.id) })
        return Self.json(shown, headers: links)
    }

    /// Mastodon's id window over `items` (newest first): older than `max_id`, newer than
    /// `since_id` (the newest `limit`) or `min_id` (the oldest `limit`, still newest first).
    static func window<Item>(_ items: [Item], id: (Item) -> UInt64, _ request: Recorded, limit: Int) -> [Item] {
        let maxID = request.query["max_id"].flatMap { UInt64($0) }
        let sinceID = request.query["since_id"].flatMap { UInt64($0) }
        let minID = request.query["min_id"].flatMap { UInt64($0) }
        let range = items.filter { item in
            let key = id(item)
            return maxID.map { key < $0 } ?? true && sinceID.map { key > $0 } ?? true && minID.map { key > $0 } ?? true
        }
        return minID != nil && sinceID == nil ? Array(range.suffix(limit)) : Array(range.prefix(limit))
    }

    // MARK: - Notifications

    /// `GET /api/v1/notifications`: notifications newest first, paged by notification id (40 by
    /// default, at most 80); `group_key` only from a server that groups (Mastodon 4.3). `Link`
    /// has `next` and `prev` whenever the page is not empty, as Mastodon's does.
    /// Whether a notifications request asks for `notification`: of one of its `types[]` (every
    /// type without one) and of none of its `exclude_types[]`, as both endpoints read them.
    static func isAsked(_ notification: Mastodon.Notification, by request: Recorded) -> Bool {
        func values(_ name: String) -> [String] {
            request.queryItems.compactMap { item in item.hasPrefix(name + "=") ? String(item.dropFirst(name.count + 1)) : nil }
        }
        let types = values("types[]")
        return (types.isEmpty || types.contains(notification.type)) && !values("exclude_types[]").contains(notification.type)
    }

    func plainNotificationsPage(_ request: Recorded) -> HTTPResponse {
        let limit = Self.limit(request, default: 40, maximum: 80)
        let all = notifications.filter { Self.isAsked($0, by: request) }
        let page = state.withLock { state in
            Self.window(all, id: { UInt64($0.id) ?? 0 }, request, limit: limit).map { notification in
                var shown = notification
                if state.groupedNotifications != .supported { shown.groupKey = nil }
                shown.status = shown.status.map { state.rendered($0) }
                return shown
            }
        }
        return Self.json(page, headers: link(request, next: page.last?.id, previous: page.first?.id))
    }

    /// `GET /api/v2/notifications` as Mastodon 4.3 answers it: walking the notifications of the
    /// range newest first, the first (newest) one of each group key stands for its group, up to
    /// `limit` groups (40 by default, at most 80). Each group counts, and samples up to 8 accounts
    /// from, every notification of its key up to the page's newest one (older pages included);
    /// `page_min_id` is its oldest notification down to the page's last representative. The
    /// answer lists each account and status once. `Link`'s `next` is below the last group's
    /// representative (so a group with older notifications appears again on the next page) and
    /// `prev` above the first; both whenever the page is not empty. Favourites, boosts and follows
    /// group; other kinds stand alone (`ungrouped-ID`).
    func groupedNotificationsPage(_ request: Recorded) -> HTTPResponse {
        switch groupedNotifications {
        case .supported:
            break
        case .missing:
            return Self.error(404, "Not Found")
        case .missingPage:
            return Self.response(404, ["Content-Type": "text/html; charset=utf-8"], Data(Self.notFoundPage.utf8))
        }
        let limit = Self.limit(request, default: 40, maximum: 80)
        let all = notifications.filter { Self.isAsked($0, by: request) }
        func number(_ notification: Mastodon.Notification) -> UInt64 { UInt64(notification.id) ?? 0 }
        func key(_ notification: Mastodon.Notification) -> String {
            ["favourite", "reblog", "follow"].contains(notification.type) ? notification.groupKey ?? "ungrouped-\(notification.id)" : "ungrouped-\(notification.id)"
        }
        let maxID = request.query["max_id"].flatMap { UInt64($0) }
        let sinceID = request.query["since_id"].flatMap { UInt64($0) }
        let minID = request.query["min_id"].flatMap { UInt64($0) }
        let inRange = all.filter { notification in
            let id = number(notification)
            return maxID.map { id < $0 } ?? true && sinceID.map { id > $0 } ?? true && minID.map { id > $0 } ?? true
        }
        // The oldest groups above min_id walk upwards; the others walk down from the newest.
        var representatives: [Mastodon.Notification] = []
        var keys: Set<String> = []
        for notification in (minID != nil && sinceID == nil ? inRange.reversed() : inRange) where keys.count < limit {
            if keys.insert(key(notification)).inserted { representatives.append(notification) }
        }
        representatives.sort { number($0) > number($1) }
        guard let top = representatives.first.map(number), let bottom = representatives.last.map(number) else {
            return Self.json(Mastodon.GroupedNotifications())
        }
        var accounts: [Mastodon.Account] = []
        var statuses: [Mastodon.Status] = []
        let groups = representatives.map { representative in
            let groupKey = key(representative)
            let members = all.filter { key($0) == groupKey && number($0) <= top }
            let newest = members.first ?? representative
            let samples = members.prefix(Self.sampleAccounts).map(\.account)
            for account in samples where !accounts.contains(where: { $0.id == account.id }) { accounts.append(account) }
            if let status = representative.status, !statuses.contains(where: { $0.id == status.id }) {
                statuses.append(state.withLock { $0.rendered(status) })
            }
            return Mastodon.GroupedNotifications.Group(
                groupKey: groupKey,
                notificationsCount: members.count,
                type: representative.type,
                mostRecentNotificationID: newest.id,
                pageMinID: members.last { number($0) >= bottom }?.id ?? representative.id,
                pageMaxID: newest.id,
                latestPageNotificationAt: newest.createdAt,
                sampleAccountIDs: samples.map(\.id),
                statusID: representative.status?.id
            )
        }
        let answer = Mastodon.GroupedNotifications(accounts: accounts, statuses: statuses, notificationGroups: groups)
        return Self.json(answer, headers: link(request, next: String(bottom), previous: String(top)))
    }

    /// Mastodon's `NotificationGroup::SAMPLE_ACCOUNTS_SIZE`.
    static let sampleAccounts = 8

    static let notFoundPage = "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
}

extension FakeMastodon.State {
    /// Replaces the notifications (sorted newest first by id) and gives each its group key by
    /// Mastodon 4.3's rule, over the whole history.
    mutating func setNotifications(_ all: [Mastodon.Notification]) {
        notifications = all.sorted { (UInt64($0.id) ?? 0) > (UInt64($1.id) ?? 0) }
        groupKeys = NotificationGroup.groupKeys(notifications)
    }
}
