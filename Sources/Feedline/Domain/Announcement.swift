import Foundation

/// An announcement of the instance's administrators (Mastodon's `Announcement`): its text (the
/// server's HTML made plain text by the service, as a post's), when it was published and last
/// changed, the event it may announce, and whether the user has read it.
@_spi(FeedService) public struct Announcement: Hashable, Sendable, Identifiable {
    /// The server's id of the announcement (opaque).
    public var id: String
    /// Its text, plain (the service made the server's HTML text, as it does a post's).
    public var text: String
    /// When it was published.
    public var publishedAt: Date
    /// When it was last changed, if it was after it was published.
    public var updatedAt: Date?
    /// When the event it announces starts and ends, when it announces one.
    public var startsAt: Date?
    public var endsAt: Date?
    /// Whether the event lasts whole days (its times are then dates).
    public var allDay: Bool
    /// Whether the user has read it (dismissed it), as the server said.
    public var read: Bool

    public init(
        id: String, text: String, publishedAt: Date, updatedAt: Date? = nil, startsAt: Date? = nil, endsAt: Date? = nil, allDay: Bool = false,
        read: Bool = false
    ) {
        self.id = id
        self.text = text
        self.publishedAt = publishedAt
        self.updatedAt = updatedAt
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.allDay = allDay
        self.read = read
    }
}
