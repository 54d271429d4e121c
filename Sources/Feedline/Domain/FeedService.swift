/// Everything the view models ask of a server. Implementations: the offline sandbox and the
/// HTTP client in `FeedlineMastodon`, and test doubles.
///
/// Calls may run concurrently and must be safe to call from any task. A call that is cancelled
/// should stop early (throwing `CancellationError` is fine); its result is ignored. Errors should
/// conform to `LocalizedError` (or `CustomStringConvertible`) with a sentence a user can act on:
/// the view models show it as is (see ``FeedError/message(for:)``).
public protocol FeedService: Sendable {
    /// A page of the timeline, newest first, starting with the newest posts when `cursor` is `nil`,
    /// otherwise just below the posts of the page that returned `cursor`.
    func timelinePage(after cursor: PageCursor?) async throws -> Page

    /// The newest posts strictly newer than `lower` and, when `upper` is given, strictly older
    /// than `upper` (Mastodon's `since_id` + `max_id`), newest first, at most one page of them.
    /// `hasMore` says whether older posts of that range were left out.
    func newerPosts(than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage

    /// One post by id (an entry or an original).
    func post(_ id: PostID) async throws -> Post

    /// The thread around a post.
    func context(of id: PostID) async throws -> PostContext

    /// Favourites (`true`) or unfavourites (`false`) the post with this original id and returns
    /// the server's copy of it afterwards.
    func setFavourite(_ favourited: Bool, postID: PostID) async throws -> Post

    /// Boosts (`true`) or unboosts (`false`) the post with this original id and returns the
    /// server's copy afterwards — possibly the new reblog wrapper, whose `reblog` is the original.
    func setReblog(_ reblogged: Bool, postID: PostID) async throws -> Post
}
