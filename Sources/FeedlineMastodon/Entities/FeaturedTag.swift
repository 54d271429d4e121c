import Foundation

extension Mastodon {
    /// A hashtag an account features on its profile (Mastodon's `FeaturedTag`, as
    /// `GET /api/v1/accounts/:id/featured_tags` answers it).
    ///
    /// Decoded tolerantly: `name` is required; Mastodon sends `statuses_count` as a string
    /// (`"12"`), and a number is read too (anything else reads as 0); `last_status_at` is a bare
    /// calendar date (`2026-11-20`) or a timestamp, `nil` when absent, `null` or unreadable.
    public struct FeaturedTag: Codable, Hashable, Sendable {
        public var id: String
        /// The name without `#`, as the server spells it.
        public var name: String
        /// The account's posts with the hashtag, on the server; empty when the server sent none.
        public var url: String
        /// How many of the account's posts use it.
        public var statusesCount: Int
        /// When the account last used it.
        public var lastStatusAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, name, url
            case statusesCount = "statuses_count"
            case lastStatusAt = "last_status_at"
        }

        public init(id: String, name: String, url: String = "", statusesCount: Int = 0, lastStatusAt: Date? = nil) {
            self.id = id
            self.name = name
            self.url = url
            self.statusesCount = statusesCount
            self.lastStatusAt = lastStatusAt
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            id = (try? container.decodeIfPresent(String.self, forKey: .id)) ?? ""
            url = (try? container.decodeIfPresent(String.self, forKey: .url)) ?? ""
            if let text = try? container.decodeIfPresent(String.self, forKey: .statusesCount) {
                statusesCount = Int(text) ?? 0
            } else {
                statusesCount = (try? container.decodeIfPresent(Int.self, forKey: .statusesCount)) ?? 0
            }
            let last = (try? container.decodeIfPresent(String.self, forKey: .lastStatusAt))
            lastStatusAt = last.flatMap(DateFormat.date(from:))
        }

        /// Encodes as Mastodon does: `statuses_count` a string, `last_status_at` a calendar day.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(url, forKey: .url)
            try container.encode(String(statusesCount), forKey: .statusesCount)
            try container.encode(lastStatusAt.map(DateFormat.calendarDay), forKey: .lastStatusAt)
        }
    }
}
