import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Hashtags and trends, with Mastodon's rules:
///
/// - `GET /api/v1/trends/statuses`: the public posts the server knows (no boosts), most engaged
///   first (favourites + boosts, as the server counts them now), then newest; paged by
///   `offset` and `limit` (20 by default, at most 40). `Link` has `next` (`offset` + `limit`,
///   the other parameters kept) only when the page is full, and `prev` when `offset` is not 0,
///   as Mastodon's trends controllers write them. No user needed.
/// - `GET /api/v1/trends/tags`: the hashtags the test made trend (``trend(_:)``), in that order,
///   with their history, paged the same way (10 by default, at most 20); `following` only for
///   a signed-in request.
/// - `GET /api/v1/followed_tags`: the hashtags the user follows, newest follow first, paged by the
///   id of the follow *record*, which the hashtags do not carry: `max_id`, `since_id`, `min_id`
///   name records and only `Link` tells them (`next` when the page is full, `prev` when it is not
///   empty). `limit` is 100 by default, at most 200. Needs a user (401).
/// - `POST /api/v1/tags/:name/follow|unfollow`: `:name` must be a hashtag name (letters, digits,
///   underscores, not only digits; else 404 `Record not found`, as Mastodon's route check
///   answers); following adds a record on top (none when there is one), unfollowing removes it;
///   both answer the hashtag with `following`. Names compare without case; a hashtag keeps the
///   spelling it was first known by (a trend's, a status's tag, else the first follow's).
///
/// Which hashtags the user follows, and in what order, is the model's (``ServerModel/tags``,
/// whose laws they follow); the fake keeps each follow's record id, which Mastodon pages by,
/// and the trends.
extension FakeMastodon {
    /// What the server keeps for these endpoints besides the model (``FakeMastodon/State/tags``).
    struct TagsState: Sendable {
        /// A follow of a hashtag: its record id and the hashtag's name.
        struct Record: Sendable, Hashable {
            var id: UInt64
            var name: String
        }

        /// The record id of each followed hashtag's follow, by lower-cased name; the follows
        /// themselves are the model's.
        var recordIDs: [String: UInt64] = [:]
        /// The next record id: a sequence of its own.
        var nextRecord: UInt64 = 920_000
        /// The trending hashtags, in the server's order, with their history.
        var trending: [Mastodon.Hashtag] = []
        /// The hashtags each account features (`GET /api/v1/accounts/:id/featured_tags`), by
        /// account id; none for an account not named.
        var featured: [String: [Mastodon.FeaturedTag]] = [:]
    }

    // MARK: - Test controls

    /// Makes `tags` the trending hashtags, in this order.
    func trend(_ tags: [Mastodon.Hashtag]) {
        state.withLock { $0.tags.trending = tags }
    }

    /// Follows `names`, in this order from the newest record, above those already followed.
    func followTags(_ names: [String]) {
        state.withLock { state in
            for name in names.reversed() { state.followTag(name) }
        }
    }

    /// The names of the hashtags the user follows now, newest follow first.
    var followedTagNames: [String] {
        state.withLock { $0.tagRecords.map(\.name) }
    }

    /// The record ids of the follows now, newest first (what `max_id` names).
    var followedTagRecordIDs: [UInt64] {
        state.withLock { $0.tagRecords.map(\.id) }
    }

    /// The ids of the trending posts now, in the server's order.
    var trendingStatusIDs: [String] {
        state.withLock { Self.trendingStatuses($0).map(\.id) }
    }

    // MARK: - Serving

    /// The answer for a request of these endpoints, `nil` for any other. Called with requests
    /// whose token the server accepted: here a request is signed in when it carries one.
    func tagsRoute(_ request: Recorded) -> HTTPResponse? {
        let signedIn = request.authorization != nil
        switch (request.method, request.path) {
        case ("GET", "/api/v1/trends/statuses"):
            let statuses = state.withLock { state in Self.trendingStatuses(state).map { state.rendered($0) } }
            return offsetPage(request, of: statuses, default: 20, maximum: 40)
        case ("GET", "/api/v1/trends/tags"):
            let tags = state.withLock { state in
                state.tags.trending.map { tag in
                    var shown = tag
                    shown.following = signedIn ? state.server.tags.isFollowed(tag.name) : nil
                    return shown
                }
            }
            return offsetPage(request, of: tags, default: 10, maximum: 20)
        case ("GET", "/api/v1/followed_tags"):
            guard signedIn else { return Self.error(401, "This API requires an authenticated user") }
            let limit = Self.limit(request, default: 100, maximum: 200)
            let (page, tags) = state.withLock { state in
                let page = Self.window(state.tagRecords, id: \.id, request, limit: limit)
                return (page, page.map { record in self.hashtag(record.name, following: true, in: state) })
            }
            let links = link(request, next: page.count == limit ? page.last.map { String($0.id) } : nil, previous: page.first.map { String($0.id) })
            return Self.json(tags, headers: links)
        default:
            let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if request.method == "GET", parts.count == 5, parts[0].isEmpty, parts[1...3] == ["api", "v1", "tags"] {
                let name = parts[4].removingPercentEncoding ?? parts[4]
                guard Self.isHashtagName(name) else { return Self.error(404, "Record not found") }
                return state.withLock { state in
                    let spelled = Self.spelling(of: name, in: state)
                    var tag = hashtag(spelled, following: state.server.tags.isFollowed(name), in: state)
                    if !signedIn { tag.following = nil }
                    return Self.json(tag)
                }
            }
            guard request.method == "POST", parts.count == 6, parts[0].isEmpty, parts[1...3] == ["api", "v1", "tags"] else { return nil }
            guard parts[5] == "follow" || parts[5] == "unfollow" else { return unexpected(request) }
            return followTag(parts[4], follow: parts[5] == "follow")
        }
    }

    /// The public posts (no boosts) most engaged first, then newest.
    private static func trendingStatuses(_ state: State) -> [Mastodon.Status] {
        let posts = state.known.enumerated().compactMap { index, status -> (index: Int, status: Mastodon.Status)? in
            guard status.reblog == nil, status.visibility == .public else { return nil }
            return (index, state.rendered(status))
        }
        return posts.sorted { lhs, rhs in
            let left = lhs.status.favouritesCount + lhs.status.reblogsCount
            let right = rhs.status.favouritesCount + rhs.status.reblogsCount
            return left != right ? left > right : lhs.index < rhs.index
        }.map(\.status)
    }

    /// A page of `items` at the request's `offset`, with Mastodon's trend `Link`s.
    private func offsetPage<Item: Encodable>(_ request: Recorded, of items: [Item], default fallback: Int, maximum: Int) -> HTTPResponse {
        let limit = Self.limit(request, default: fallback, maximum: maximum)
        let offset = max(0, request.query["offset"].flatMap { Int($0) } ?? 0)
        let page = offset < items.count ? Array(items[offset..<min(items.count, offset + limit)]) : []
        let keep = request.query.filter { $0.key != "offset" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let base = baseURL + request.path
        var links: [String] = []
        if page.count == limit { links.append("<\(base)?\((keep + ["offset=\(offset + limit)"]).joined(separator: "&"))>; rel=\"next\"") }
        if offset > 0 { links.append("<\(base)?\((keep + ["offset=\(max(0, offset - limit))"]).joined(separator: "&"))>; rel=\"prev\"") }
        return Self.json(page, headers: links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")])
    }

    private func followTag(_ name: String, follow: Bool) -> HTTPResponse {
        guard Self.isHashtagName(name) else { return Self.error(404, "Record not found") }
        return state.withLock { state in
            let spelled = Self.spelling(of: name, in: state)
            if follow {
                state.followTag(spelled)
            } else {
                _ = try? state.server.tags.set(name, to: false)
                state.tags.recordIDs[name.lowercased()] = nil
            }
            return Self.json(hashtag(spelled, following: follow, in: state))
        }
    }

    /// The hashtag `name` as the server answers it: its page, its history when it trends.
    private func hashtag(_ name: String, following: Bool, in state: State) -> Mastodon.Hashtag {
        let history = state.tags.trending.first { $0.name.lowercased() == name.lowercased() }?.history
        return Mastodon.Hashtag(name: name, url: baseURL + "/tags/" + name.lowercased(), history: history, following: following)
    }

    /// How the server spells the hashtag `name`: as a trend, a status's tag or a follow spells
    /// it, else as given.
    private static func spelling(of name: String, in state: State) -> String {
        let key = name.lowercased()
        let known = state.tags.trending.map(\.name) + state.known.flatMap { $0.tags.map(\.name) } + state.server.tags.followed
        return known.first { $0.lowercased() == key } ?? name
    }

    /// Mastodon's hashtag names, simplified: letters, digits and underscores, not only digits.
    private static func isHashtagName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !name.allSatisfy(\.isNumber)
    }
}

extension FakeMastodon.State {
    /// The model's follows, newest first, each with its record id.
    var tagRecords: [FakeMastodon.TagsState.Record] {
        server.tags.followed.map { FakeMastodon.TagsState.Record(id: tags.recordIDs[$0.lowercased()] ?? 0, name: $0) }
    }

    /// Follows the hashtag `name` in the model (once), the follow taking the next record id.
    mutating func followTag(_ name: String) {
        guard !server.tags.isFollowed(name), (try? server.tags.set(name, to: true)) != nil else { return }
        tags.recordIDs[name.lowercased()] = tags.nextRecord
        tags.nextRecord += 1
    }
}
