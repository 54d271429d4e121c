import Foundation

extension Mastodon {
    /// An announcement of the instance's administrators (`GET /api/v1/announcements`, Mastodon
    /// 3.1 and later): what Feedline reads of it (its mentions, statuses, tags, emojis and
    /// reactions are not read).
    public struct Announcement: Codable, Hashable, Sendable {
        /// The server's id of the announcement.
        public var id: String
        /// HTML, as a post's `content`.
        public var content: String
        /// When the event it announces starts and ends; `null` when it announces none.
        public var startsAt: Date?
        public var endsAt: Date?
        /// Whether the event lasts whole days; absent is false.
        public var allDay: Bool?
        /// When it was published.
        public var publishedAt: Date
        /// When it was last changed.
        public var updatedAt: Date?
        /// Whether the user read (dismissed) it; absent (a request without a user) is unread.
        public var read: Bool?

        public init(
            id: String, content: String, startsAt: Date? = nil, endsAt: Date? = nil, allDay: Bool? = false, publishedAt: Date,
            updatedAt: Date? = nil, read: Bool? = false
        ) {
            self.id = id
            self.content = content
            self.startsAt = startsAt
            self.endsAt = endsAt
            self.allDay = allDay
            self.publishedAt = publishedAt
            self.updatedAt = updatedAt
            self.read = read
        }

        enum CodingKeys: String, SnakeCaseKey {
            case id, content, startsAt, endsAt, allDay, publishedAt, updatedAt, read
        }
    }
}
