import FeedlineMastodon
import FlyingFox
import Foundation

extension FakeMastodon {
    /// A timeline page with Mastodon's rules: `max_id` older than, `since_id` newest newer than,
    /// `min_id` oldest newer than, `limit` 1…40 (20 by default); newest first. `Link` carries
    /// `next` (older, `max_id`) when the page is full and `prev` (newer, `min_id`) when not empty.
    func timelinePage(_ request: Recorded) -> HTTPResponse {
        let limit = max(1, min(40, request.query["limit"].flatMap { Int($0) } ?? 20))
        let timeline = state.withLock { state in
            if request.query["since_id"] != nil || request.query["min_id"] != nil, !state.arrivals.isEmpty {
                state.timeline.insert(contentsOf: state.arrivals, at: 0)
                for status in state.arrivals { state.statuses[status.id] = status }
                state.arrivals = []
            }
            return request.query["local"] == "true" ? state.timeline.filter { !$0.account.acct.contains("@") } : state.timeline
        }
        func position(_ id: String?) -> Int? { id.flatMap { id in timeline.firstIndex { $0.id == id } } }
        var lower = 0
        var upper = timeline.count
        if let max = position(request.query["max_id"]) { lower = max + 1 }
        let newerBound = position(request.query["min_id"]) ?? position(request.query["since_id"])
        if let newerBound { upper = min(upper, newerBound) }
        let range = lower < upper ? Array(timeline[lower..<upper]) : []
        let page = request.query["min_id"] != nil && request.query["since_id"] == nil ? Array(range.suffix(limit)) : Array(range.prefix(limit))
        var links: [String] = []
        let keep = request.query.filter { !["max_id", "min_id", "since_id"].contains($0.key) }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        let base = baseURL + request.path
        if page.count == limit, let last = page.last {
            links.append("<\(base)?\((keep + ["max_id=\(last.id)"]).joined(separator: "&"))>; rel=\"next\"")
        }
        if let first = page.first {
            links.append("<\(base)?\((keep + ["min_id=\(first.id)"]).joined(separator: "&"))>;rel=prev")
        }
        return Self.json(page, headers: links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")])
    }

    /// Ancestors by `in_reply_to_id`, root first; direct replies as descendants.
    func context(_ id: String) -> HTTPResponse {
        state.withLock { state in
            guard let status = state.statuses[id] else { return Self.error(404, "Record not found") }
            var ancestors: [Mastodon.Status] = []
            var parent = status.inReplyToID
            while let parentID = parent, let found = state.statuses[parentID], ancestors.count < 50 {
                ancestors.insert(found, at: 0)
                parent = found.inReplyToID
            }
            let descendants = state.timeline.filter { $0.inReplyToID == id }
            return Self.json(Mastodon.Context(ancestors: ancestors, descendants: descendants))
        }
    }

    /// favourite / unfavourite / reblog / unreblog on the original; reblog answers with the
    /// user's boost, whose `reblog` is the original.
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
                }
                state.statuses[original.id] = original
                return Self.json(original)
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
