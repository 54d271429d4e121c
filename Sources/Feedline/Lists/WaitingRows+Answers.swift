extension WaitingRows {
    // MARK: - Transitions: what the list's requests did

    /// The list's request in flight started: rows that arrive from now on are newer than
    /// anything its answer can cover.
    package mutating func requestStarted() {
        requestMark = arrivals
    }

    /// The first page (the newest) answered the request with `token`, bringing `items`;
    /// `shown` are the list's rows now. It covers what waited before it: see
    /// ``refreshAnswered(_:token:shown:newRows:hasMore:nextToken:)``, here with nothing inserted
    /// above an old top and no gap below it.
    package mutating func firstPageAnswered(_ items: [ListRow], token: Int, shown: RowList, nextToken: Int) -> Change {
        let (change, uncertain) = covered(by: items, token: token, shown: shown)
        missedCovered(byToken: token)
        if token >= mayMissSince { mayMiss = false }
        if uncertain { postsMayBeMissing(nextToken: nextToken) }
        return change
    }

    /// A refresh (items newer than the list's top) with `token` answered, bringing `items`, of
    /// which `newRows` went on top, with a gap row below them when `hasMore`; `shown` are the
    /// list's rows now.
    ///
    /// Everything newer than the old top up to the latest arrival it brought (or its start, if
    /// later) is shown now or behind its gap, so only the rows that arrived later keep waiting —
    /// and, when it started before the latest catch-up was asked for (its answer may hold posts
    /// the stream missed), only those that arrived after the drop; rows dropped for that alone
    /// belong nobody knows where, so posts may be missing below what waits. Posts may be missing
    /// too when a full page brought nothing new; with new rows on top (and a gap below them when
    /// needed), nothing is missing between what waits and the rows. A refresh that started after
    /// the latest catch-up was asked for clears ``missedSince``.
    package mutating func refreshAnswered(
        _ items: [ListRow], token: Int, shown: RowList, newRows: Int, hasMore: Bool, nextToken: Int
    ) -> Change {
        let (change, uncertain) = covered(by: items, token: token, shown: shown)
        missedCovered(byToken: token)
        if newRows > 0 {
            mayMiss = false
        } else if hasMore {
            postsMayBeMissing(nextToken: nextToken)
        } else if token >= mayMissSince {
            mayMiss = false
        }
        if uncertain { postsMayBeMissing(nextToken: nextToken) }
        return change
    }

    /// A catch-up with `token` answered; `fresh` are the rows it brought that the list does not
    /// show, newest first. They join the waiting rows: the rows that arrived while it ran, after
    /// the last one it brought (and after a reconnect since it started), stay above them; the
    /// ones it brought take their place in it; the rows that waited before it started stay
    /// below it only when it was not full and did not ask from the list's top row (`fromTop`);
    /// the others stop waiting (the gap that will stand below the page covers them, or the next
    /// catch-up places them). A full page, or rows left out only because the answer may hold
    /// posts the stream missed, mean posts may be missing below what waits; a catch-up from the
    /// top that was not full leaves nothing missing. One that started after the latest catch-up
    /// was asked for clears ``missedSince``. The rows it brought arrive with its request's mark.
    package mutating func catchUpAnswered(_ fresh: [ListRow], token: Int, hasMore: Bool, fromTop: Bool, nextToken: Int) -> Change {
        // Rows that arrived while it ran, after the last one it brought (and after a reconnect
        // since it started), are newer than its page; the ones it brought take their place in
        // it; the others are below it, or for the next catch-up to place. The rows that waited
        // before it started are below what it asked for, unless it asked from the top row.
        let brought = Set(fresh.map(\.id))
        let covered = coveredArrival(by: fresh)
        let stale = staleArrivals(ofToken: token)
        let after = rows.filter { (arrivedAt[$0.id] ?? 0) > max(covered, stale) && !brought.contains($0.id) }
        // Rows left out only because the answer may hold posts the stream missed: where they
        // belong is unknown, so posts may be missing between what waits and the rows.
        let uncertain = rows.contains { row in
            let arrival = arrivedAt[row.id] ?? 0
            return arrival > covered && arrival <= stale && !brought.contains(row.id)
        }
        let keepsBefore = !hasMore && !fromTop
        let before = keepsBefore ? rows.filter { (arrivedAt[$0.id] ?? 0) <= requestMark } : []
        let old = rows
        rows = RowList(after + fresh + before)
        var change = Change()
        change.stopped = old.filter { !rows.contains($0.id) }
        change.started = rows.filter { !old.contains($0.id) }
        if hasMore || uncertain {
            postsMayBeMissing(nextToken: nextToken)
        } else if fromTop, token >= mayMissSince {
            mayMiss = false
        }
        for row in fresh where arrivedAt[row.id] == nil { arrivedAt[row.id] = requestMark }
        arrivedAt = arrivedAt.filter { rows.contains($0.key) }
        missedCovered(byToken: token)
        return change
    }

    /// A page (an older page, a gap fill, a reload) brought `items` into the list's rows: those
    /// that wait stop waiting — a post, or a notification group with the same newest
    /// notification (the page's copy already counts the streamed one).
    package mutating func pageBrought(_ items: [ListRow]) -> Change {
        guard !rows.isEmpty else { return Change() }
        var gone: [Int] = []
        for row in items {
            guard let index = rows.index(of: row.id) else { continue }
            switch (rows[index], row) {
            case (.notification(let waits), .notification(let shown)) where waits.group.newestID != shown.group.newestID: continue
            default: gone.append(index)
            }
        }
        guard !gone.isEmpty else { return Change() }
        let indices = Set(gone).sorted()
        for index in indices { arrivedAt[rows[index].id] = nil }
        let change = Change(stopped: indices.map { rows[$0] })
        rows.remove(at: indices)
        return change
    }

    // MARK: - Queries

    /// Whether posts may have gone missing below what waits after the request with `token`
    /// started (a delete dropped a gap from the top meanwhile): its answer cannot stand for them.
    package func mayMiss(after token: Int) -> Bool {
        mayMiss && token < mayMissSince
    }

    /// The arrival that a page newest first over its range covers: its request's start, or the
    /// latest arrival among the waiting rows it brought, if later. A waiting row that arrived
    /// no later and is not in the page is older than the page's oldest item (or deleted).
    package func coveredArrival(by items: [ListRow]) -> Int {
        var covered = requestMark
        for row in items {
            if let arrival = arrivedAt[row.id], arrival > covered { covered = arrival }
        }
        return covered
    }

    /// For a request with `token` that started before the latest reconnect not covered yet: the
    /// arrivals then. Its answer may hold posts the stream missed, newer than every row that
    /// waited by then and not in it; those are left to the catch-up that follows (it asks from
    /// the top row). 0 otherwise.
    package func staleArrivals(ofToken token: Int) -> Int {
        guard let mark = missedSince else { return 0 }
        if let asked = mark.token, token >= asked { return 0 }
        return mark.arrivals
    }

    // MARK: - Helpers

    /// Posts may be missing between the waiting rows and the list's rows: only requests with
    /// `nextToken` or later can tell otherwise.
    mutating func postsMayBeMissing(nextToken: Int) {
        mayMiss = true
        mayMissSince = nextToken
    }

    /// A request from the top with `token` answered: if it started after the latest catch-up
    /// was asked for, it covered what the stream missed.
    private mutating func missedCovered(byToken token: Int) {
        if let asked = missedSince?.token, token >= asked { missedSince = nil }
    }

    /// Drops the waiting rows a page from the top covered (see
    /// ``refreshAnswered(_:token:shown:newRows:hasMore:nextToken:)``); returns whether rows were
    /// dropped only because the answer may hold posts the stream missed.
    private mutating func covered(by items: [ListRow], token: Int, shown: RowList) -> (Change, uncertain: Bool) {
        guard !rows.isEmpty else { return (Change(), false) }
        let covered = coveredArrival(by: items)
        let stale = staleArrivals(ofToken: token)
        var kept: [ListRow] = []
        var change = Change()
        var uncertain = false
        for row in rows {
            let arrival = arrivedAt[row.id] ?? 0
            let isShown = row.post != nil && shown.contains(row.id)
            if arrival > max(covered, stale), !isShown {
                kept.append(row)
            } else {
                if arrival > covered, !isShown { uncertain = true }
                change.stopped.append(row)
            }
        }
        rows = RowList(kept)
        arrivedAt = arrivedAt.filter { rows.contains($0.key) }
        return (change, uncertain)
    }
}
