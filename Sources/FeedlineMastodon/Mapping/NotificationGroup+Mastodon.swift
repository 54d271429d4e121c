import Feedline
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
    /// notifications: consecutive runs are not required — every notification with the same key
    /// joins the first (newest) group of that key, in the order the groups first appear.
    ///
    /// The key is the server's `group_key` when it sent one, else Mastodon 4.3's rule (see
    /// ``groupKey(_:)``).
    public static func grouping(_ notifications: [Mastodon.Notification]) -> [NotificationGroup] {
        var order: [String] = []
        var members: [String: [Mastodon.Notification]] = [:]
        for notification in notifications {
            let key = notification.groupKey ?? groupKey(notification)
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

    /// How many accounts a group names at most (Mastodon samples 8).
    public static let sampleSize = 8

    /// The key Mastodon 4.3 groups a notification under: favourites and boosts of the same post
    /// and follows, within the same day-long bucket (`favourite-STATUS-BUCKET`, `follow-BUCKET`);
    /// everything else stands alone (`ungrouped-ID`).
    public static func groupKey(_ notification: Mastodon.Notification) -> String {
        let bucket = Int(notification.createdAt.timeIntervalSince1970 / groupingWindow)
        switch notification.type {
        case "favourite", "reblog":
            if let status = notification.status?.original.id { return "\(notification.type)-\(status)-\(bucket)" }
        case "follow":
            return "follow-\(bucket)"
        default:
            break
        }
        return "ungrouped-\(notification.id)"
    }

    /// The length of a grouping bucket, in seconds.
    public static let groupingWindow: TimeInterval = 86_400
}
