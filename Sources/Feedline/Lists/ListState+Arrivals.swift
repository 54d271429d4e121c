extension ListState {
    // MARK: - Transitions: rows that wait above (over WaitingRows)

    /// Streamed rows wait above, newest first (`WaitingRows/arrived(_:)`); a post already
    /// shown is updated in place instead (one's own post not placed yet: the rows waiting now
    /// are older than it).
    mutating func receiveStreamed(_ arrived: [ListRow], _ edit: inout RowEdit) {
        for row in arrived.reversed() where row.gap == nil {
            if row.post != nil, let index = rows.index(of: row.id) {
                if rows[index] != row { replace(at: index, with: row, &edit) }
                ownStreamed(at: index)
                continue
            }
            edit.record(waitingRows.arrived(row, nextToken: nextToken))
        }
    }

    /// The user asked to see what waits. Before the first page has come, it is loaded instead
    /// (as a refresh with no rows would): it is the newest page and may hold posts newer than
    /// what waits; the waiting rows it brings stop waiting, newer ones keep waiting.
    mutating func waitingShown(_ current: [ListRow], _ edit: inout RowEdit) {
        if rows.isEmpty, older == .from(nil) {
            if !waitingRows.isEmpty, inFlight?.kind != .page(after: nil) { startOrQueue(.refresh, &edit) }
        } else {
            showWaiting(current, &edit)
        }
    }

    /// The stream reconnected (or a poll is due): posts may be missing between what waits now
    /// (or waited when the stream dropped) and what arrives from now on; only a request that
    /// starts from now covers them, so a catch-up is asked for. Lists that reload ignore it.
    mutating func catchUpRequested(_ edit: inout RowEdit) {
        guard refreshStyle == .newer else { return }
        waitingRows.catchUpAsked(nextToken: nextToken)
        catchUpAgain(&edit)
    }

    /// The stream dropped (`WaitingRows/interrupted(nextToken:)`). Lists that reload ignore it.
    mutating func streamInterrupted(_ edit: inout RowEdit) {
        guard refreshStyle == .newer else { return }
        edit.record(waitingRows.interrupted(nextToken: nextToken))
    }

    /// A catch-up (items newer than the item `bound`) answered `request`: rows it brings that
    /// are shown are updated in place. Nothing new to show (filtered, deleted, or one's own
    /// posts shown already) but more below: it goes on below that page, once per page.
    /// Otherwise the rows not shown join the waiting rows
    /// (`WaitingRows/catchUpAnswered(_:token:hasMore:fromTop:nextToken:)`); a failed refresh
    /// counts as answered: it asked for what this brought (it waits above).
    mutating func catchUpAnswered(_ page: NewerPage<ListRow>, for request: ListRequest, above bound: ItemID, _ edit: inout RowEdit) {
        inFlight = nil
        var fresh: [ListRow] = []
        for row in page.items where row.gap == nil {
            if row.post != nil, let index = rows.index(of: row.id) {
                if rows[index] != row { replace(at: index, with: row, &edit) }
                continue
            }
            fresh.append(row)
        }
        if fresh.isEmpty, page.hasMore, let oldest = page.oldestBound ?? page.items.last(where: { $0.gap == nil })?.olderBound {
            proceed(request, as: .catchUp(above: bound, olderThan: oldest))
            return
        }
        catchUpFailure = nil
        let fromTop = bound == topRow?.newerBound
        edit.record(waitingRows.catchUpAnswered(fresh, token: request.token, hasMore: page.hasMore, fromTop: fromTop, nextToken: nextToken))
        clearFailure(of: .refresh)
        runQueue(&edit)
    }

    /// The first page answered `request`: it is the newest, so it covers what waited before it
    /// (`WaitingRows/firstPageAnswered(_:token:shown:nextToken:)`).
    mutating func firstPageCoversWaiting(_ items: [ListRow], for request: ListRequest, _ edit: inout RowEdit) {
        edit.record(waitingRows.firstPageAnswered(items, token: request.token, shown: rows, nextToken: nextToken))
    }

    /// Rows that waited left without being shown (`change`: deleted, or one's own post shown
    /// on top). When they were the last and posts may be missing below them, nothing would show
    /// that gap any more, so a catch-up asks above the top again — also when no row is left
    /// (every one was deleted): the catch-up then loads the first page. Only before the first
    /// page has come is there nothing to do: it covers them.
    mutating func waitingLeft(_ change: WaitingRows.Change, _ edit: inout RowEdit) {
        edit.record(change)
        let firstPageCame = !rows.isEmpty || older != .from(nil)
        if !change.stopped.isEmpty, waitingRows.isEmpty, waitingRows.mayMiss, refreshStyle == .newer, firstPageCame {
            catchUpAgain(&edit)
        }
    }

    /// Rows a page brought stop waiting (`WaitingRows/pageBrought(_:)`).
    mutating func dropShownFromWaiting(_ items: [ListRow], _ edit: inout RowEdit) {
        edit.record(waitingRows.pageBrought(items))
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

    /// The waiting rows go on top, in their latest copies, as a refresh's would, with a gap row
    /// below them when posts may be missing (`WaitingRows/shown(current:)`); one's own posts on
    /// top not placed yet go among them by the stream's order (what arrived before one was
    /// made goes below it). A refresh or catch-up in flight asked above the old top: it asks again above the
    /// new one (the old answer would land below the rows just shown).
    private mutating func showWaiting(_ current: [ListRow], _ edit: inout RowEdit) {
        guard !waitingRows.isEmpty else { return }
        let arrivals = waitingRows.arrivedAt
        let (page, change) = waitingRows.shown(current: current)
        edit.record(change)
        insertNewer(page, above: topRow?.newerBound, arrivals: arrivals, &edit)
        if let request = inFlight, let top = topRow?.newerBound {
            switch request.kind {
            case .refresh: start(.refresh(above: top))
            case .catchUp: start(.catchUp(above: top))
            case .page, .gap, .reload, .confirm: break
            }
        }
    }
}

extension ListState {
    /// The group (waiting or shown, newest first) a streamed `group` of another key joins, if
    /// any: a group of the same kind about the same post (follows: any) whose newest
    /// notification is less than ``NotificationGroup/maximumJoinSpan`` from it. O(rows).
    func joinable(_ group: NotificationGroup) -> NotificationGroup? {
        guard group.joinsOthers else { return nil }
        for row in [waiting, rows].joined() {
            if let known = row.notification?.group, known.accepts(group) { return known }
        }
        return nil
    }
}
