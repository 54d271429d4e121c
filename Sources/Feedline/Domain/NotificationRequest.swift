import Foundation

/// Notifications your server filtered from one account (Mastodon 4.3's `NotificationRequest`,
/// kept aside by your notification policy): listed on the filtered-notifications screen
/// (``ListSource/notificationRequests``), where each can be accepted (its notifications join
/// your notifications) or dismissed. A service's value, as `ScheduledPost` is: a front reads it
/// on that screen's rows (`ListRow.notificationRequest(_:state:)`, under the same SPI).
@_spi(FeedService) public struct NotificationRequest: Hashable, Sendable, Identifiable {
    /// The server's id of the request (not an account id).
    public var id: String
    /// The account whose notifications were filtered.
    public var account: Author
    /// How many of its notifications were filtered.
    public var notificationsCount: Int
    /// The most recent post of a filtered notification, if any.
    public var lastPost: Post?
    /// When the first of them was filtered.
    public var createdAt: Date
    /// When the request last changed.
    public var updatedAt: Date

    public init(id: String, account: Author, notificationsCount: Int, lastPost: Post? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.account = account
        self.notificationsCount = notificationsCount
        self.lastPost = lastPost
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What is done with a request: its notifications accepted, or dismissed.
    @_spi(FeedService) public enum Answer: String, Hashable, Sendable {
        /// Its notifications join your notifications, and later ones from the account are not filtered.
        case accept
        /// It and its notifications are dropped.
        case dismiss
    }
}
