/// Hashtags on a server: one tag, following it, the followed and the trending ones. Part of
/// `FeedService`.
@_spi(FeedService) public protocol TagService: Sendable {
    /// Follows (`true`) or unfollows the hashtag `name` (without `#`) and returns it afterwards
    /// (`POST /api/v1/tags/:name/follow|unfollow`).
    func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag

    /// The hashtag `name` (without `#`): its use over the last week and, signed in, whether you
    /// follow it (`GET /api/v1/tags/:name`): what a hashtag screen's header shows.
    func tag(named name: String) async throws -> Hashtag

    /// A page of the hashtags the signed-in user follows (`GET /api/v1/followed_tags`, paged by
    /// `Link`).
    func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag>

    /// A page of the hashtags trending on the server, most used first (`GET
    /// /api/v1/trends/tags`, paged by offset).
    func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag>

    /// The hashtags `account` features on its profile, in the server's order, each with how many
    /// of its posts use it and when it last did (`GET /api/v1/accounts/:id/featured_tags`):
    /// what a profile's header shows.
    func featuredTags(of account: AccountID) async throws -> [Hashtag]
}
