@_spi(FeedService) import Feedline
import Foundation

/// Account lists, search and follow requests:
///
/// - `GET /api/v1/accounts/:id/followers`, `…/following`, `…/endorsements` (Mastodon 4.4), `GET /api/v1/mutes`, `GET /api/v1/blocks`,
///   `GET /api/v1/follow_requests` and `GET /api/v1/statuses/:id/favourited_by`, `…/reblogged_by`,
///   paged as timelines are (``pageURL(path:fixedQuery:after:)``
///   and ``nextCursor(_:after:path:fixedQuery:)``): a cursor is the `rel="next"` link, which on
///   Mastodon names a follow, mute or block record by `max_id`, not an account.
/// - `GET /api/v2/search`, paged by `offset`.
/// - `POST /api/v1/follow_requests/:id/authorize|reject`.
///
/// An ``Feedline/AccountID`` made from a handle is found first, as everywhere
/// (``located(_:)``: the lookup, then a resolving search for a remote handle).
extension MastodonHTTPService {
    /// A page of `list`'s accounts, in the server's order: ``pageSize`` of them for a `nil`
    /// cursor, otherwise the page the cursor (a `rel="next"` link) names. The next cursor is the
    /// answer's `rel="next"` link; none, or an empty page, ends the list (Mastodon sends `next`
    /// after every full page, so a list whose size is a multiple of the page ends on an empty one).
    ///
    /// Followers and following of an account the server does not know are "There is no
    /// account … (asked server)"; its endorsements' 404 says that or that the server serves none
    /// (Mastodon before 4.4); those who favourited or boosted a post the server does not know
    /// (or does not show you) are its 404's sentence. Mutes, blocks and requests are the signed-in user's own: the
    /// server's 401 without a user (or with a token it no longer takes), and its 403 for a token
    /// without the scope to read them, both say to run `feedline login`.
    @_spi(FeedService) public func accounts(in list: AccountList, after cursor: PageCursor?) async throws -> Page<Profile> {
        let what = list.title
        let path: String
        var account: AccountID?
        switch list {
        case .followers(let id), .following(let id), .endorsed(let id):
            account = id
            let action =
                switch list {
                case .followers: "followers"
                case .endorsed: "endorsements"
                default: "following"
                }
            path = "/api/v1/accounts/" + URLPath.encode(try await located(id).rawValue) + "/" + action
        case .mutes: path = "/api/v1/mutes"
        case .blocks: path = "/api/v1/blocks"
        case .requests: path = "/api/v1/follow_requests"
        case .members(let id): path = "/api/v1/lists/" + URLPath.encode(id) + "/accounts"
        case .favouritedBy(let id): path = "/api/v1/statuses/" + URLPath.encode(id.rawValue) + "/favourited_by"
        case .boostedBy(let id): path = "/api/v1/statuses/" + URLPath.encode(id.rawValue) + "/reblogged_by"
        }
        let url = pageURL(path: path, after: cursor)
        let request = APIRequest(method: "GET", url: url, what: what)
        let response =
            if let account, case .endorsed = list {
                // A 404 says that the server knows no such account or serves no endorsements
                // (Mastodon before 4.4 has no `/api/v1/accounts/:id/endorsements`: the two cannot
                // be told apart from the answer).
                try await existing(
                    account,
                    notFound: "There is no \(Self.label(account, bare: true)), or \(server) does not serve the accounts one features (Mastodon 4.4 and later do)"
                ) { try await send(request) }
            } else if let account {
                try await existing(account) { try await send(request) }
            } else if !list.needsSignIn {
                try await send(request)
            } else {
                try await ownList { try await send(request) }
            }
        return try linkedPage(Mastodon.Account.self, from: response, url: url, path: path, what: what, Profile.init)
    }

    /// What `query` finds, as `GET /api/v2/search?q=…&limit=` ``pageSize`` answers it: the
    /// accounts, then the hashtags (with their week's use), then the posts.
    ///
    /// - A handle (`@user@host`, `user@host`) or an `http(s)` address is asked with
    ///   `resolve=true`, so the server fetches an account or post it has not seen — signed in
    ///   only: Mastodon refuses to resolve for a visitor (as ``find(_:)`` does). A handle on this
    ///   server's own address is sent as the local `@user` (``acct(_:)``). `#tag` and words are
    ///   sent as typed (trimmed).
    /// - Paging: Mastodon pages a search by `offset`, and only a search of one `type` (it ignores
    ///   `offset` without one). So the first page is one request for all three kinds, and each
    ///   later page asks `type=accounts|hashtags|statuses&offset=N` for each kind whose last page
    ///   was full, in that order. The cursor is that offset and those kinds (`20`, or
    ///   `40:accounts,statuses`); there is none when no kind came full. A visitor gets one page:
    ///   Mastodon answers `offset` without a signed-in user with 401.
    /// - An empty (or blank) query is refused before anything is sent, with a sentence.
    @_spi(FeedService) public func search(_ query: String, after cursor: PageCursor?) async throws -> Page<SearchResult> {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw MastodonHTTPError.unprocessable(
                serverMessage: "a search needs something to look for: a name, a @handle, a #hashtag, a web address or words of a post"
            )
        }
        let what = "the search for \"\(Self.shown(text))\""
        let (q, resolvable) = searchQuery(text)
        guard let cursor else {
            var fields = [URLQueryItem(name: "q", value: q), URLQueryItem(name: "limit", value: String(pageSize))]
            if resolvable, token != nil { fields.append(URLQueryItem(name: "resolve", value: "true")) }
            let found = try await searchPage(fields, what: what)
            return page(of: found, continuing: SearchCursor(offset: 0, kinds: SearchCursor.Kind.allCases))
        }
        guard let position = SearchCursor(cursor) else {
            throw MastodonHTTPError.unprocessable(serverMessage: "the search cannot go on from \"\(Self.shown(cursor.rawValue))\"")
        }
        var found = Mastodon.Search()
        for kind in position.kinds {
            let fields = [
                URLQueryItem(name: "q", value: q), URLQueryItem(name: "type", value: kind.rawValue),
                URLQueryItem(name: "offset", value: String(position.offset)), URLQueryItem(name: "limit", value: String(pageSize)),
            ]
            let answer = try await searchPage(fields, what: what)
            switch kind {
            case .accounts: found.accounts = answer.accounts
            case .hashtags: found.hashtags = answer.hashtags
            case .statuses: found.statuses = answer.statuses
            }
        }
        return page(of: found, continuing: position)
    }

    /// Accepts (`accept`) or rejects the follow request of `account`:
    /// `POST /api/v1/follow_requests/:id/authorize` or `…/reject`, answered with the relationship
    /// afterwards (accepted: `followed_by`; either way no `requested_by`). A 404 — no request of
    /// theirs waits, because they withdrew it or it was answered elsewhere — says so and to
    /// reload the requests; a 403 names `feedline login` (``writing(_:)``).
    @_spi(FeedService) public func answerFollowRequest(from account: AccountID, accept: Bool) async throws -> Relationship {
        let id = try await located(account)
        let action = accept ? "authorize" : "reject"
        let what = "\(accept ? "accepting" : "rejecting") the follow request of \(Self.label(account))"
        let url = server.url(path: "/api/v1/follow_requests/" + URLPath.encode(id.rawValue) + "/" + action)
        let response: APIResponse
        do {
            response = try await writing { try await send(APIRequest(method: "POST", url: url, what: what)) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(
                serverMessage: "No follow request from \(Self.label(account)) is waiting for your answer (asked \(server)): "
                    + "it was withdrawn or answered already. Reload your follow requests to see the ones still waiting."
            )
        }
        return Relationship(try decode(Mastodon.Relationship.self, from: response, what: what))
    }

    /// Runs a read of the user's own mutes, blocks, requests or domain blocks; a 403 — a
    /// sign-in without the scope to read them (Mastodon: "This action is outside the authorized
    /// scopes") — becomes the 401 sentence that names `feedline login`, which asks for `read` again.
    func ownList(_ body: () async throws -> APIResponse) async throws -> APIResponse {
        do {
            return try await body()
        } catch MastodonHTTPError.forbidden(let message) {
            throw MastodonHTTPError.unauthorized(serverMessage: message, sentToken: token != nil, server: server.loginArgument)
        }
    }

    /// A page of the user's own list at `path` (domain blocks, followed hashtags,
    /// conversations), read through ``ownList(_:)``: ``pageSize`` elements for a `nil` cursor,
    /// otherwise the page the cursor (a `rel="next"` link) names; see
    /// ``linkedPage(_:from:url:path:what:_:)`` for the elements and the next cursor.
    func ownPage<Entity: Decodable, Item>(
        _ entity: Entity.Type, path: String, after cursor: PageCursor?, what: String, _ transform: (Entity) -> Item
    ) async throws -> Page<Item> {
        let url = pageURL(path: path, after: cursor)
        let response = try await ownList { try await send(APIRequest(method: "GET", url: url, what: what)) }
        return try linkedPage(entity, from: response, url: url, path: path, what: what, transform)
    }

    /// The page `response` answers for `url`, a page of `path` paged by `rel="next"` links: its
    /// elements decoded leniently (``decodePage(_:from:what:limit:)``, at most ``pageSize``),
    /// each made an item by `transform`, and the next cursor — the answer's `rel="next"` link,
    /// none after an empty page.
    func linkedPage<Entity: Decodable, Item>(
        _ entity: Entity.Type, from response: APIResponse, url: URL, path: String, what: String, _ transform: (Entity) -> Item
    ) throws(MastodonHTTPError) -> Page<Item> {
        let page = try decodePage(entity, from: response, what: what, limit: pageSize)
        let items = page.items.map(transform)
        return Page(items: items, next: items.isEmpty ? nil : nextCursor(response, after: url, path: path), skipped: page.skipped)
    }

    // MARK: - Search

    /// The `q` to send for `text` (trimmed, not empty), and whether it names something the
    /// server may have to fetch: a handle `user@host` (sent as `@user@host`, or as `@user` when
    /// the host is this server's) or an `http(s)` address.
    func searchQuery(_ text: String) -> (q: String, resolvable: Bool) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            let isAddress = URL(string: text)?.host.map { !$0.isEmpty } ?? false
            return (text, isAddress && !text.contains(where: \.isWhitespace))
        }
        var name = Substring(text)
        while name.hasPrefix("@") { name.removeFirst() }
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0.isWhitespace || $0 == "/" }) }) else {
            return (text, false)
        }
        let acct = acct(String(name))
        return ("@" + acct, acct.contains("@"))
    }

    /// One `GET /api/v2/search` with `fields`.
    private func searchPage(_ fields: [URLQueryItem], what: String) async throws -> Mastodon.Search {
        let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v2/search", query: fields), what: what))
        return try decode(Mastodon.Search.self, from: response, what: what)
    }

    /// The results of `found` in order (accounts, hashtags, posts), and the cursor past them:
    /// the kinds of `position` that came full, one page further; `nil` when none did, or for a
    /// visitor.
    private func page(of found: Mastodon.Search, continuing position: SearchCursor) -> Page<SearchResult> {
        let results = found.accounts.map { SearchResult.account(Profile($0)) } + found.hashtags.map { SearchResult.hashtag(Hashtag($0)) }
            + found.statuses.map { SearchResult.post(Post($0)) }
        let counts: [SearchCursor.Kind: Int] = [.accounts: found.accounts.count, .hashtags: found.hashtags.count, .statuses: found.statuses.count]
        let full = position.kinds.filter { (counts[$0] ?? 0) >= pageSize }
        guard token != nil, !full.isEmpty else { return Page(items: results, next: nil) }
        return Page(items: results, next: SearchCursor(offset: position.offset + pageSize, kinds: full).cursor)
    }

    /// User input as a message shows it: one line, at most 60 characters.
    static func shown(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}

/// Where a search goes on: the `offset` of its next page and the kinds to ask it for, in the
/// order results show them. Written `20` when it is every kind, else `20:accounts,statuses`.
struct SearchCursor: Hashable, Sendable {
    /// A kind of search result, as Mastodon's `type` names it.
    enum Kind: String, CaseIterable, Sendable {
        case accounts, hashtags, statuses
    }

    var offset: Int
    /// Not empty, each kind once, in ``Kind/allCases`` order.
    var kinds: [Kind]

    init(offset: Int, kinds: [Kind]) {
        self.offset = offset
        self.kinds = kinds
    }

    /// Reads what ``cursor`` writes; `nil` for anything else.
    init?(_ cursor: PageCursor) {
        let parts = cursor.rawValue.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let offset = Int(first), offset >= 0 else { return nil }
        var kinds = Kind.allCases
        if parts.count == 2 {
            let named = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { Kind(rawValue: String($0)) }
            guard !named.isEmpty, named.allSatisfy({ $0 != nil }) else { return nil }
            kinds = Kind.allCases.filter { named.contains($0) }
        }
        self.init(offset: offset, kinds: kinds)
    }

    var cursor: PageCursor {
        kinds == Kind.allCases ? PageCursor(String(offset)) : PageCursor("\(offset):" + kinds.map(\.rawValue).joined(separator: ","))
    }
}
