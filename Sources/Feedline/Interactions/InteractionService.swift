/// Favourites, boosts and bookmarks on a server: what the session's post store sends. Part of `FeedService`.
@_spi(FeedService) public protocol InteractionService: Sendable {
    /// Sets `kind` (favourite, boost, bookmark) of the post with this original id to `value` and
    /// returns the server's copy afterwards — for a boost possibly the new reblog wrapper, whose
    /// `reblog` is the original.
    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post
}
