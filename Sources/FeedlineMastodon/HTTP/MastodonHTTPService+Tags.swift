@_spi(FeedService) import Feedline
import Foundation

/// Hashtags and trends:
///
/// - `GET /api/v1/trends/statuses` (the pages of ``Feedline/Feed/trending``) and
///   `GET /api/v1/trends/tags`: ranked by the server, so paged by `offset` + `limit`, not by ids.
///   The cursor is the offset of the next page (opaque to callers: `20`). Mastodon sends a
///   `rel="next"` link (carrying `offset` too) only after a full page, so a page ends the list
///   when it comes back short or empty, or without that link. The limit sent is ``pageSize``,
///   at most Mastodon's largest page of each (40 posts, ``maximumTrendingTagsPage`` hashtags),
///   so "short" means the same to both sides. A server without trends (404) says so in a sentence.
/// - `GET /api/v1/followed_tags`, paged as the account lists are
///   (``pageURL(path:fixedQuery:after:)`` and ``nextCursor(_:after:path:fixedQuery:)``): the
///   cursor is the `rel="next"` link, whose `max_id` names a follow *record*, not a hashtag.
/// - `POST /api/v1/tags/:name/follow` and `…/unfollow`, each answered with the hashtag
///   afterwards (`following`).
/// - `GET /api/v1/accounts/:id/featured_tags`: the hashtags an account features, one answer.
///
/// Reading the trends needs no user. The followed tags and the changes do: a 401 (no token,
/// or one the server no longer takes) and a 403 (a sign-in without `read:follows` /
/// `write:follows`, which Feedline's `read` and `write:follows` cover) say to run `feedline login`.
extension MastodonHTTPService {
    /// The path of the trending posts (``Feedline/Feed/trending``).
    static let trendingPostsPath = "/api/v1/trends/statuses"
    /// The path of the trending hashtags.
    static let trendingTagsPath = "/api/v1/trends/tags"
    /// The path of the hashtags the user follows.
    static let followedTagsPath = "/api/v1/followed_tags"
    /// The most hashtags Mastodon serves in one page of its trends (posts: ``maximumPageSize``).
    static let maximumTrendingTagsPage = 20

    /// A page of the trending posts, most engaged first: ``pageSize`` of them from the offset the
    /// cursor names (0 without one). See the type for how the list ends.
    ///
    /// - Throws: ``MastodonHTTPError/unprocessable(serverMessage:)`` for a cursor this service did
    ///   not give; ``MastodonHTTPError/notFound(serverMessage:)`` with a sentence for a server
    ///   without trends; the errors of every read.
    func trendingPosts(after cursor: PageCursor?) async throws -> Page<Post> {
        let (statuses, next, skipped) = try await offsetPage(
            of: Mastodon.Status.self, path: Self.trendingPostsPath, limit: min(pageSize, Self.maximumPageSize), after: cursor,
            what: Feed.trending.title
        )
        return Page(posts: statuses.map(Post.init), next: next, skipped: skipped)
    }

    /// A page of the hashtags trending on the server, most used first, each with its week's use
    /// (``Feedline/Hashtag/init(_:)``) and, signed in, whether the user follows it: ``pageSize``
    /// of them (at most ``maximumTrendingTagsPage``) from the offset the cursor names. See the
    /// type for how the list ends.
    ///
    /// - Throws: as ``trendingPosts(after:)``.
    @_spi(FeedService) public func trendingTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        let (tags, next, skipped) = try await offsetPage(
            of: Mastodon.Hashtag.self, path: Self.trendingTagsPath, limit: min(pageSize, Self.maximumTrendingTagsPage), after: cursor,
            what: "the trending hashtags"
        )
        return Page(items: tags.map(Hashtag.init), next: next, skipped: skipped)
    }

    /// A page of the hashtags the user follows, in the server's order (Mastodon: the newest
    /// follow first): ``pageSize`` of them for a `nil` cursor, otherwise the page the cursor (a
    /// `rel="next"` link) names. The next cursor is the answer's `rel="next"` link; none, or an
    /// empty page, ends the list. A hashtag whose `following` the server left out is followed
    /// (it is on this list).
    @_spi(FeedService) public func followedTags(after cursor: PageCursor?) async throws -> Page<Hashtag> {
        try await ownPage(Mastodon.Hashtag.self, path: Self.followedTagsPath, after: cursor, what: "the hashtags you follow") { tag in
            var followed = Hashtag(tag)
            if followed.following == nil { followed.following = true }
            return followed
        }
    }

    /// The hashtag `name` (`GET /api/v1/tags/:name`, trimmed, without a leading `#`,
    /// percent-encoded): its use over the last week and, signed in, whether the user follows it.
    ///
    /// - Throws: ``MastodonHTTPError/unprocessable(serverMessage:)`` before anything is sent for
    ///   an empty name; ``MastodonHTTPError/notFound(serverMessage:)`` with a sentence for the 404
    ///   Mastodon answers a hashtag no post used; the errors of every read.
    public func tag(named name: String) async throws -> Hashtag {
        let tag = Self.tagName(name)
        guard !tag.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "there is no hashtag to look up") }
        let what = "the hashtag #\(tag)"
        let url = server.url(path: "/api/v1/tags/" + URLPath.encode(tag))
        do {
            let response = try await send(APIRequest(method: "GET", url: url, what: what))
            return Hashtag(try decode(Mastodon.Hashtag.self, from: response, what: what))
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: "No post on \(server) uses #\(tag) yet")
        }
    }

    /// The hashtags `account` features on its profile, in the server's order, each with how many
    /// of its posts use it and when it last did (``Feedline/Hashtag/init(featured:)``). Sent
    /// with the token when there is one; a visitor may read it.
    ///
    /// - Throws: ``MastodonHTTPError/notFound(serverMessage:)`` "There is no account … (asked
    ///   server)" for an account the server does not know; the errors of every read.
    @_spi(FeedService) public func featuredTags(of account: AccountID) async throws -> [Hashtag] {
        let what = "the hashtags \(Self.label(account)) features"
        let url = accountURL(try await located(account), "featured_tags")
        let response = try await existing(account) { try await send(APIRequest(method: "GET", url: url, what: what)) }
        return try decode([Mastodon.FeaturedTag].self, from: response, what: what).map(Hashtag.init(featured:))
    }

    /// Follows (`true`: `POST /api/v1/tags/:name/follow`) or unfollows (`false`: `…/unfollow`)
    /// the hashtag `name`, sent trimmed and without a leading `#`, percent-encoded (`café` is
    /// `caf%C3%A9`), and returns the server's hashtag afterwards (its `following` taken as
    /// `value` when the server leaves it out). Following a followed hashtag, or unfollowing one
    /// that is not, changes nothing and succeeds.
    ///
    /// - Throws: ``MastodonHTTPError/unprocessable(serverMessage:)`` before anything is sent for
    ///   an empty name, and for the server's 422 with its `error` text, or a sentence naming the
    ///   hashtag when it gave none; ``MastodonHTTPError/notFound(serverMessage:)`` for the 404
    ///   Mastodon answers a name that is no hashtag ("There is no hashtag #a-b to follow (asked
    ///   …): …"); ``MastodonHTTPError/unauthorized(serverMessage:sentToken:server:)`` (401) and
    ///   ``MastodonHTTPError/writeRefused(serverMessage:server:)`` (403), which name `feedline
    ///   login`; a rate limit, never waited out (a write is the core's to send again).
    public func setTagFollow(_ name: String, to value: Bool) async throws -> Hashtag {
        let tag = Self.tagName(name)
        let action = value ? "follow" : "unfollow"
        guard !tag.isEmpty else {
            throw MastodonHTTPError.unprocessable(serverMessage: "there is no hashtag to \(action)")
        }
        let what = "the \(action) of #\(tag)"
        let url = server.url(path: "/api/v1/tags/" + URLPath.encode(tag) + "/" + action)
        let response: APIResponse
        do {
            response = try await writing { try await send(APIRequest(method: "POST", url: url, what: what)) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(
                serverMessage: "There is no hashtag #\(tag) to \(action) (asked \(server)): a hashtag has only letters, digits and underscores"
            )
        } catch MastodonHTTPError.unprocessable(let message) {
            throw MastodonHTTPError.unprocessable(serverMessage: message ?? "#\(tag) is not a hashtag it lets you \(action)")
        }
        var hashtag = Hashtag(try decode(Mastodon.Hashtag.self, from: response, what: what))
        if hashtag.following == nil { hashtag.following = value }
        return hashtag
    }

    /// `name` as it is sent: trimmed, without leading `#`.
    static func tagName(_ name: String) -> String {
        var tag = Substring(name.trimmingCharacters(in: .whitespacesAndNewlines))
        while tag.hasPrefix("#") { tag = tag.dropFirst() }
        return String(tag)
    }

    // MARK: - Paging by offset

    /// One page of `path` at the offset `cursor` names: `GET path?offset=N&limit=` `limit`
    /// (`offset` left out for the first page). The next cursor is the next offset, when the page
    /// came full and with a `rel="next"` link; `nil` otherwise.
    private func offsetPage<Item: Decodable>(
        of type: Item.Type, path: String, limit: Int, after cursor: PageCursor?, what: String
    ) async throws -> (items: [Item], next: PageCursor?, skipped: Int) {
        let offset = try Self.offset(of: cursor, what: what)
        var query: [URLQueryItem] = []
        if offset > 0 { query.append(URLQueryItem(name: "offset", value: String(offset))) }
        query.append(URLQueryItem(name: "limit", value: String(limit)))
        let response: APIResponse
        do {
            response = try await send(APIRequest(method: "GET", url: server.url(path: path, query: query), what: what))
        } catch MastodonHTTPError.notFound {
            // Mastodon answers an empty list when its trends are turned off; a 404 is a server
            // that has none (GoToSocial, Mastodon before 3.5's trending posts).
            throw MastodonHTTPError.notFound(serverMessage: "The server does not show \(what) (asked \(server))")
        }
        let page = try decodePage(Item.self, from: response, what: what, limit: limit)
        // The offset moves past what the server sent, read or not.
        let goesOn = !page.items.isEmpty && page.sent >= limit && response.links.next != nil
        return (page.items, goesOn ? PageCursor(String(offset + page.sent)) : nil, page.skipped)
    }

    /// The offset a cursor of an offset-paged list names: 0 without one.
    ///
    /// - Throws: ``MastodonHTTPError/unprocessable(serverMessage:)`` for anything but the digits
    ///   of an offset (a cursor this service did not give).
    private static func offset(of cursor: PageCursor?, what: String) throws(MastodonHTTPError) -> Int {
        guard let cursor else { return 0 }
        let digits = cursor.rawValue
        guard !digits.isEmpty, digits.count < 10, digits.allSatisfy({ ("0"..."9").contains($0) }), let offset = Int(digits) else {
            let shown = digits.count > 60 ? String(digits.prefix(60)) + "…" : digits
            throw .unprocessable(serverMessage: "\(what) cannot go on from \"\(shown)\"")
        }
        return offset
    }
}
