extension Mastodon {
    /// The user's notification filtering policy (Mastodon 4.3's v2 `NotificationPolicy`, from
    /// `GET` and `PATCH /api/v2/notifications/policy`): each field `accept`, `filter` or `drop`,
    /// and the summary of what waits as notification requests. What Feedline reads.
    public struct NotificationPolicy: Decodable, Hashable, Sendable {
        /// The summary of filtered notifications.
        public struct Summary: Decodable, Hashable, Sendable {
            public var pendingRequestsCount: Int
            public var pendingNotificationsCount: Int

            enum CodingKeys: String, SnakeCaseKey {
                case pendingRequestsCount, pendingNotificationsCount
            }

            public init(pendingRequestsCount: Int = 0, pendingNotificationsCount: Int = 0) {
                self.pendingRequestsCount = pendingRequestsCount
                self.pendingNotificationsCount = pendingNotificationsCount
            }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                pendingRequestsCount = try container.decodeIfPresent(Int.self, forKey: .pendingRequestsCount) ?? 0
                pendingNotificationsCount = try container.decodeIfPresent(Int.self, forKey: .pendingNotificationsCount) ?? 0
            }
        }

        public var forNotFollowing: String
        public var forNotFollowers: String
        public var forNewAccounts: String
        public var forPrivateMentions: String
        public var forLimitedAccounts: String
        public var summary: Summary

        enum CodingKeys: String, SnakeCaseKey {
            case forNotFollowing, forNotFollowers, forNewAccounts, forPrivateMentions, forLimitedAccounts, summary
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            forNotFollowing = try container.decodeIfPresent(String.self, forKey: .forNotFollowing) ?? "accept"
            forNotFollowers = try container.decodeIfPresent(String.self, forKey: .forNotFollowers) ?? "accept"
            forNewAccounts = try container.decodeIfPresent(String.self, forKey: .forNewAccounts) ?? "accept"
            forPrivateMentions = try container.decodeIfPresent(String.self, forKey: .forPrivateMentions) ?? "filter"
            forLimitedAccounts = try container.decodeIfPresent(String.self, forKey: .forLimitedAccounts) ?? "filter"
            summary = try container.decodeIfPresent(Summary.self, forKey: .summary) ?? Summary()
        }
    }
}
