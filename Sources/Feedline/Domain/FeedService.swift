/// Everything the view models ask of a server. Implementations: the offline sandbox and the
/// HTTP client in `FeedlineMastodon`, and test doubles.
///
/// Calls may run concurrently and must be safe to call from any task. A call that is cancelled
/// should stop early (throwing `CancellationError` is fine); its result is ignored. Errors should
/// conform to ``FeedServiceError`` (or at least `LocalizedError`) with a sentence a user can act
/// on: the view models show it as is (see ``FeedFailure``).
public protocol FeedService: Sendable {
    /// A page of `feed`, newest first: the newest posts when `cursor` is `nil`, otherwise the
    /// posts just below those of the page that returned `cursor`.
    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post>

    /// The newest posts of `feed` strictly newer than `lower` and, when `upper` is given, strictly
    /// older than `upper` (Mastodon's `since_id` + `max_id`), newest first, at most one page of
    /// them. `hasMore` says whether older posts of that range were left out.
    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post>

    /// A page of the signed-in user's notifications, grouped, newest first.
    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup>

    /// The newest notification groups with notifications strictly newer than `lower` and, when
    /// `upper` is given, strictly older than `upper` (both notification ids), at most one page.
    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup>

    /// One post by id (an entry or an original).
    func post(_ id: PostID) async throws -> Post

    /// The thread around a post.
    func context(of id: PostID) async throws -> PostContext

    /// Sets `kind` (favourite, boost, bookmark) of the post with this original id to `value` and
    /// returns the server's copy afterwards — for a boost possibly the new reblog wrapper, whose
    /// `reblog` is the original.
    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post

    /// The account a handle names: `user` on this server or `user@host` (a leading `@` is fine).
    func account(named handle: String) async throws -> Author

    /// Who is signed in, their posting defaults and the server's limits. (Default: throws
    /// ``WritingUnsupported``, as every write does for a service that only reads.)
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

    /// Who the account is (`GET /api/v1/accounts/:id`); an id made from a handle
    /// (``AccountID/init(handle:)``) is looked up first. (Default: throws ``AccountsUnsupported``.)
    func profile(of account: AccountID) async throws -> Profile

    /// How the signed-in user relates to each of `accounts` (`GET /api/v1/accounts/relationships`,
    /// one call for all of them), in any order; an account the server does not know is left out.
    func relationships(of accounts: [AccountID]) async throws -> [Relationship]

    /// Sets `kind` of the relationship with `account` to `value` and returns the relationship
    /// afterwards (`…/follow`, `…/unfollow`, `…/mute` with `mute`'s options, `…/unmute`,
    /// `…/block`, `…/unblock`; notify and boosts are a follow with `notify` / `reblogs`).
    func setRelationship(_ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions) async throws -> Relationship

    /// A page of `list`'s accounts, in the server's order (``PageCursor`` opaque: Mastodon pages
    /// these by `Link`). (Default: throws ``AccountsUnsupported``.)
    func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile>

    /// What `query` finds: accounts, then hashtags, then posts (Mastodon's `/api/v2/search`;
    /// a handle or a URL is resolved, so an account or post the server has not seen yet is
    /// found). `cursor` continues with more of each. (Default: throws ``AccountsUnsupported``.)
    func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult>

    /// Accepts (`accept`) or rejects the follow request of `account` and returns the
    /// relationship afterwards (`POST /api/v1/follow_requests/:id/authorize|reject`).
    /// (Default: throws ``AccountsUnsupported``.)
    func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship

    /// A page of the domains the signed-in user blocked (`GET /api/v1/domain_blocks`, paged by
    /// `Link`). (Default: throws ``AccountsUnsupported``.)
    func domainBlocks(after cursor: PageCursor?) async throws -> Page<String>

    /// Blocks (`true`) or unblocks `domain` for the signed-in user (`POST` / `DELETE
    /// /api/v1/domain_blocks` with `domain`). (Default: throws ``AccountsUnsupported``.)
    func setDomainBlock(_ domain: String, to value: Bool) async throws

    /// Follows (`true`) or unfollows the hashtag `name` (without `#`) and returns it afterwards
    /// (`POST /api/v1/tags/:name/follow|unfollow`). (Default: throws ``AccountsUnsupported``.)
    func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag

    /// The hashtag `name` (without `#`): its use over the last week and, signed in, whether you
    /// follow it (`GET /api/v1/tags/:name`): what a hashtag screen's header shows. (Default:
    /// throws ``AccountsUnsupported``.)
    func tag(named name: String) async throws -> Hashtag

    /// A page of the hashtags the signed-in user follows (`GET /api/v1/followed_tags`, paged by
    /// `Link`). (Default: throws ``AccountsUnsupported``.)
    func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag>

    /// A page of the hashtags trending on the server, most used first (`GET
    /// /api/v1/trends/tags`, paged by offset). (Default: throws ``AccountsUnsupported``.)
    func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag>

    /// A page of the signed-in user's direct conversations, most recently active first (`GET
    /// /api/v1/conversations`, paged by `Link`). (Default: throws ``AccountsUnsupported``.)
    func conversations(after cursor: PageCursor?) async throws -> Page<Conversation>

    /// Marks the conversation `id` read and returns it afterwards (`POST
    /// /api/v1/conversations/:id/read`). (Default: throws ``AccountsUnsupported``.)
    func markConversationRead(_ id: String) async throws -> Conversation

    /// Removes the conversation `id` from the user's conversations (`DELETE
    /// /api/v1/conversations/:id`; its posts stay). (Default: throws ``AccountsUnsupported``.)
    func removeConversation(_ id: String) async throws
    /// The signed-in user's lists, all of them, in the server's order (`GET /api/v1/lists`).
    /// (Default: throws ``AccountsUnsupported``.)
    func lists() async throws -> [UserList]

    /// Makes a list titled `title` and returns it (`POST /api/v1/lists`). (Default: throws
    /// ``AccountsUnsupported``.)
    func createList(title: String) async throws -> UserList

    /// Renames the list `id` and returns it afterwards (`PUT /api/v1/lists/:id`). (Default:
    /// throws ``AccountsUnsupported``.)
    func renameList(_ id: String, to title: String) async throws -> UserList

    /// Deletes the list `id` (`DELETE /api/v1/lists/:id`). (Default: throws ``AccountsUnsupported``.)
    func deleteList(_ id: String) async throws

    /// Adds (`true`) or removes `account` to or from the list `list` (`POST` / `DELETE
    /// /api/v1/lists/:id/accounts` with `account_ids[]`). A list's accounts are paged by
    /// ``accounts(in:after:)`` of ``AccountList/members(_:)``. (Default: throws ``AccountsUnsupported``.)
    func setListMembership(list: String, account: AccountID, to value: Bool) async throws
}
