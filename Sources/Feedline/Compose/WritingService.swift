import Foundation

/// Writing on a server: posting, editing, deleting and voting, and what an edit starts from.
/// Part of `FeedService`.
@_spi(FeedService) public protocol WritingService: Sendable {
    /// Who is signed in, their posting defaults and the server's limits.
    func composeSettings() async throws -> ComposeSettings

    /// Posts `draft` (a new post; with ``Draft/editing``, an edit of that post) and returns the
    /// server's copy. `idempotencyKey` is the same on every attempt of one submission: a server
    /// that already made the post for that key returns that post instead of making a second.
    func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post

    /// Deletes the signed-in account's post `id` and returns it as it was.
    func delete(_ id: PostID) async throws -> Post

    /// The text and content warning of the signed-in account's post `id` as they were typed
    /// (Mastodon's `GET /api/v1/statuses/:id/source`): what an edit starts from.
    func source(of id: PostID) async throws -> PostSource

    /// Every version of post `id`, oldest first, the current one last
    /// (`GET /api/v1/statuses/:id/history`).
    func history(of id: PostID) async throws -> [PostVersion]

    /// Votes for `choices` (0-based) in the poll `pollID` of post `postID` and returns the poll
    /// afterwards (`POST /api/v1/polls/:id/votes`).
    func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll
}
