import Feedline
import FeedlineMastodon
import FlyingFox
import Foundation

extension FakeMastodon {
    /// A timeline page with Mastodon's rules: `max_id` older than, `since_id` newest newer than,
    /// `min_id` oldest newer than, `limit` 1…40 (20 by default); newest first. `Link` carries
    /// `next` (older, `max_id`) when the page is full and `prev` (newer, `min_id`) when not empty,
    /// both with the request's other parameters (`local`, `limit` …), as Mastodon's do.
    func timelinePage(_ request: Recorded) -> HTTPResponse {
        let timeline = state.withLock { state in
            if request.query["since_id"] != nil || request.query["min_id"] != nil, !state.arrivals.isEmpty {
                let arrivals = state.arrivals
                state.arrivals = []
                state.add(arrivals)
            }
            let entries = request.query["local"] == "true" ? state.timeline.filter { !$0.account.acct.contains("@") } : state.timeline
            return entries.map { state.rendered($0) }
        }
        return statusPage(request, of: timeline)
    }

    /// A page of `entries` (newest first) for `request`, positions found by id (see ``timelinePage(_:)``).
    func statusPage(_ request: Recorded, of entries: [Mastodon.Status]) -> HTTPResponse {
        let limit = Self.limit(request, default: 20, maximum: 40)
        func position(_ id: String?) -> Int? { id.flatMap { id in entries.firstIndex { $0.id == id } } }
        var lower = 0
        var upper = entries.count
        if let max = position(request.query["max_id"]) { lower = max + 1 }
        let newerBound = position(request.query["min_id"]) ?? position(request.query["since_id"])
        if let newerBound { upper = min(upper, newerBound) }
        let range = lower < upper ? Array(entries[lower..<upper]) : []
        let page = request.query["min_id"] != nil && request.query["since_id"] == nil ? Array(range.suffix(limit)) : Array(range.prefix(limit))
        let links = link(request, next: page.count == limit ? page.last?.id : nil, previous: page.first?.id)
        return Self.json(page, headers: links)
    }

    /// Mastodon's `limit`: `fallback` when absent, at most `maximum`, at least 1.
    static func limit(_ request: Recorded, default fallback: Int, maximum: Int) -> Int {
        max(1, min(maximum, request.query["limit"].flatMap { Int($0) } ?? fallback))
    }

    /// `["Link": …]` with `next` (`max_id=next`) and `prev` (`min_id=previous`) on the request's
    /// own address, keeping every other query parameter; `[:]` without either. (`prev` is written
    /// `;rel=prev`, unquoted and unspaced, as some servers do.)
    func link(_ request: Recorded, next: String?, previous: String?) -> [String: String] {
        let keep = request.query.filter { !["max_id", "min_id", "since_id"].contains($0.key) }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0.value)" }
        let base = baseURL + (request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? request.path)
        var links: [String] = []
        if let next { links.append("<\(base)?\((keep + ["max_id=\(next)"]).joined(separator: "&"))>; rel=\"next\"") }
        if let previous { links.append("<\(base)?\((keep + ["min_id=\(previous)"]).joined(separator: "&"))>;rel=prev") }
        return links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")]
    }

    /// Mastodon's thread: ancestors by `in_reply_to_id`, root first; descendants depth first,
    /// replies to the same post oldest first, among every status the server knows.
    func context(_ id: String) -> HTTPResponse {
        state.withLock { state in
            guard let status = state.statuses[id] else { return Self.error(404, "Record not found") }
            var ancestors: [Mastodon.Status] = []
            var parent = status.inReplyToID
            while let parentID = parent, let found = state.statuses[parentID], ancestors.count < 50 {
                ancestors.insert(state.rendered(found), at: 0)
                parent = found.inReplyToID
            }
            let replies = Dictionary(grouping: state.known.filter { $0.reblog == nil && $0.inReplyToID != nil }) { $0.inReplyToID ?? "" }
            var descendants: [Mastodon.Status] = []
            func walk(_ id: String) {
                for reply in (replies[id] ?? []).reversed() where descendants.count < 200 {
                    descendants.append(state.rendered(reply))
                    walk(reply.id)
                }
            }
            walk(status.id)
            return Self.json(Mastodon.Context(ancestors: ancestors, descendants: descendants))
        }
    }

    /// favourite / unfavourite / reblog / unreblog / bookmark / unbookmark on the original; reblog
    /// answers with the user's boost, whose `reblog` is the original. A bookmark asked of a boost
    /// entry is kept on its original and answered, as Mastodon does, with the boost entry: the
    /// original inside says `bookmarked`, the boost itself does not.
    func interact(_ id: String, _ action: String) -> HTTPResponse {
        state.withLock { state in
            guard let entry = state.statuses[id] else { return Self.error(404, "Record not found") }
            var original = entry.reblog?.original ?? entry
            original = state.statuses[original.id] ?? original
            switch action {
            case "favourite", "unfavourite":
                let on = action == "favourite"
                if (original.favourited ?? false) != on {
                    original.favourited = on
                    original.favouritesCount = max(0, original.favouritesCount + (on ? 1 : -1))
                    state.mark(original.id, favourite: on)
                }
                state.statuses[original.id] = original
                return Self.json(original)
            case "bookmark", "unbookmark":
                let on = action == "bookmark"
                if (original.bookmarked ?? false) != on {
                    original.bookmarked = on
                    state.mark(original.id, bookmark: on)
                }
                state.statuses[original.id] = original
                guard entry.reblog != nil else { return Self.json(original) }
                var boost = entry
                boost.reblog = original
                boost.bookmarked = false
                return Self.json(boost)
            case "reblog":
                if original.reblogged != true {
                    original.reblogged = true
                    original.reblogsCount += 1
                }
                state.statuses[original.id] = original
                let boostID = state.boosts[original.id] ?? String(state.nextBoost)
                state.nextBoost += 1
                state.boosts[original.id] = boostID
                let boost = Mastodon.Status(
                    id: boostID, createdAt: original.createdAt, account: original.account,
                    favourited: false, reblogged: true, reblog: original
                )
                state.statuses[boostID] = boost
                return Self.json(boost)
            case "unreblog":
                if original.reblogged == true {
                    original.reblogged = false
                    original.reblogsCount = max(0, original.reblogsCount - 1)
                }
                state.statuses[original.id] = original
                if let boostID = state.boosts.removeValue(forKey: original.id) { state.statuses[boostID] = nil }
                return Self.json(original)
            default:
                return Self.error(404, "Record not found")
            }
        }
    }
}

extension FakeMastodon.State {
    /// `entry` as the server shows it now: its current copy, with the current original inside a boost.
    func rendered(_ entry: Mastodon.Status) -> Mastodon.Status {
        var current = statuses[entry.id] ?? entry
        if let inner = current.reblog { current.reblog = statuses[inner.id] ?? inner }
        return current
    }

    /// Posts `new` (newest first) on top of the timeline.
    mutating func add(_ new: [Mastodon.Status]) {
        timeline.insert(contentsOf: new, at: 0)
        for status in new {
            statuses[status.id] = status
            if let original = status.reblog?.original, statuses[original.id] == nil { statuses[original.id] = original }
        }
        known = FakeMastodon.newestFirst(new + known)
    }

    /// Adds a bookmark (or favourite) record for `statusID` on top, with the next record id, or
    /// removes it.
    mutating func mark(_ statusID: String, bookmark on: Bool) {
        bookmarks.removeAll { $0.statusID == statusID }
        guard on else { return }
        bookmarks.insert(FakeMastodon.Mark(id: nextBookmark, statusID: statusID), at: 0)
        nextBookmark += 1
    }

    mutating func mark(_ statusID: String, favourite on: Bool) {
        favourites.removeAll { $0.statusID == statusID }
        guard on else { return }
        favourites.insert(FakeMastodon.Mark(id: nextFavourite, statusID: statusID), at: 0)
        nextFavourite += 1
    }
}

extension FakeMastodon {
    /// Newest first, by date and then id, like the fixtures' timeline.
    static func newestFirst(_ statuses: [Mastodon.Status]) -> [Mastodon.Status] {
        var seen: Set<String> = []
        return statuses.filter { seen.insert($0.id).inserted }.sorted { lhs, rhs in
            lhs.createdAt != rhs.createdAt ? lhs.createdAt > rhs.createdAt : lhs.id > rhs.id
        }
    }
}
