@_spi(FeedService) import Feedline
import Foundation

extension NotificationGroup {
    /// The group for one of `GET /api/v2/notifications`' groups, with the accounts and statuses
    /// the answer carries (looked up by id; unknown ids are left out).
    public init(
        _ group: Mastodon.GroupedNotifications.Group, accounts: [String: Mastodon.Account], statuses: [String: Mastodon.Status]
    ) {
        self.init(
            id: group.groupKey,
            kind: Kind(apiName: group.type),
            accounts: group.sampleAccountIDs.compactMap { accounts[$0] }.map(Author.init),
            count: group.notificationsCount,
            post: group.statusID.flatMap { statuses[$0] }.map(Post.init),
            latestAt: group.latestPageNotificationAt ?? .distantPast,
            newestID: ItemID(group.pageMaxID ?? group.mostRecentNotificationID),
            oldestID: ItemID(group.pageMinID ?? group.mostRecentNotificationID)
        )
    }

    /// Groups notifications (newest first) on the client, for servers without grouped
    /// notifications: every notification with the same key joins the first (newest) group of that
    /// key, in the order the groups first appear. The key is the server's `group_key` when it
    /// sent one, else the one ``groupKeys(_:)`` gives.
    public static func grouping(_ notifications: [Mastodon.Notification]) -> [NotificationGroup] {
        let keys = groupKeys(notifications)
        var order: [String] = []
        var members: [String: [Mastodon.Notification]] = [:]
        for (notification, key) in zip(notifications, keys) {
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(notification)
        }
        return order.compactMap { key in
            guard let group = members[key], let newest = group.first, let oldest = group.last else { return nil }
            var seen: Set<String> = []
            let accounts = group.map(\.account).filter { seen.insert($0.id).inserted }
            return NotificationGroup(
                id: key,
                kind: Kind(apiName: newest.type),
                accounts: accounts.prefix(Self.sampleSize).map(Author.init),
                count: group.count,
                post: newest.status.map(Post.init),
                latestAt: newest.createdAt,
                newestID: ItemID(newest.id),
                oldestID: ItemID(oldest.id)
            )
        }
    }

    /// The group key of each of `notifications` (newest first), by Mastodon 4.3's rule: favourites
    /// and boosts of the same post, and follows, group within an hour bucket that a group keeps
    /// while new ones come less than ``maximumGroupSpan`` hours after its first bucket
    /// (`favourite-STATUS-HOUR`, `reblog-STATUS-HOUR`, `follow-HOUR`); every other notification
    /// stands alone (`ungrouped-ID`). A `group_key` the server sent wins.
    public static func groupKeys(_ notifications: [Mastodon.Notification]) -> [String] {
        var buckets = GroupBuckets()
        var keys = [String](repeating: "", count: notifications.count)
        for index in notifications.indices.reversed() {
            keys[index] = buckets.key(for: notifications[index])
        }
        return keys
    }

    /// The longest a group spans, in hours (Mastodon's `MAXIMUM_GROUP_SPAN_HOURS`).
    public static let maximumGroupSpan = 12

    /// The grouping rule's memory: the bucket each group prefix last used. Feed it notifications
    /// oldest first.
    public struct GroupBuckets: Sendable {
        private var last: [String: Int] = [:]

        public init() {}

        /// The key of `notification`, the next one in time.
        public mutating func key(for notification: Mastodon.Notification) -> String {
            if let key = notification.groupKey { return key }
            let prefix: String
            switch notification.type {
            case "favourite", "reblog":
                guard let status = notification.status?.original.id else { return "ungrouped-\(notification.id)" }
                prefix = "\(notification.type)-\(status)"
            case "follow", "admin.sign_up":
                prefix = notification.type
            default:
                return "ungrouped-\(notification.id)"
            }
            var bucket = Int((notification.createdAt.timeIntervalSince1970 / 3600).rounded(.down))
            if let previous = last[prefix], bucket < previous + NotificationGroup.maximumGroupSpan { bucket = previous }
            last[prefix] = bucket
            return "\(prefix)-\(bucket)"
        }
    }
}
