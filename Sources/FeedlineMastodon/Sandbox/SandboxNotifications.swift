@_spi(FeedService) import Feedline
import Foundation

/// The sandbox's notifications, newest first, served grouped as Mastodon 4.3 serves them.
///
/// Pages and newer pages are made of notifications (cursors and bounds are notification ids). A
/// page holds up to `size` groups; a group counts (and samples accounts from) every notification
/// of its key from its newest on the page down, older pages included — as Mastodon's do — and
/// a group that continues on the next page appears there again under the same key, with that
/// page's lower bound.
struct SandboxNotifications: Sendable {
    /// Newest first.
    private(set) var items: [Mastodon.Notification] = []
    private var positions: [String: Int] = [:]
    private var lastLocalID: UInt64 = 0
    /// The grouping rule's memory, for notifications added later.
    private var buckets = NotificationGroup.GroupBuckets()

    /// The notifications, given the group keys Mastodon 4.3 gives them (over their whole
    /// history, so a group keeps its key across pages).
    init(_ notifications: [Mastodon.Notification] = []) {
        let sorted = notifications.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
        items = sorted
        for index in items.indices.reversed() { items[index].groupKey = buckets.key(for: items[index]) }
        reindex()
    }

    /// Adds a notification on top, with a fresh id made like a snowflake at `date`; returns it
    /// as a group of one (as a stream delivers it). `inOrder` places it by its date instead, with
    /// the id of its date (a notification that was held back and is let through, as an accepted
    /// request's are).
    @discardableResult
    mutating func add(type: String, account: Mastodon.Account, status: Mastodon.Status?, at date: Date, inOrder: Bool = false) -> NotificationGroup {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        var candidate = inOrder ? milliseconds << 16 : max(milliseconds << 16, lastLocalID + 1)
        while positions[String(candidate)] != nil { candidate += 1 }
        lastLocalID = max(lastLocalID, candidate)
        var notification = Mastodon.Notification(id: String(candidate), type: type, createdAt: date, account: account, status: status)
        notification.groupKey = buckets.key(for: notification)
        let index = inOrder ? items.firstIndex { $0.createdAt <= date } ?? items.count : 0
        items.insert(notification, at: index)
        reindex()
        return NotificationGroup(
            id: notification.groupKey ?? "ungrouped-\(notification.id)", kind: NotificationGroup.Kind(apiName: type),
            accounts: [Author(account)], count: 1, post: status.map(Post.init), latestAt: date, newestID: ItemID(notification.id)
        )
    }

    /// Up to `size` groups of the notifications of `kinds` (every kind when empty) after
    /// `cursor`, with each status as the store renders it now; the next cursor is the id of the
    /// last notification the page took.
    func page(
        of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?, size: Int, store: SandboxStore
    ) throws(SandboxError) -> Page<NotificationGroup> {
        var start = 0
        if let cursor {
            guard let position = positions[cursor.rawValue] else { throw .unknownCursor(cursor.rawValue) }
            start = position + 1
        }
        let taken = take(kinds, from: start, until: items.count, groups: size)
        let groups = grouped(kinds, items[start..<taken], store: store)
        let next = taken < items.count && taken > start ? PageCursor(items[taken - 1].id) : nil
        return Page(items: groups, next: next)
    }

    /// The newest groups of the notifications of `kinds` (every kind when empty) strictly between
    /// `lower` and `upper`, at most `size`.
    func newer(
        of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?, size: Int, store: SandboxStore
    ) -> NewerPage<NotificationGroup> {
        let end = positions[lower.rawValue] ?? items.count
        let start = upper.flatMap { positions[$0.rawValue] }.map { $0 + 1 } ?? 0
        guard start < end else { return NewerPage(items: [], hasMore: false) }
        let taken = take(kinds, from: start, until: end, groups: size)
        let more = items[taken..<end].contains { kinds.accepts(NotificationGroup.Kind(apiName: $0.type)) }
        return NewerPage(items: grouped(kinds, items[start..<taken], store: store), hasMore: more)
    }

    /// The index after the notifications of `kinds` that make up at most `groups` groups from
    /// `start` (others are passed over).
    private func take(_ kinds: Set<NotificationGroup.Kind>, from start: Int, until end: Int, groups: Int) -> Int {
        var keys: Set<String> = []
        var index = start
        while index < end {
            guard kinds.accepts(NotificationGroup.Kind(apiName: items[index].type)) else {
                index += 1
                continue
            }
            let key = items[index].groupKey ?? "ungrouped-\(items[index].id)"
            if !keys.contains(key), keys.count == groups { break }
            keys.insert(key)
            index += 1
        }
        return index
    }

    /// The groups of the notifications of `kinds` in `slice`, in the order they first appear.
    private func grouped(_ kinds: Set<NotificationGroup.Kind>, _ slice: ArraySlice<Mastodon.Notification>, store: SandboxStore) -> [NotificationGroup] {
        var order: [String] = []
        var oldestOnPage: [String: String] = [:]
        // Notifications about a deleted status are gone, as on Mastodon.
        func gone(_ notification: Mastodon.Notification) -> Bool { notification.status.map { store.isDeleted($0.id) } ?? false }
        for notification in slice where !gone(notification) && kinds.accepts(NotificationGroup.Kind(apiName: notification.type)) {
            let key = notification.groupKey ?? "ungrouped-\(notification.id)"
            if oldestOnPage[key] == nil { order.append(key) }
            oldestOnPage[key] = notification.id
        }
        var firstIndex: [String: Int] = [:]
        for index in slice.indices {
            let key = items[index].groupKey ?? "ungrouped-\(items[index].id)"
            if firstIndex[key] == nil { firstIndex[key] = index }
        }
        return order.compactMap { key in
            guard let first = firstIndex[key] else { return nil }
            // Every notification of the group from its newest on this page down: counted, and
            // the first accounts sampled, without copying the notifications (each holds an
            // account and a status; copying every member made grouping most of what a
            // notifications page cost).
            var newest: Int?
            var count = 0
            var seen: Set<String> = []
            var accounts: [Author] = []
            for index in first..<items.count where items[index].groupKey ?? "ungrouped-\(items[index].id)" == key && !gone(items[index]) {
                if newest == nil { newest = index }
                count += 1
                if accounts.count < NotificationGroup.sampleSize, seen.insert(items[index].account.id).inserted {
                    accounts.append(Author(items[index].account))
                }
            }
            guard let newest else { return nil }
            let status = items[newest].status.map { store.rendered($0.id) ?? $0 }
            return NotificationGroup(
                id: key,
                kind: NotificationGroup.Kind(apiName: items[newest].type),
                accounts: accounts,
                count: count,
                post: status.map(Post.init),
                latestAt: items[newest].createdAt,
                newestID: ItemID(items[newest].id),
                oldestID: ItemID(oldestOnPage[key] ?? items[newest].id)
            )
        }
    }

    /// Removes the notifications of the group `key`; returns whether there were any.
    mutating func dismiss(group key: String) -> Bool {
        let before = items.count
        items.removeAll { ($0.groupKey ?? "ungrouped-\($0.id)") == key }
        guard items.count < before else { return false }
        reindex()
        return true
    }

    /// Removes every notification.
    mutating func clear() {
        items.removeAll()
        reindex()
    }

    private mutating func reindex() {
        positions.removeAll(keepingCapacity: true)
        for (index, item) in items.enumerated() { positions[item.id] = index }
    }
}
