/// The signed-in user's server filters (Mastodon's v2 filters): reading, making, changing and
/// deleting them. Part of `FeedService`.
@_spi(FeedService) public protocol FilterService: Sendable {
    /// Every filter of the signed-in user, with its keywords, in the server's order
    /// (`GET /api/v2/filters`, unpaged).
    func filters() async throws -> [PostFilter]

    /// Makes `filter` (its id ignored; its keywords all new) and returns it as saved, expiring
    /// `expiresIn` seconds from now when given (`POST /api/v2/filters`).
    func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter

    /// Changes the filter `filter.id` to `filter` and returns it as saved: keywords with an id
    /// are kept (changed), those without are added, and those of `old` that `filter` lacks are
    /// deleted; it expires `expiresIn` seconds from now when given (`PUT /api/v2/filters/:id`).
    func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter

    /// Deletes the filter `id` (`DELETE /api/v2/filters/:id`).
    func deleteFilter(_ id: String) async throws
}
