/// Something a server pushes while the user reads (Mastodon's streaming API: `update`,
/// `delete`, `status.update`, `notification`), as a value. Apply it with
/// ``FeedSession/apply(_:)``; the transport that receives it lives outside the core.
@_spi(FeedService) public enum StreamEvent: Hashable, Sendable {
    /// A new entry (a post or a boost) in `feed`. Lists of that feed keep it waiting above their
    /// rows — nothing moves under the reader — until ``FeedListViewModel/showWaiting()``.
    case posted(Post, in: Feed)
    /// The entry or original with this id was deleted: it leaves every list (an original takes
    /// its boosts with it) and an open detail of it says so.
    case deleted(PostID)
    /// A new version of a post (an edit): every row and detail showing it updates, through the
    /// store's freshness rules, so a pending favourite or boost is never undone by it.
    case edited(Post)
    /// A new notification, as a group of one (or a group the server grouped). Notification
    /// lists keep it waiting above, merged into its group.
    case notified(NotificationGroup)
    /// A direct conversation with a new post (Mastodon's `conversation` event, sent on the
    /// `direct` stream only): its post goes into the store and the conversation moves to the
    /// top of every conversations list.
    case conversation(Conversation)
}
