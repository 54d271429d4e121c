import Feedline
import Foundation

/// The sandbox's notifications, newest first, served grouped as Mastodon 4.3 serves them.
///
/// Pages and newer pages are made of notifications (cursors and bounds are notification ids),
/// grouped within the page: a page holds up to `size` groups, and a group that continues on the
/// next page continues under the same key.
struct SandboxNotifications: Sendable {
    /// Newest first.
    private(set) var items: [Mastodon.Notification] = []
    private var positions: [String: Int] = [:]
    private var lastLocalID: UInt64 = 0

    init(_ notifications: [Mastodon.Notification] = []) {
        items = notifications.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
        reindex()
    }

    /// Adds a notification on top, with a fresh id made like a snowflake at `date`.
    mutating func add(type: String, account: Mastodon.Account, status: Mastodon.Status?, at date: Date) {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        var candidate = max(milliseconds << 16, lastLocalID + 1)
        while positions[String(candidate)] != nil { candidate += 1 }
        lastLocalID = candidate
        items.insert(Mastodon.Notification(id: String(candidate), type: type, createdAt: date, account: account, status: status), at: 0)
        reindex()
    }

    /// Up to `size` groups of the notifications after `cursor`, with each status as the store
    /// renders it now; the next cursor is the id of the last notification the page took.
    func page(after cursor: PageCursor?, size: Int, store: SandboxStore) throws(SandboxError) -> Page<NotificationGroup> {
        var start = 0
        if let cursor {
            guard let position = positions[cursor.rawValue] else { throw .unknownCursor(cursor) }
            start = position + 1
        }
        let taken = take(from: start, until: items.count, groups: size)
        let groups = grouped(items[start..<taken], store: store)
        let next = taken < items.count && taken > start ? PageCursor(items[taken - 1].id) : nil
        return Page(items: groups, next: next)
    }

    /// The newest groups of the notifications strictly between `lower` and `upper`, at most `size`.
    func newer(than lower: ItemID, olderThan upper: ItemID?, size: Int, store: SandboxStore) -> NewerPage<NotificationGroup> {
        let end = positions[lower.rawValue] ?? items.count
        let start = upper.flatMap { positions[$0.rawValue] }.map { $0 + 1 } ?? 0
        guard start < end else { return NewerPage(items: [], hasMore: false) }
        let taken = take(from: start, until: end, groups: size)
        return NewerPage(items: grouped(items[start..<taken], store: store), hasMore: taken < end)
    }

    /// The index after the notifications that make up at most `groups` groups from `start`.
    private func take(from start: Int, until end: Int, groups: Int) -> Int {
        var keys: Set<String> = []
        var index = start
        while index < end {
            let key = items[index].groupKey ?? NotificationGroup.groupKey(items[index])
            if !keys.contains(key), keys.count == groups { break }
            keys.insert(key)
            index += 1
        }
        return index
    }

    private func grouped(_ slice: ArraySlice<Mastodon.Notification>, store: SandboxStore) -> [NotificationGroup] {
        let rendered = slice.map { notification in
            var copy = notification
            if let status = notification.status { copy.status = store.rendered(status.id) ?? status }
            return copy
        }
        return NotificationGroup.grouping(rendered)
    }

    private mutating func reindex() {
        positions.removeAll(keepingCapacity: true)
        for (index, item) in items.enumerated() { positions[item.id] = index }
    }
}
