/// Accounts on a server: profiles, relationships and their changes, account lists, search and
/// follow requests. Part of `FeedService`.
@_spi(FeedService) public protocol RelationshipService: Sendable {
    /// Who the account is (`GET /api/v1/accounts/:id`); an id made from a handle
    /// (``AccountID/init(handle:)``) is looked up first.
    func profile(of account: AccountID) async throws -> Profile

    /// How the signed-in user relates to each of `accounts` (`GET /api/v1/accounts/relationships`,
    /// one call for all of them), in any order; an account the server does not know is left out.
    func relationships(of accounts: [AccountID]) async throws -> [Relationship]

    /// Sets `kind` of the relationship with `account` to `value` and returns the relationship
    /// afterwards (`…/follow`, `…/unfollow`, `…/mute` with `mute`'s options, `…/unmute`,
    /// `…/block`, `…/unblock`; notify and boosts are a follow with `notify` / `reblogs`).
    func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship

    /// A page of `list`'s accounts, in the server's order (``PageCursor`` opaque: Mastodon pages
    /// these by `Link`).
    func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile>

    /// What `query` finds: accounts, then hashtags, then posts (Mastodon's `/api/v2/search`;
    /// a handle or a URL is resolved, so an account or post the server has not seen yet is
    /// found). `cursor` continues with more of each.
    func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult>

    /// Accepts (`accept`) or rejects the follow request of `account` and returns the
    /// relationship afterwards (`POST /api/v1/follow_requests/:id/authorize|reject`).
    func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship
}
