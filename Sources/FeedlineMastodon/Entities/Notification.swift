import Foundation

extension Mastodon {
    /// A notification (Mastodon's `Notification`, `GET /api/v1/notifications`).
    ///
    /// Required: `id`, `type`, `created_at`, `account`. `status` is there for the kinds about a
    /// post; `group_key` only from Mastodon 4.3 on.
    public struct Notification: Codable, Hashable, Sendable, ReadableEntity {
        public var id: String
        /// `mention`, `status`, `reblog`, `follow`, `follow_request`, `favourite`, `poll`,
        /// `update`, … (kept as sent: servers add kinds).
        public var type: String
        public var createdAt: Date
        /// Who acted.
        public var account: Account
        /// The post it is about, if any.
        public var status: Status?
        /// The key Mastodon 4.3 groups it under, if the server sent one.
        public var groupKey: String?

        enum CodingKeys: String, SnakeCaseKey {
            case id, type, account, status, createdAt, groupKey
        }
    }

    /// `GET /api/v2/notifications` (Mastodon 4.3): notification groups with the accounts and
    /// statuses they name, each sent once.
    public struct GroupedNotifications: Codable, Hashable, Sendable, ReadableEntity {
        /// One group.
        public struct Group: Codable, Hashable, Sendable, ReadableEntity {
            public var groupKey: String
            public var notificationsCount: Int
            public var type: String
            public var mostRecentNotificationID: String
            /// The oldest and newest notification ids of the group on this page.
            public var pageMinID: String?
            public var pageMaxID: String?
            public var latestPageNotificationAt: Date?
            /// Some of the accounts, newest first.
            public var sampleAccountIDs: [String]
            public var statusID: String?

            enum CodingKeys: String, SnakeCaseKey {
                case type, groupKey, notificationsCount, mostRecentNotificationID, pageMinID, pageMaxID, latestPageNotificationAt
                case sampleAccountIDs, statusID
            }
        }

        public var accounts: [Account] = []
        public var statuses: [Status] = []
        public var notificationGroups: [Group] = []

        enum CodingKeys: String, SnakeCaseKey {
            case accounts, statuses, notificationGroups
        }
    }
}

extension Mastodon.Notification {
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        type = try container.decode(String.self, forKey: .type)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        account = try container.decode(Mastodon.Account.self, forKey: .account)
        status = try container.decodeIfPresent(Mastodon.Status.self, forKey: .status)
        groupKey = try container.decodeIfPresent(String.self, forKey: .groupKey)
    }
}

extension Mastodon.GroupedNotifications.Group {
    init(reading container: some FieldReader<CodingKeys>) throws {
        groupKey = try container.decode(String.self, forKey: .groupKey)
        notificationsCount = try container.value(.notificationsCount, or: 1)
        type = try container.decode(String.self, forKey: .type)
        mostRecentNotificationID = try container.id(.mostRecentNotificationID)
        pageMinID = try container.optionalID(.pageMinID)
        pageMaxID = try container.optionalID(.pageMaxID)
        latestPageNotificationAt = try container.decodeIfPresent(Date.self, forKey: .latestPageNotificationAt)
        sampleAccountIDs = try container.value(.sampleAccountIDs, or: [])
        statusID = try container.optionalID(.statusID)
    }
}

extension Mastodon.GroupedNotifications {
    init(reading container: some FieldReader<CodingKeys>) throws {
        accounts = try container.value(.accounts, or: [])
        statuses = try container.value(.statuses, or: [])
        notificationGroups = try container.value(.notificationGroups, or: [])
    }
}
