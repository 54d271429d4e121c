/// What the lists and the post screen read from a server: pages of a feed, newer posts, the
/// notifications, one post and its thread. Part of `FeedService`.
@_spi(FeedService) public protocol TimelineService: Sendable {
    /// A page of `feed`, newest first: the newest posts when `cursor` is `nil`, otherwise the
    /// posts just below those of the page that returned `cursor`.
    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post>

    /// The newest posts of `feed` strictly newer than `lower` and, when `upper` is given, strictly
    /// older than `upper` (Mastodon's `since_id` + `max_id`), newest first, at most one page of
    /// them. `hasMore` says whether older posts of that range were left out.
    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post>

    /// A page of the signed-in user's notifications of `kinds` (every kind when empty;
    /// Mastodon's `types[]`), grouped, newest first.
    func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup>

    /// The newest notification groups of `kinds` (every kind when empty) with notifications
    /// strictly newer than `lower` and, when `upper` is given, strictly older than `upper` (both
    /// notification ids), at most one page.
    func newerNotifications(of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup>

    /// Dismisses the notification group `key` (Mastodon's `POST
    /// /api/v2/notifications/:group_key/dismiss`): its notifications leave the user's.
    func dismissNotificationGroup(_ key: String) async throws

    /// Dismisses every notification of the user (`POST /api/v1/notifications/clear`).
    func clearNotifications() async throws

    /// One post by id (an entry or an original).
    func post(_ id: PostID) async throws -> Post

    /// The thread around a post.
    func context(of id: PostID) async throws -> PostContext
}
