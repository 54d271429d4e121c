@_spi(FeedService) import Feedline
import Foundation

/// A ``Feedline/FeedService`` over a real Mastodon-API server (Mastodon, GoToSocial, Pleroma,
/// Akkoma), over AsyncHTTPClient (see `HTTPTransport`).
///
/// - **Pages** follow the server's `Link` header: a page's cursor is its `rel="next"` link (the
///   older page; only links to the server's own origin are followed, others fall back to their
///   `max_id`), and a page without one — or without posts — is the end of the timeline. The
///   trending posts, ranked rather than ordered by id, are paged by `offset` (see
///   `MastodonHTTPService+Tags.swift`).
/// - **Newer posts** (refresh and gap filling) ask for `since_id` (and `max_id` for a gap), not
///   `min_id`: the core wants the *newest* posts of the range with a gap left below them, which
///   is what `since_id` returns (`min_id` returns the oldest ones, just above the bound). The
///   request asks for one post more than ``pageSize``, so `hasMore` is exact: it is `true` when
///   the extra post came.
/// - **Interactions** `POST /api/v1/statuses/:id/favourite|unfavourite|reblog|unreblog` and return
///   the original: `reblog` answers with the user's new boost, whose `reblog` is taken.
/// - **Auth**: `Authorization: Bearer` with the ``AccessToken``, sent only to the server's origin;
///   redirects to other origins are not followed.
/// - **Errors** are ``MastodonHTTPError``s with a sentence for the user. A 429 on a read whose
///   limit resets within ``rateLimitWait`` is waited out on the injected clock and retried once.
/// - **Time**: the request timeout is real time (the transport's); the rate-limit wait sleeps on
///   the injected `clock`, and "now" comes from the injected ``Feedline/WallClock``.
///
/// Calls may run concurrently from any task; cancelling one cancels its request.
public final class MastodonHTTPService: FeedServer, CustomStringConvertible {
    /// The page size when none is given: Mastodon's default.
    public static let defaultPageSize = 20
    /// The largest page Mastodon serves.
    public static let maximumPageSize = 40
    /// The request timeout when none is given.
    public static let defaultTimeout: Duration = .seconds(20)
    /// How near a rate limit's reset must be for a read to wait for it and retry, when not given.
    public static let defaultRateLimitWait: Duration = .seconds(10)
    /// The largest answer read (8 MiB, some hundred times a full page of 40 posts): a larger one
    /// is refused with ``MastodonHTTPError/answerTooLarge(limitBytes:)`` before it is held in
    /// memory. Sign-in answers have the same bound.
    public static let maximumAnswerSize = 8 << 20

    /// The server.
    public let server: MastodonServer
    /// Posts per page, 1…40.
    public let pageSize: Int
    /// How long a request may wait for an answer.
    public let timeout: Duration
    /// The longest rate-limit wait a read sits out before retrying once.
    public let rateLimitWait: Duration
    /// The `User-Agent` sent.
    public let userAgent: String
    let token: AccessToken?
    let clock: any Clock<Duration>
    let wallClock: WallClock
    let transport: any HTTPTransport
    /// Whether the server serves grouped notifications (`nil` until asked).
    let groupedNotifications = Locked<Bool?>(nil)
    /// Whether the server translates posts (`nil` until its description was read).
    let translationOffered = Locked<Bool?>(nil)
    /// The ids of the plain notifications each group made on the client holds (`/api/v1`): what
    /// dismissing the group dismisses.
    let plainGroupMembers = Locked<[String: [String]]>([:])
    /// Account ids looked up by handle (lowercased, without `@`).
    let accountIDs = Locked<[String: AccountID]>([:])
    /// Lookups on their way, by `acct`: a profile's header and its posts open together ask once.
    let lookups = Locked<[String: Task<Mastodon.Account, any Error>]>([:])

    /// A service for `server`.
    ///
    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer …`; the home timeline, bookmarks, favourites,
    ///     lists, notifications and every interaction need one.
    ///   - pageSize: posts per page, 1…40.
    ///   - timeout: how long each request may wait for an answer (real time).
    ///   - rateLimitWait: a read rate-limited with a reset at most this far away waits for it
    ///     (on `clock`) and is retried once; `.zero` never waits.
    ///   - clock: what rate-limit waits sleep on (a test clock in tests).
    ///   - wallClock: "now", to measure how far a rate limit's reset is.
    ///   - userAgent: the `User-Agent` header.
    /// - Throws: ``MastodonSetupError/invalidPageSize(_:)``; ``MastodonSetupError/insecureServer(_:)``
    ///   for a plain `http://` server that is not on this machine (``MastodonServer/isLoopback``).
    public convenience init(
        server: MastodonServer,
        token: AccessToken?,
        pageSize: Int = MastodonHTTPService.defaultPageSize,
        timeout: Duration = MastodonHTTPService.defaultTimeout,
        rateLimitWait: Duration = MastodonHTTPService.defaultRateLimitWait,
        clock: any Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        userAgent: String = FeedlineVersion.userAgent
    ) throws(MastodonSetupError) {
        try self.init(
            server: server, token: token, pageSize: pageSize, timeout: timeout, rateLimitWait: rateLimitWait,
            clock: clock, wallClock: wallClock, userAgent: userAgent, transport: platformDefaultTransport()
        )
    }

    /// A service for `server` whose exchanges go through `transport` (see the public initializer
    /// for the rest).
    // Not inlined: Swift 6.3's optimizer crashes (CopyPropagation, "Found ownership error") on
    // ServiceChoice.makeService with this initializer inlined into it.
    @inline(never)
    package init(
        server: MastodonServer,
        token: AccessToken?,
        pageSize: Int,
        timeout: Duration,
        rateLimitWait: Duration,
        clock: any Clock<Duration>,
        wallClock: WallClock,
        userAgent: String,
        transport: any HTTPTransport
    ) throws(MastodonSetupError) {
        guard (1...Self.maximumPageSize).contains(pageSize) else { throw .invalidPageSize(pageSize) }
        // Every way to a service comes here (--server, a stored account, the config file, with a
        // token from anywhere), so this is where plain http:// elsewhere is refused, before any
        // request exists.
        guard server.allowsRequests else { throw .insecureServer(server.description) }
        self.server = server
        self.token = token
        self.pageSize = pageSize
        self.timeout = timeout
        self.rateLimitWait = rateLimitWait
        self.clock = clock
        self.wallClock = wallClock
        self.userAgent = userAgent
        self.transport = transport
    }

    /// How long one API exchange may go on, and how much it may bring: ``timeout`` without a
    /// byte arriving, three times that (at least 30 s more) in all, so a server that trickles
    /// cannot hold a request, and ``maximumAnswerSize`` bytes.
    var requestLimits: HTTPTransferLimits {
        HTTPTransferLimits(idle: timeout, total: max(timeout * 3, timeout + .seconds(30)), maximumBody: Self.maximumAnswerSize)
    }

    /// `MastodonHTTPService(https://host, signed in)`: never the token.
    public var description: String {
        "MastodonHTTPService(\(server), \(token == nil ? "signed out" : "signed in"))"
    }

    // MARK: - FeedService

    /// A page of `feed`: the newest ``pageSize`` posts for a `nil` cursor, otherwise the page the
    /// cursor (a `rel="next"` link) names. The next cursor is the answer's `rel="next"` link;
    /// none (or an empty page) ends the feed. The trending posts are paged by offset instead
    /// (``trendingPosts(after:)``).
    @_spi(FeedService) public func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        if feed.isPagedByOffset { return try await trendingPosts(after: cursor) }
        let feed = try await resolved(feed)
        // A profile's first page: its pinned posts on top, as Mastodon's profiles show them, and
        // each once (the newest posts without them); asked for beside the page.
        var profile: AccountID?
        if cursor == nil, case .account(let id) = feed { profile = id }
        async let pinnedPage = pinnedPosts(of: profile, what: feed.title)
        let url = pageURL(of: feed, after: cursor)
        let response = try await send(APIRequest(method: "GET", url: url, what: feed.title, feed: feed))
        let page = try decodePage(Mastodon.Status.self, from: response, what: feed.title, limit: pageSize)
        let posts = page.items.map(Post.init)
        let next = posts.isEmpty ? nil : nextCursor(response, after: url, of: feed)
        guard let pinned = try await pinnedPage else { return Page(posts: posts, next: next, skipped: page.skipped) }
        let ids = Set(pinned.items.map(\.id))
        return Page(
            posts: pinned.items + posts.filter { !ids.contains($0.id) }, next: next, skipped: page.skipped + pinned.skipped, onTop: pinned.items.count
        )
    }

    /// `GET /api/v1/accounts/:id/statuses?pinned=true`: the account's pinned posts, in the
    /// server's order (at most ``maximumPageSize``; Mastodon lets an account pin five); `nil`
    /// without an account (nothing asked).
    private func pinnedPosts(of id: AccountID?, what: String) async throws -> Page<Post>? {
        guard let id else { return nil }
        let query = [URLQueryItem(name: "pinned", value: "true"), URLQueryItem(name: "limit", value: String(Self.maximumPageSize))]
        let url = server.url(path: Feed.account(id).path, query: query)
        let response = try await send(APIRequest(method: "GET", url: url, what: what, feed: .account(id)))
        let page = try decodePage(Mastodon.Status.self, from: response, what: what, limit: Self.maximumPageSize)
        return Page(posts: page.items.map(Post.init), next: nil, skipped: page.skipped)
    }

    /// The newest posts of `feed` between `lower` and `upper` (`since_id` + `max_id`), at most
    /// ``pageSize``; `hasMore` when the server had more of the range.
    ///
    /// The trending posts are ranked, not ordered by id, so nothing is "newer" there: that is an
    /// empty answer without a request (a front reloads the list instead; the core never asks).
    @_spi(FeedService) public func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        if feed.isPagedByOffset { return NewerPage(posts: [], hasMore: false) }
        let feed = try await resolved(feed)
        let limit = min(pageSize + 1, Self.maximumPageSize)
        var query = feed.fixedQuery + [URLQueryItem(name: "since_id", value: lower.rawValue)]
        if let upper { query.append(URLQueryItem(name: "max_id", value: upper.rawValue)) }
        query.append(URLQueryItem(name: "limit", value: String(limit)))
        let response = try await send(
            APIRequest(method: "GET", url: server.url(path: feed.path, query: query), what: feed.title, feed: feed)
        )
        let page = try decodePage(Mastodon.Status.self, from: response, what: feed.title, limit: Self.maximumPageSize)
        let statuses = page.items.filter { $0.id != lower.rawValue && $0.id != upper?.rawValue }
        // What the server sent counts against `limit`, read or not.
        let sent = statuses.count + page.skipped
        let hasMore = sent > pageSize || (sent == limit && response.links.next != nil)
        return NewerPage(posts: statuses.prefix(pageSize).map(Post.init), hasMore: hasMore, skipped: page.skipped)
    }

    /// `GET /api/v1/statuses/:id`.
    public func post(_ id: PostID) async throws -> Post {
        let what = "post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id), what: what))
        return Post(try decode(Mastodon.Status.self, from: response, what: what))
    }

    /// `GET /api/v1/statuses/:id/context`.
    @_spi(FeedService) public func context(of id: PostID) async throws -> PostContext {
        let what = "the thread of post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id, "context"), what: what))
        let context = try decode(Mastodon.Context.self, from: response, what: what)
        return PostContext(ancestors: context.ancestors.map(Post.init), descendants: context.descendants.map(Post.init))
    }

    /// `POST /api/v1/statuses/:id/favourite|unfavourite|reblog|unreblog|bookmark|unbookmark|pin|unpin|mute|unmute`;
    /// returns the original (for a reblog, the `reblog` of the boost the server answers with).
    public func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        let action = switch kind {
        case .favourite: value ? "favourite" : "unfavourite"
        case .reblog: value ? "reblog" : "unreblog"
        case .bookmark: value ? "bookmark" : "unbookmark"
        case .pin: value ? "pin" : "unpin"
        case .muteThread: value ? "mute" : "unmute"
        }
        let what = "\(action) of post \(postID)"
        let response = try await send(APIRequest(method: "POST", url: statusURL(postID, action), what: what))
        let status = try decode(Mastodon.Status.self, from: response, what: what)
        var original = status.original
        switch kind {
        case .favourite: if original.favourited == nil { original.favourited = value }
        case .reblog: if original.reblogged == nil { original.reblogged = status.reblogged ?? value }
        case .bookmark: if original.bookmarked == nil { original.bookmarked = value }
        case .pin: if original.pinned == nil { original.pinned = value }
        case .muteThread: if original.muted == nil { original.muted = value }
        }
        return Post(original)
    }

    /// `feed`, with an account named by handle looked up (once per handle; see
    /// ``Feedline/AccountID/init(handle:)``).
    private func resolved(_ feed: Feed) async throws -> Feed {
        guard case .account(let id) = feed, let handle = id.handle else { return feed }
        if let known = knownAccountID(handle) { return .account(known) }
        let found = AccountID(try await find(handle).id)
        remember(found, for: handle)
        return .account(found)
    }

    /// The id looked up before for `handle` (without `@`), if any.
    func knownAccountID(_ handle: String) -> AccountID? {
        accountIDs.withLock { $0[handle.lowercased()] }
    }

    /// Keeps `id` as the account `handle` (without `@`) names.
    func remember(_ id: AccountID, for handle: String) {
        accountIDs.withLock { $0[handle.lowercased()] = id }
    }

    /// `GET /api/v1/accounts/lookup?acct=`: the account a handle names (`user` on this server,
    /// `user@host`; a leading `@` is dropped). A handle on this server's own address
    /// (``MastodonServer/authority``, with its port: `grace@127.0.0.1:38111`, as Feedline names
    /// the signed-in account) is looked up as the local `user`.
    public func account(named handle: String) async throws -> Author {
        Author(try await lookUp(handle))
    }

    /// `handle` as Mastodon's `acct` names it: without leading `@`, and without this server's
    /// own address (``MastodonServer/authority``) for a local account.
    func acct(_ handle: String) -> String {
        var acct = handle.trimmingCharacters(in: .whitespaces)
        while acct.hasPrefix("@") { acct.removeFirst() }
        let parts = acct.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, parts[1].lowercased() == server.authority { acct = String(parts[0]) }
        return acct
    }

    /// What ``account(named:)`` asks: the whole account; a 404 names the handle. Callers asking
    /// for the same handle while a lookup runs share it.
    func lookUp(_ handle: String) async throws -> Mastodon.Account {
        let key = acct(handle).lowercased()
        let task = lookups.withLock { running in
            if let task = running[key] { return task }
            let task = Task { try await self.lookUpOnce(handle) }
            running[key] = task
            return task
        }
        defer { lookups.withLock { running in if running[key] == task { running[key] = nil } } }
        return try await task.value
    }

    private func lookUpOnce(_ handle: String) async throws -> Mastodon.Account {
        let acct = self.acct(handle)
        let what = "the account @\(acct)"
        let url = server.url(path: "/api/v1/accounts/lookup", query: [URLQueryItem(name: "acct", value: acct)])
        do {
            let response = try await send(APIRequest(method: "GET", url: url, what: what))
            return try decode(Mastodon.Account.self, from: response, what: what)
        } catch MastodonHTTPError.notFound {
            // Mastodon's "Record not found." does not say which record.
            throw MastodonHTTPError.notFound(serverMessage: "There is no account @\(acct) (asked \(server))")
        }
    }

    // MARK: - Addresses

    /// The first page, or the page a cursor names: a same-origin link as is, anything else as a `max_id`.
    func pageURL(path: String, fixedQuery: [URLQueryItem] = [], after cursor: PageCursor?) -> URL {
        var query = fixedQuery
        if let cursor {
            if let url = URL(string: cursor.rawValue), url.scheme != nil, server.isSameOrigin(url) { return url }
            query.append(URLQueryItem(name: "max_id", value: cursor.rawValue))
        }
        query.append(URLQueryItem(name: "limit", value: String(pageSize)))
        return server.url(path: path, query: query)
    }

    private func pageURL(of feed: Feed, after cursor: PageCursor?) -> URL {
        pageURL(path: feed.path, fixedQuery: feed.fixedQuery, after: cursor)
    }

    /// The cursor of the page after the one `response` answered for `url`: its `rel="next"` link
    /// (a link to another origin is replaced by this server's page for its `max_id`), or `nil`.
    func nextCursor(_ response: APIResponse, after url: URL, path: String, fixedQuery: [URLQueryItem] = []) -> PageCursor? {
        guard let link = response.links.next, let target = URL(string: link, relativeTo: url)?.absoluteURL else { return nil }
        let next: URL?
        if server.isSameOrigin(target) {
            next = target
        } else {
            let maxID = URLComponents(url: target, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "max_id" }?.value
            next = maxID.map { pageURL(path: path, fixedQuery: fixedQuery, after: PageCursor($0)) }
        }
        guard let next, next != url else { return nil }
        return PageCursor(next.absoluteString)
    }

    private func nextCursor(_ response: APIResponse, after url: URL, of feed: Feed) -> PageCursor? {
        nextCursor(response, after: url, path: feed.path, fixedQuery: feed.fixedQuery)
    }

    func statusURL(_ id: PostID, _ action: String? = nil) -> URL {
        server.url(path: "/api/v1/statuses/" + URLPath.encode(id.rawValue) + (action.map { "/" + $0 } ?? ""))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The server answers every call a session makes (the service protocols are SPI).
@_spi(FeedService) extension MastodonHTTPService: FeedService {}
