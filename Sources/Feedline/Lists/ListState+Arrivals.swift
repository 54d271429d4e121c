extension ListState {
    // MARK: - Transitions: rows that wait above

    /// Streamed rows wait above, newest first; a post already shown is updated in place; a post
    /// that already waits (a catch-up brought it before the stream did) keeps its place; a
    /// notification group that grew moves up.
    mutating func receiveStreamed(_ arrived: [ListRow], _ edit: inout RowEdit) {
        for row in arrived.reversed() where row.gap == nil {
            if row.post != nil, let index = rows.index(of: row.id) {
                if rows[index] != row { replace(at: index, with: row, &edit) }
                continue
            }
            if row.post != nil, let index = waiting.index(of: row.id) {
                waiting.replace(at: index, with: row)
                continue
            }
            if let index = waiting.index(of: row.id) {
                edit.stoppedWaiting([waiting[index]])
                waiting.remove(at: [index])
            }
            waiting.insert([row], at: 0)
            edit.startedWaiting(row)
            arrivals += 1
            arrivedAt[row.id] = arrivals
        }
    }

    /// The user asked to see what waits. Before the first page has come, it is loaded instead
    /// (as a refresh with no rows would): it is the newest page and may hold posts newer than
    /// what waits; the waiting rows it brings stop waiting, newer ones keep waiting.
    mutating func waitingShown(_ current: [ListRow], _ edit: inout RowEdit) {
        if rows.isEmpty, older == .from(nil) {
            if !waiting.isEmpty, inFlight?.kind != .page(after: nil) { startOrQueue(.refresh, &edit) }
        } else {
            showWaiting(current, &edit)
        }
    }

    /// The stream reconnected (or a poll is due): posts may be missing between what waits now
    /// (or waited when the stream dropped) and what arrives from now on; only a request that
    /// starts from now covers them, so a catch-up is asked for. Lists that reload ignore it.
    mutating func catchUpRequested(_ edit: inout RowEdit) {
        guard refreshStyle == .newer else { return }
        var mark = missedSince ?? MissedMark(arrivals: arrivals, token: nil)
        mark.token = nextToken
        missedSince = mark
        catchUpAgain(&edit)
    }

    /// The stream dropped: what it sends from the reconnect on may not follow what waits now.
    /// Dropped again before the last drop was caught up, after rows came in between: posts
    /// missed twice would belong among what waits, so it is asked for again. Lists that reload
    /// ignore it.
    mutating func streamInterrupted(_ edit: inout RowEdit) {
        guard refreshStyle == .newer else { return }
        if let mark = missedSince, arrivals > mark.arrivals {
            edit.stoppedWaiting(waiting)
            waiting.removeAll()
            arrivedAt.removeAll()
            markMayMiss()
        }
        missedSince = MissedMark(arrivals: arrivals, token: nil)
    }

    /// A catch-up (items newer than the item `bound`) answered `request`. Nothing to show
    /// (filtered or deleted) but more below: it goes on below that page, once per page.
    /// Otherwise its rows join the waiting ones; a failed refresh counts as answered: it asked
    /// for what this brought (it waits above).
    mutating func catchUpAnswered(_ page: NewerPage<ListRow>, for request: ListRequest, above bound: ItemID, _ edit: inout RowEdit) {
        inFlight = nil
        if page.items.isEmpty, page.hasMore, let oldest = page.oldestBound {
            proceed(request, as: .catchUp(above: bound, olderThan: oldest))
            return
        }
        keepWaiting(page, of: request, above: bound, &edit)
        coveredMissed(by: request)
        clearFailure(of: .refresh)
        runQueue(&edit)
    }

    /// The first page answered `request`: it is the newest, so it covers what waited before it.
    mutating func firstPageCoversWaiting(_ items: [ListRow], for request: ListRequest, _ edit: inout RowEdit) {
        let uncertain = dropCoveredWaiting(after: coveredArrival(items), stale: staleArrivals(of: request), &edit)
        coveredMissed(by: request)
        if request.token >= mayMissSince { waitingMayMiss = false }
        if uncertain { markMayMiss() }
    }

    /// Asks for a catch-up that starts from now: one that runs already started too early, so
    /// another is queued behind it.
    mutating func catchUpAgain(_ edit: inout RowEdit) {
        if case .catchUp? = inFlight?.kind {
            if !queued.contains(.catchUp) { queued.append(.catchUp) }
        } else {
            startOrQueue(.catchUp, &edit)
        }
    }

    /// The waiting rows go on top, in their latest copies, as a refresh's would. While a
    /// catch-up after a reconnect has not come back, posts may be missing between the rows that
    /// arrived since the reconnect and the older ones: only the newer go on top, with a gap row
    /// below them that stands for the rest (opening it brings them back, in order). Posts
    /// missed before a reconnect after which nothing arrived are newer than every waiting row:
    /// the catch-up brings them above.
    private mutating func showWaiting(_ current: [ListRow], _ edit: inout RowEdit) {
        guard !waiting.isEmpty else { return }
        var latest: [RowID: ListRow] = [:]
        for row in current { latest[row.id] = row }
        var items = waiting.map { latest[$0.id] ?? $0 }
        var mayMiss = waitingMayMiss
        if let mark = missedSince {
            // What arrived since the reconnect goes on top, with a gap below it for what the
            // stream missed and what waited before (the catch-up would have placed those). With
            // nothing arrived since, what waits is older than what was missed: it goes on top,
            // and the catch-up brings the rest above it.
            let newer = items.filter { (arrivedAt[$0.id] ?? 0) > mark.arrivals }
            if !newer.isEmpty {
                items = newer
                mayMiss = true
                missedSince = nil
            }
        }
        edit.stoppedWaiting(waiting)
        waiting.removeAll()
        arrivedAt.removeAll()
        waitingMayMiss = false
        insertNewer(NewerPage(items: items, hasMore: mayMiss), above: rows.first?.newerBound, &edit)
        // A refresh or catch-up in flight asked above the old top: ask again above the new one
        // (the old answer would land below the rows just shown).
        if let request = inFlight, let top = rows.first?.newerBound {
            switch request.kind {
            case .refresh: start(.refresh(above: top))
            case .catchUp: start(.catchUp(above: top))
            case .page, .gap, .reload, .confirm: break
            }
        }
    }

    /// A catch-up's rows join the waiting ones. When the page was full, items may be missing
    /// below it: the waiting rows that were there before the catch-up started are dropped (the
    /// gap that will stand below the page covers them). A catch-up above the top row that was
    /// not full leaves nothing missing between the waiting rows and the rows.
    private mutating func keepWaiting(_ page: NewerPage<ListRow>, of request: ListRequest, above bound: ItemID, _ edit: inout RowEdit) {
        catchUpFailure = nil
        var fresh: [ListRow] = []
        for row in page.items where row.gap == nil {
            if row.post != nil, let index = rows.index(of: row.id) {
                if rows[index] != row { replace(at: index, with: row, &edit) }
                continue
            }
            fresh.append(row)
        }
        // Rows that arrived while it ran, after the last one it brought (and after a reconnect
        // since it started), are newer than its page; the ones it brought take their place in
        // it; the others are below it, or for the next catch-up to place. The rows that waited
        // before it started are below what it asked for, unless it asked from the top row.
        let brought = Set(fresh.map(\.id))
        let covered = coveredArrival(fresh)
        let stale = staleArrivals(of: request)
        let after = waiting.filter { (arrivedAt[$0.id] ?? 0) > max(covered, stale) && !brought.contains($0.id) }
        // Rows left out only because the answer may hold posts the stream missed: where they
        // belong is unknown, so posts may be missing between what waits and the rows.
        let uncertain = waiting.contains { row in
            let arrival = arrivedAt[row.id] ?? 0
            return arrival > covered && arrival <= stale && !brought.contains(row.id)
        }
        let keepsBefore = !page.hasMore && bound != rows.first?.newerBound
        let before = keepsBefore ? waiting.filter { (arrivedAt[$0.id] ?? 0) <= requestMark } : []
        let old = waiting
        waiting = RowList(after + fresh + before)
        edit.stoppedWaiting(old.filter { !waiting.contains($0.id) })
        for row in waiting where !old.contains(row.id) { edit.startedWaiting(row) }
        if page.hasMore || uncertain {
            markMayMiss()
        } else if bound == rows.first?.newerBound, request.token >= mayMissSince {
            waitingMayMiss = false
        }
        for row in fresh where arrivedAt[row.id] == nil { arrivedAt[row.id] = requestMark }
        arrivedAt = arrivedAt.filter { waiting.contains($0.key) }
    }

    /// Rows a page brought stop waiting: a post now shown, a notification group shown with the
    /// same newest notification (the page's copy already counts the streamed one).
    mutating func dropShownFromWaiting(_ arrived: [ListRow], _ edit: inout RowEdit) {
        guard !waiting.isEmpty else { return }
        var gone: [Int] = []
        for row in arrived {
            guard let index = waiting.index(of: row.id) else { continue }
            switch (waiting[index], row) {
            case (.notification(let waits), .notification(let shown)) where waits.group.newestID != shown.group.newestID: continue
            default: gone.append(index)
            }
        }
        guard !gone.isEmpty else { return }
        let indices = Set(gone).sorted()
        for index in indices { arrivedAt[waiting[index].id] = nil }
        edit.stoppedWaiting(indices.map { waiting[$0] })
        waiting.remove(at: indices)
    }

    /// The arrival that a page newest first over its range covers: its request's start, or the
    /// latest arrival among the waiting rows it brought, if later. A waiting row that arrived
    /// no later and is not in the page is older than the page's oldest item (or deleted).
    func coveredArrival(_ items: [ListRow]) -> Int {
        var covered = requestMark
        for row in items {
            if let arrival = arrivedAt[row.id], arrival > covered { covered = arrival }
        }
        return covered
    }

    /// For a request that started before the latest reconnect not covered yet: the arrivals
    /// then. Its answer may hold posts the stream missed, newer than every row that waited by
    /// then and not in it; those are left to the catch-up that follows (it asks from the top
    /// row). 0 otherwise.
    func staleArrivals(of request: ListRequest) -> Int {
        guard let mark = missedSince else { return 0 }
        if let token = mark.token, request.token >= token { return 0 }
        return mark.arrivals
    }

    /// A request from the top that started after the catch-up was asked for has covered what
    /// the stream missed.
    mutating func coveredMissed(by request: ListRequest) {
        if let token = missedSince?.token, request.token >= token { missedSince = nil }
    }

    /// Items may be missing between the waiting rows and the rows, from now on.
    mutating func markMayMiss() {
        waitingMayMiss = true
        mayMissSince = nextToken
    }

    /// After a refresh (or the first page): everything newer than the old top up to the arrival
    /// `covered` is now shown or behind its gap, so only the rows that arrived later still wait
    /// — and, for an answer that may hold posts the stream missed, later than `stale`. Returns
    /// whether rows were dropped for that alone (where they belong is unknown).
    mutating func dropCoveredWaiting(after covered: Int, stale: Int, _ edit: inout RowEdit) -> Bool {
        guard !waiting.isEmpty else { return false }
        var kept: [ListRow] = []
        var uncertain = false
        for row in waiting {
            let arrival = arrivedAt[row.id] ?? 0
            let shown = row.post != nil && rows.contains(row.id)
            if arrival > max(covered, stale), !shown {
                kept.append(row)
            } else {
                if arrival > covered, !shown { uncertain = true }
                edit.stoppedWaiting(CollectionOfOne(row))
            }
        }
        waiting = RowList(kept)
        arrivedAt = arrivedAt.filter { waiting.contains($0.key) }
        return uncertain
    }

}
