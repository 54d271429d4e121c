import Feedline
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Feedline/FeedService`` over a real Mastodon-API server (Mastodon, GoToSocial, Pleroma,
/// Akkoma) with `URLSession`.
///
/// - **Pages** follow the server's `Link` header: a page's cursor is its `rel="next"` link (the
///   older page; only links to the server's own origin are followed, others fall back to their
///   `max_id`), and a page without one — or without posts — is the end of the timeline.
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
/// - **Time**: the request timeout is real time (URLSession's); the rate-limit wait sleeps on the
///   injected `clock`, and "now" comes from the injected ``Feedline/WallClock``.
///
/// Calls may run concurrently from any task; cancelling one cancels its request.
public final class MastodonHTTPService: FeedService, CustomStringConvertible {
    /// The page size when none is given: Mastodon's default.
    public static let defaultPageSize = 20
    /// The largest page Mastodon serves.
    public static let maximumPageSize = 40
    /// The request timeout when none is given.
    public static let defaultTimeout: Duration = .seconds(20)
    /// How near a rate limit's reset must be for a read to wait for it and retry, when not given.
    public static let defaultRateLimitWait: Duration = .seconds(10)

    /// The server.
    public let server: MastodonServer
    /// The timeline ``timelinePage(after:)`` and ``newerPosts(than:olderThan:)`` read.
    public let timeline: TimelineSource
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
    let session: URLSession

    /// A service reading `timeline` on `server`.
    ///
    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer …`; required for ``TimelineSource/home``.
    ///   - pageSize: posts per page, 1…40.
    ///   - timeout: how long each request may wait for an answer (real time).
    ///   - rateLimitWait: a read rate-limited with a reset at most this far away waits for it
    ///     (on `clock`) and is retried once; `.zero` never waits.
    ///   - clock: what rate-limit waits sleep on (a test clock in tests).
    ///   - wallClock: "now", to measure how far a rate limit's reset is.
    ///   - userAgent: the `User-Agent` header.
    /// - Throws: ``MastodonSetupError/tokenMissing(_:)`` for the home timeline without a token,
    ///   ``MastodonSetupError/invalidPageSize(_:)``.
    public init(
        server: MastodonServer,
        timeline: TimelineSource = .home,
        token: AccessToken?,
        pageSize: Int = MastodonHTTPService.defaultPageSize,
        timeout: Duration = MastodonHTTPService.defaultTimeout,
        rateLimitWait: Duration = MastodonHTTPService.defaultRateLimitWait,
        clock: any Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        userAgent: String = FeedlineVersion.userAgent
    ) throws(MastodonSetupError) {
        guard (1...Self.maximumPageSize).contains(pageSize) else { throw .invalidPageSize(pageSize) }
        if timeline.needsToken, token == nil { throw .tokenMissing(timeline) }
        self.server = server
        self.timeline = timeline
        self.token = token
        self.pageSize = pageSize
        self.timeout = timeout
        self.rateLimitWait = rateLimitWait
        self.clock = clock
        self.wallClock = wallClock
        self.userAgent = userAgent
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout.timeInterval
        configuration.timeoutIntervalForResource = max(timeout.timeInterval * 3, timeout.timeInterval + 30)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: SameOriginRedirects(server: server), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// `MastodonHTTPService(https://host, home, signed in)`: never the token.
    public var description: String {
        "MastodonHTTPService(\(server), \(timeline), \(token == nil ? "signed out" : "signed in"))"
    }

    // MARK: - FeedService

    /// A page of ``timeline``: the newest ``pageSize`` posts for a `nil` cursor, otherwise the
    /// page the cursor (a `rel="next"` link) names. The next cursor is the answer's `rel="next"`
    /// link; none (or an empty page) ends the timeline.
    public func timelinePage(after cursor: PageCursor?) async throws -> Page {
        let url = pageURL(after: cursor)
        let response = try await send(APIRequest(method: "GET", url: url, what: timeline.displayName, isTimeline: true))
        let posts = try decode([Mastodon.Status].self, from: response, what: timeline.displayName).map(Post.init)
        guard !posts.isEmpty, let link = response.links.next, let next = olderPageURL(link, relativeTo: url), next != url else {
            return Page(posts: posts, next: nil)
        }
        return Page(posts: posts, next: PageCursor(next.absoluteString))
    }

    /// The newest posts of ``timeline`` between `lower` and `upper` (`since_id` + `max_id`), at
    /// most ``pageSize``; `hasMore` when the server had more of the range.
    public func newerPosts(than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage {
        let limit = min(pageSize + 1, Self.maximumPageSize)
        var query = timeline.fixedQuery + [URLQueryItem(name: "since_id", value: lower.rawValue)]
        if let upper { query.append(URLQueryItem(name: "max_id", value: upper.rawValue)) }
        query.append(URLQueryItem(name: "limit", value: String(limit)))
        let response = try await send(
            APIRequest(method: "GET", url: server.url(path: timeline.path, query: query), what: timeline.displayName, isTimeline: true)
        )
        let statuses = try decode([Mastodon.Status].self, from: response, what: timeline.displayName)
            .filter { $0.id != lower.rawValue && $0.id != upper?.rawValue }
        let hasMore = statuses.count > pageSize || (statuses.count == limit && response.links.next != nil)
        return NewerPage(posts: statuses.prefix(pageSize).map(Post.init), hasMore: hasMore)
    }

    /// `GET /api/v1/statuses/:id`.
    public func post(_ id: PostID) async throws -> Post {
        let what = "post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id), what: what))
        return Post(try decode(Mastodon.Status.self, from: response, what: what))
    }

    /// `GET /api/v1/statuses/:id/context`.
    public func context(of id: PostID) async throws -> PostContext {
        let what = "the thread of post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id, "context"), what: what))
        let context = try decode(Mastodon.Context.self, from: response, what: what)
        return PostContext(ancestors: context.ancestors.map(Post.init), descendants: context.descendants.map(Post.init))
    }

    /// `POST /api/v1/statuses/:id/favourite` or `…/unfavourite`; returns the original.
    public func setFavourite(_ favourited: Bool, postID: PostID) async throws -> Post {
        let action = favourited ? "favourite" : "unfavourite"
        let what = "\(action) of post \(postID)"
        let response = try await send(APIRequest(method: "POST", url: statusURL(postID, action), what: what))
        var original = try decode(Mastodon.Status.self, from: response, what: what).original
        if original.favourited == nil { original.favourited = favourited }
        return Post(original)
    }

    /// `POST /api/v1/statuses/:id/reblog` or `…/unreblog`; returns the original (for a reblog,
    /// the `reblog` of the boost the server answers with).
    public func setReblog(_ reblogged: Bool, postID: PostID) async throws -> Post {
        let action = reblogged ? "reblog" : "unreblog"
        let what = "\(action) of post \(postID)"
        let response = try await send(APIRequest(method: "POST", url: statusURL(postID, action), what: what))
        let status = try decode(Mastodon.Status.self, from: response, what: what)
        var original = status.original
        if original.reblogged == nil { original.reblogged = status.reblogged ?? reblogged }
        return Post(original)
    }

    // MARK: - Addresses

    /// The first page, or the page a cursor names: a same-origin link as is, anything else as a `max_id`.
    private func pageURL(after cursor: PageCursor?) -> URL {
        var query = timeline.fixedQuery
        if let cursor {
            if let url = URL(string: cursor.rawValue), url.scheme != nil, server.isSameOrigin(url) { return url }
            query.append(URLQueryItem(name: "max_id", value: cursor.rawValue))
        }
        query.append(URLQueryItem(name: "limit", value: String(pageSize)))
        return server.url(path: timeline.path, query: query)
    }

    /// A `rel="next"` target resolved against the request; a link to another origin is replaced
    /// by this server's page for its `max_id` (`nil` without one).
    private func olderPageURL(_ target: String, relativeTo base: URL) -> URL? {
        guard let url = URL(string: target, relativeTo: base)?.absoluteURL else { return nil }
        if server.isSameOrigin(url) { return url }
        let maxID = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "max_id" }?.value
        return maxID.map { pageURL(after: PageCursor($0)) }
    }

    private func statusURL(_ id: PostID, _ action: String? = nil) -> URL {
        server.url(path: "/api/v1/statuses/" + URLPath.encode(id.rawValue) + (action.map { "/" + $0 } ?? ""))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
