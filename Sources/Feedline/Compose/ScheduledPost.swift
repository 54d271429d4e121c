import Foundation

/// A post the server keeps to publish later (Mastodon's `ScheduledStatus`): not on any timeline
/// until its time, listed on the scheduled screen (``ListSource/scheduled``), where its time can
/// change and it can be cancelled. A service's value, as `UserList` is: a front reads it on a
/// scheduled screen's rows (`ListRow.scheduled(_:state:)`, under the same SPI).
@_spi(FeedService) public struct ScheduledPost: Hashable, Sendable, Identifiable {
    /// The server's id of the scheduled post (not a post id: no post exists yet).
    public var id: String
    /// When the server publishes it.
    public var scheduledAt: Date
    /// The text as typed.
    public var text: String
    /// The content warning, `nil` for none.
    public var contentWarning: String?
    public var visibility: PostVisibility
    /// The post it replies to, if any.
    public var inReplyTo: PostID?
    /// How many media it carries.
    public var mediaCount: Int
    /// The choices of its poll, empty for none.
    public var pollOptions: [String]

    public init(
        id: String, scheduledAt: Date, text: String, contentWarning: String? = nil, visibility: PostVisibility = .public,
        inReplyTo: PostID? = nil, mediaCount: Int = 0, pollOptions: [String] = []
    ) {
        self.id = id
        self.scheduledAt = scheduledAt
        self.text = text
        self.contentWarning = contentWarning
        self.visibility = visibility
        self.inReplyTo = inReplyTo
        self.mediaCount = mediaCount
        self.pollOptions = pollOptions
    }
}
