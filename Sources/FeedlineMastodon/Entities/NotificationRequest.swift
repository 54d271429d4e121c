import Foundation

extension Mastodon {
    /// Notifications the server filtered from one account (Mastodon 4.3's `NotificationRequest`,
    /// from `GET /api/v1/notifications/requests`): the account, how many (a string in Mastodon's
    /// JSON, a number in some), the latest post among them. What Feedline reads.
    public struct NotificationRequest: Decodable, Hashable, Sendable {
        public var id: String
        public var createdAt: Date
        public var updatedAt: Date
        public var account: Account
        public var notificationsCount: Int
        public var lastStatus: Status?

        enum CodingKeys: String, SnakeCaseKey {
            case id, createdAt, updatedAt, account, notificationsCount, lastStatus
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.id(.id)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt) ?? createdAt
            account = try container.decode(Account.self, forKey: .account)
            // Mastodon writes the count as a string ("3"); a number is read too, anything else as 0.
            notificationsCount = (try? container.decodeIfPresent(Int.self, forKey: .notificationsCount)).flatMap { $0 }
                ?? (try? container.decodeIfPresent(String.self, forKey: .notificationsCount)).flatMap { $0 }.flatMap { Int($0) } ?? 0
            lastStatus = try container.decodeIfPresent(Status.self, forKey: .lastStatus)
        }
    }
}
