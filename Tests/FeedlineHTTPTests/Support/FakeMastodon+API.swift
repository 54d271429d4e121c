import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
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
        // Every item but the bounds, a repeated name (`types[]`) with each of its values.
        let items = request.queryItems.isEmpty ? request.query.map { "\($0.key)=\($0.value)" } : request.queryItems
        let keep = items.compactMap { item -> (String, String)? in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let name = pair.first, !["max_id", "min_id", "since_id"].contains(name) else { return nil }
            return (name, pair.count > 1 ? pair[1] : "")
        }
        .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        .map { name, value in
            let encodedName = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "_-."))) ?? name
            return "\(encodedName)=\(value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value)"
        }
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
            guard let status = state.server.entry(id) else { return Self.error(404, "Record not found") }
            var ancestors: [Mastodon.Status] = []
            var parent = status.inReplyToID
            while let parentID = parent, let found = state.server.entry(parentID), ancestors.count < 50 {
                ancestors.insert(found, at: 0)
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

    /// `POST /api/v1/statuses/:id/ACTION`: favourite / unfavourite / reblog / unreblog /
    /// bookmark / unbookmark / pin / unpin / mute / unmute, as the shared ``ServerModel`` does
    /// them (on the original; a reblog answered with the user's boost; a bookmark of a boost
    /// entry answered with that entry). The favourite and bookmark lists gain or lose a record
    /// when the flag changes. A pin beyond ``pinLimit`` is refused as Mastodon refuses it (422).
    func interact(_ request: Recorded, _ id: String, _ action: String) -> HTTPResponse {
        let actions: [String: (InteractionKind, Bool)] = [
            "favourite": (.favourite, true), "unfavourite": (.favourite, false), "reblog": (.reblog, true),
            "unreblog": (.reblog, false), "bookmark": (.bookmark, true), "unbookmark": (.bookmark, false),
            "pin": (.pin, true), "unpin": (.pin, false), "mute": (.muteThread, true), "unmute": (.muteThread, false),
        ]
        guard let (kind, value) = actions[action] else { return unexpected(request) }
        return state.withLock { state in
            let before = state.server.interactions(of: id)
            if kind == .pin, value, before?.pinned == false,
                state.known.count(where: { $0.reblog == nil && state.server.interactions(of: $0.id)?.pinned == true }) >= Self.pinLimit
            {
                return Self.error(422, "Validation failed: You have already pinned the maximum number of posts")
            }
            guard let answer = try? state.server.set(kind, to: value, on: id), let original = state.server.original(of: id) else {
                return Self.error(404, "Record not found")
            }
            if before?.isOn(kind) != value {
                if kind == .favourite { state.mark(original.id, favourite: value) }
                if kind == .bookmark { state.mark(original.id, bookmark: value) }
            }
            return Self.json(answer)
        }
    }
}

extension FakeMastodon.State {
    /// `entry` as the server shows it now: its current copy, with the current original inside a boost.
    func rendered(_ entry: Mastodon.Status) -> Mastodon.Status {
        server.entry(entry.id) ?? entry
    }

    /// Posts `new` (newest first) on top of the timeline.
    mutating func add(_ new: [Mastodon.Status]) {
        timeline.insert(contentsOf: new, at: 0)
        server.add(new)
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
