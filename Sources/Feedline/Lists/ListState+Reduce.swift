extension ListState {
    /// Applies one event in place and returns how the rows changed.
    ///
    /// Pure: the result depends on the state and the event only. Effects are chosen afterwards
    /// by reading ``requests``. Responses whose token is not the request in flight are dropped.
    ///
    /// - Appearing loads the first page when there are no rows and nothing failed.
    /// - A row within ``prefetchDistance`` of the end asks for the next page — unless the last
    ///   older page failed: then only load-more or retry asks again, with the same cursor.
    /// - One request at a time; what is asked for meanwhile is queued and runs when it settles.
    /// - Pages append their rows; rows already present are updated in place, never repeated.
    /// - Refresh inserts newer rows at the top, with a gap row below them when the server says
    ///   more may be missing; opening a gap loads the newest missing rows into it and removes it
    ///   once nothing is missing. A list with ``RefreshStyle/reload`` loads its first page again
    ///   instead and replaces its rows.
    /// - Retry runs every failed request again, the last failure first.
    /// - A post change updates the rows that show the post, in place.
    /// - Streamed rows wait above the rows (``waiting``) — nothing moves under the reader —
    ///   until shown; a catch-up asks for what is newer than everything known and keeps it
    ///   waiting too. Showing them inserts them on top as a refresh would, with a gap row below
    ///   when items may be missing. A refresh or catch-up drops the waiting rows it covered.
    ///   Before the first page has come, showing them loads it instead (it may hold newer posts).
    /// - Removed rows (deleted posts) leave the rows and the waiting rows; a gap left at the top
    ///   is dropped (a refresh covers it; rows shown from above it leave a gap below them), two
    ///   gaps that meet become one, and a gap left at the bottom becomes where older pages start.
    /// - Reset clears everything, drops what is in flight and loads the first page.
    ///
    /// - Complexity: O(k) for a page of k rows appended or inserted at the top (plus the array
    ///   shift of an insertion at the top); O(r) for a post change shown by r rows; O(n) for gap
    ///   fills, reloads and reset.
    @discardableResult
    public mutating func reduce(_ event: ListEvent) -> Changeset<ListRow> {
        var edit = RowEdit(oldCount: rows.count)
        reduce(event, into: &edit)
        return edit.changeset(in: self)
    }

    /// Applies one event, recording what it did to the rows in `edit`, so that a view model can
    /// apply a response and the post changes it caused as one changeset. A reload must be the
    /// first event of an edit.
    mutating func reduce(_ event: ListEvent, into edit: inout RowEdit) {
        switch event {
        case .appeared:
            if rows.isEmpty, inFlight == nil, olderFailure == nil, older != .end {
                startOrQueue(.loadOlder, &edit)
            }

        case .gapOpened(let id):
            guard let gap = rows[id: id]?.gap, gap.status != .loading else { break }
            startOrQueue(.fillGap(id), &edit)

        case .loadMoreRequested:
            if older != .end { startOrQueue(.loadOlder, &edit) }

        case .newerLoaded(let token, var page):
            guard let request = inFlight, request.token == token else { break }
            confirm(page.items)
            // A full answer that reaches rows already shown (a catch-up asked above a row below
            // the first screen) is contiguous with them: nothing is missing below it.
            if page.hasMore, reachesRows(page) { page.hasMore = false }
            switch request.kind {
            case .refresh(let above, _):
                inFlight = nil
                let covered = coveredArrival(page.items)
                // Posts that went missing below the top after it started (a delete dropped a gap
                // there) are below what it brings: a gap row stands for them.
                let missing = page.hasMore || (waitingMayMiss && request.token < mayMissSince)
                var bounded = page
                bounded.hasMore = missing
                let inserted = insertNewer(bounded, above: above, &edit)
                // A full page with nothing to show (a filter hid its posts, or they were deleted
                // while it came): the refresh goes on below that page, once per page, as the
                // same request — what waits is not covered until it ends.
                if inserted == 0, page.hasMore, let oldest = page.oldestBound {
                    proceed(request, as: .refresh(above: above, olderThan: oldest))
                    break
                }
                let uncertain = dropCoveredWaiting(after: covered, stale: staleArrivals(of: request), &edit)
                coveredMissed(by: request)
                // Everything newer than the old top is shown now or behind the gap below it —
                // unless a full page brought nothing to show: then posts may still be missing
                // above the top.
                if inserted > 0 {
                    waitingMayMiss = false
                } else if page.hasMore {
                    markMayMiss()
                } else if request.token >= mayMissSince {
                    waitingMayMiss = false
                }
                if uncertain { markMayMiss() }
                // A catch-up that failed asked for what this answer brought.
                clearFailure(of: .catchUp)
                runQueue(&edit)
            case .gap(let gap):
                inFlight = nil
                fillGap(gap.id, with: page, &edit)
                dropShownFromWaiting(page.items, &edit)
                // A page with nothing to show (filtered or deleted) that left the gap open: the
                // fill goes on below it, once per page, so that opening a gap shows something.
                if page.items.isEmpty, page.hasMore, page.oldestBound != nil, rows[id: gap.id]?.gap != nil {
                    begin(.fillGap(gap.id), &edit)
                    break
                }
                runQueue(&edit)
            case .catchUp(let above, _):
                inFlight = nil
                // Nothing to show (filtered or deleted) but more below: the catch-up goes on
                // below that page, once per page.
                if page.items.isEmpty, page.hasMore, let oldest = page.oldestBound {
                    proceed(request, as: .catchUp(above: above, olderThan: oldest))
                    break
                }
                keepWaiting(page, of: request, above: above, &edit)
                coveredMissed(by: request)
                // A refresh that failed asked for what this answer brought (it waits above).
                clearFailure(of: .refresh)
                runQueue(&edit)
            case .confirm:
                // The rows it brought are confirmed (above) and take the server's copy in place;
                // nothing new is inserted: the range is one the reader has seen already.
                inFlight = nil
                for item in page.items where item.post != nil {
                    if let index = rows.index(of: item.id), rows[index] != item { replace(at: index, with: item, &edit) }
                }
                runQueue(&edit)
            case .page, .reload:
                fail(request, FeedFailure(message: Self.unexpectedResponse, isTransient: true), &edit)
            }

        case .pageFailed(let token, let failure):
            guard let request = inFlight, request.token == token else { break }
            fail(request, failure, &edit)

        case .pageLoaded(let token, let page):
            guard let request = inFlight, request.token == token else { break }
            confirm(page.items)
            switch request.kind {
            case .page(let cursor):
                inFlight = nil
                let fresh = newRows(from: page.items, newer: false, &edit)
                edit.insertedBlock(at: rows.count, count: fresh.count)
                rows.insert(fresh, at: rows.count)
                if cursor == nil {
                    // The first page is the newest: it covers what waited before it.
                    let uncertain = dropCoveredWaiting(after: coveredArrival(page.items), stale: staleArrivals(of: request), &edit)
                    coveredMissed(by: request)
                    if request.token >= mayMissSince { waitingMayMiss = false }
                    if uncertain { markMayMiss() }
                } else {
                    dropShownFromWaiting(fresh, &edit)
                }
                older = page.next.map { .from($0) } ?? .end
                clearFailure(of: .loadOlder)
                runQueue(&edit)
            case .reload:
                inFlight = nil
                replaceRows(with: page, &edit)
                dropShownFromWaiting(page.items, &edit)
                runQueue(&edit)
            case .refresh, .gap, .catchUp, .confirm:
                fail(request, FeedFailure(message: Self.unexpectedResponse, isTransient: true), &edit)
            }

        case .postChanged(let change, let ids):
            for id in ids {
                guard let index = rows.index(of: id) else { continue }
                let row = rows[index]
                // A newer copy of a saved post (a reply, an edit, another list's page).
                if !unconfirmed.isEmpty, row.shownPost?.content != change.post { unconfirmed.remove(id) }
                let changed = row.applying(change)
                if changed != row { replace(at: index, with: changed, &edit) }
            }

        case .refreshRequested:
            startOrQueue(.refresh, &edit)

        case .reset:
            edit.removeAll(old: rows.array)
            rows.removeAll()
            unconfirmed = []
            confirmAsked = []
            edit.stoppedWaiting(waiting)
            waiting.removeAll()
            arrivedAt.removeAll()
            waitingMayMiss = false
            missedSince = nil
            catchUpFailure = nil
            older = .from(nil)
            olderFailure = nil
            refreshFailure = nil
            inFlight = nil
            queued = []
            lastFailed = nil
            lastRefresh = nil
            begin(.loadOlder, &edit)

        case .retryRequested:
            for intent in failedIntents { startOrQueue(intent, &edit) }

        case .rowWillDisplay(let id):
            advancePosition(to: id)
            // A restored row nothing has confirmed comes into view: its stretch is asked for again.
            if unconfirmed.contains(id), !confirmAsked.contains(id), refreshStyle == .newer { startOrQueue(.confirm(id), &edit) }
            guard let index = rows.index(of: id), index >= rows.count - prefetchDistance,
                case .from = older, olderFailure == nil
            else { break }
            startOrQueue(.loadOlder, &edit)

        case .streamed(let arrived):
            receiveStreamed(arrived, &edit)

        case .waitingShown(let current):
            if rows.isEmpty, older == .from(nil) {
                // The first page has not come: it is the newest page and may hold posts newer
                // than what waits, so it is loaded (as a refresh with no rows would); the waiting
                // rows it brings stop waiting, newer ones keep waiting.
                if !waiting.isEmpty, inFlight?.kind != .page(after: nil) { startOrQueue(.refresh, &edit) }
            } else {
                showWaiting(current, &edit)
            }

        case .catchUpRequested:
            guard refreshStyle == .newer else { break }
            // Posts may be missing between what waits now (or waited when the stream dropped)
            // and what arrives from now on; only a request that starts from now covers them.
            var mark = missedSince ?? MissedMark(arrivals: arrivals, token: nil)
            mark.token = nextToken
            missedSince = mark
            catchUpAgain(&edit)

        case .streamInterrupted:
            guard refreshStyle == .newer else { break }
            // Dropped again before the last drop was caught up, after rows came in between:
            // posts missed twice would belong among what waits, so it is asked for again.
            if let mark = missedSince, arrivals > mark.arrivals {
                edit.stoppedWaiting(waiting)
                waiting.removeAll()
                arrivedAt.removeAll()
                markMayMiss()
            }
            missedSince = MissedMark(arrivals: arrivals, token: nil)

        case .rowsRemoved(let ids):
            removeRows(ids, &edit)

        case .restored(let saved, let newer, let cursor, let confirmed):
            restore(saved, waiting: newer, older: cursor, &edit)
            if !unconfirmed.isEmpty { unconfirmed.subtract(confirmed) }

        case .positionRestored(let saved):
            if position.map({ saved.isNewer(than: $0) }) ?? true { position = saved }
        }
    }

    /// Whether a newer page holds a post row already shown.
    private func reachesRows(_ page: NewerPage<ListRow>) -> Bool {
        page.items.contains { $0.post != nil && rows.contains($0.id) }
    }

    /// Asks again for the stretch of restored rows from `id` down — up to ``confirmDepth`` rows,
    /// above the next row below them (`since_id` leaves that bound out; the last row is brought
    /// by the first older page) — unless every row of it was asked for already.
    private mutating func beginConfirming(from id: RowID) {
        guard refreshStyle == .newer, let first = rows.index(of: id), unconfirmed.contains(id) else { return }
        let end = min(first + Self.confirmDepth, rows.count - 1)
        guard end > first, let bound = rows[first...end].last(where: { $0.newerBound != nil }), bound.id != id,
            let below = bound.newerBound, let boundIndex = rows.index(of: bound.id)
        else { return }
        let upper = first > 0 ? rows[..<first].last(where: { $0.olderBound != nil })?.olderBound : nil
        for row in rows[first..<boundIndex] { confirmAsked.insert(row.id) }
        start(.confirm(first: id, above: below, olderThan: upper))
    }

    /// Rows a server answer brought are no longer only saved copies.
    private mutating func confirm(_ items: [ListRow]) {
        guard !unconfirmed.isEmpty else { return }
        for item in items { unconfirmed.remove(item.id) }
    }

    /// The reading position moves to the row `id` (a post, or a notification group's newest
    /// notification) if it is newer than the position: above it in the list, or — when the
    /// position's row is not in the list — written later.
    private mutating func advancePosition(to id: RowID) {
        guard let index = rows.index(of: id) else { return }
        let seen: ReadingPosition
        switch rows[index] {
        case .post(let row): seen = ReadingPosition(row.post)
        case .notification(let row): seen = ReadingPosition(id: row.group.newestID, createdAt: row.group.latestAt)
        case .gap: return
        }
        if let position {
            guard seen.id != position.id else { return }
            if let current = rows.index(of: .post(position.id.post)) {
                guard index < current else { return }
            } else if !seen.isNewer(than: position) {
                return
            }
        }
        position = seen
    }

    /// Rows from an earlier run: shown at once, the saved newer ones waiting above; then a
    /// catch-up above the first screen's last post confirms that screen and brings what is new.
    private mutating func restore(_ saved: [ListRow], waiting newer: [ListRow], older cursor: PageCursor?, _ edit: inout RowEdit) {
        guard rows.isEmpty, waiting.isEmpty, inFlight == nil else { return }
        // Gaps only between rows, each row once.
        var kept: [ListRow] = []
        var seen = Set<RowID>()
        for row in saved where seen.insert(row.id).inserted {
            if row.gap != nil, kept.last?.gap != nil || kept.isEmpty { continue }
            kept.append(row)
        }
        while kept.last?.gap != nil { kept.removeLast() }
        edit.insertedBlock(at: 0, count: kept.count)
        rows.insert(kept, at: 0)
        unconfirmed = Set(kept.filter { $0.gap == nil }.map(\.id))
        older = cursor.map { .from($0) } ?? .end
        // Older pages start above the last saved row, so the first of them brings it again
        // (nothing else answers for the last row: "newer than" leaves its bound out).
        // (Not across a gap: what a page brings there belongs in the gap, not below the rows.)
        if kept.count > 1, kept[kept.count - 2].post != nil, kept[kept.count - 1].post != nil,
            let above = kept[kept.count - 2].olderBound
        {
            older = .from(PageCursor(above.rawValue))
        }
        for row in newer.reversed() where row.gap == nil && !seen.contains(row.id) && !waiting.contains(row.id) {
            waiting.insert([row], at: 0)
            edit.startedWaiting(row)
            arrivals += 1
            arrivedAt[row.id] = arrivals
            unconfirmed.insert(row.id)
        }
        if case .post(let first)? = rows.first { position = ReadingPosition(first.post) }
        guard refreshStyle == .newer else { return }
        // Above the post below the first screen when there is one (`since_id` leaves the bound out).
        let confirmed = rows.prefix(Self.confirmDepth + 1).last { $0.newerBound != nil }
        if let bound = confirmed?.newerBound {
            start(.catchUp(above: bound))
        } else if rows.isEmpty {
            older = .from(nil)
            begin(.loadOlder, &edit)
        }
    }

    /// The failure recorded when a response does not fit its request.
    public static let unexpectedResponse = "The server sent an unexpected response."

    /// Records the failure of the request in flight and runs what was queued.
    private mutating func fail(_ request: ListRequest, _ failure: FeedFailure, _ edit: inout RowEdit) {
        inFlight = nil
        switch request.kind {
        case .page:
            olderFailure = failure
            lastFailed = .loadOlder
        case .refresh, .reload:
            refreshFailure = failure
            lastFailed = .refresh
        case .catchUp:
            catchUpFailure = failure
            lastFailed = .catchUp
        case .confirm(let first, _, _):
            // Quiet, like its loading: the rows stay marked as saved copies, and may ask again
            // when displayed again.
            if let start = rows.index(of: first) {
                for row in rows[start...] {
                    guard confirmAsked.remove(row.id) != nil else { break }
                }
            }
        case .gap(let gap):
            if let index = rows.index(of: gap.id), var current = rows[index].gap {
                current.status = .failed(failure)
                replace(at: index, with: .gap(current), &edit)
                lastFailed = .fillGap(gap.id)
            }
        }
        runQueue(&edit)
    }

    // MARK: - Transitions

    /// Asks for a catch-up that starts from now: one that runs already started too early, so
    /// another is queued behind it.
    private mutating func catchUpAgain(_ edit: inout RowEdit) {
        if case .catchUp? = inFlight?.kind {
            if !queued.contains(.catchUp) { queued.append(.catchUp) }
        } else {
            startOrQueue(.catchUp, &edit)
        }
    }

    /// Starts `intent` now when nothing runs; otherwise queues it once (unless it is what runs).
    private mutating func startOrQueue(_ intent: Intent, _ edit: inout RowEdit) {
        if let running = inFlight {
            if Self.intent(of: running) != intent, !queued.contains(intent) { queued.append(intent) }
        } else {
            begin(intent, &edit)
        }
    }

    /// Starts the request for `intent` if it still makes sense; clears the failure it retries.
    private mutating func begin(_ intent: Intent, _ edit: inout RowEdit) {
        switch intent {
        case .loadOlder:
            guard case .from(let cursor) = older else { return }
            clearFailure(of: .loadOlder)
            start(.page(after: cursor))
        case .refresh:
            clearFailure(of: .refresh)
            if refreshStyle == .reload, !rows.isEmpty || older == .end {
                lastRefresh = nil
                start(.reload)
            } else if refreshStyle == .newer, let bound = rows.first?.newerBound {
                lastRefresh = nil
                start(.refresh(above: bound))
            } else {
                // Nothing to refresh above: load the first page instead.
                older = .from(nil)
                begin(.loadOlder, &edit)
            }
        case .fillGap(let id):
            guard let index = rows.index(of: id), var gap = rows[index].gap else { return }
            if lastFailed == intent { lastFailed = nil }
            gap.status = .loading
            replace(at: index, with: .gap(gap), &edit)
            start(.gap(gap))
        case .confirm(let id):
            beginConfirming(from: id)
        case .catchUp:
            clearFailure(of: .catchUp)
            guard refreshStyle == .newer else { return }
            // After a drop: above the newest row that waited before it (what arrived since is
            // newer than what it missed).
            let newest: ListRow?
            if let mark = missedSince {
                newest = waiting.first { (arrivedAt[$0.id] ?? 0) <= mark.arrivals } ?? rows.first
            } else {
                newest = waiting.first ?? rows.first
            }
            if let bound = newest?.newerBound {
                start(.catchUp(above: bound))
            } else {
                // Nothing known to ask above (an empty feed, or every row deleted): everything
                // is newer, so the first page is loaded; no row is there to be moved.
                older = .from(nil)
                begin(.loadOlder, &edit)
            }
        }
    }

    private mutating func clearFailure(of intent: Intent) {
        switch intent {
        case .loadOlder: olderFailure = nil
        case .refresh: refreshFailure = nil
        case .catchUp: catchUpFailure = nil
        case .fillGap, .confirm: break
        }
        if lastFailed == intent { lastFailed = nil }
    }

    private mutating func start(_ kind: ListRequest.Kind) {
        inFlight = ListRequest(token: nextToken, kind: kind)
        nextToken += 1
        requestMark = arrivals
    }

    /// The rest of `request` (which just answered): as far as arrivals and drops are concerned
    /// it is the same request, started when `request` did — its token and mark stay, so rows
    /// that arrived meanwhile (newer than what it now asks for) are not taken as covered.
    private mutating func proceed(_ request: ListRequest, as kind: ListRequest.Kind) {
        inFlight = ListRequest(token: request.token, kind: kind)
    }

    private mutating func runQueue(_ edit: inout RowEdit) {
        while inFlight == nil, !queued.isEmpty {
            begin(queued.removeFirst(), &edit)
        }
    }

    private static func intent(of request: ListRequest) -> Intent {
        switch request.kind {
        case .page: .loadOlder
        case .refresh, .reload: .refresh
        case .gap(let gap): .fillGap(gap.id)
        case .catchUp: .catchUp
        case .confirm(let first, _, _): .confirm(first)
        }
    }

    /// The rows not yet present, in order; rows already present are updated in place — except
    /// notification groups, which continue across pages: an older page only lowers a known
    /// group's oldest notification (the newer page's count already covers it), and a newer page
    /// brings the group's new total, so the group leaves its place and joins the new rows.
    private mutating func newRows(from items: [ListRow], newer: Bool, _ edit: inout RowEdit) -> [ListRow] {
        var fresh: [ListRow] = []
        fresh.reserveCapacity(items.count)
        var seen = Set<RowID>(minimumCapacity: items.count)
        var moved: [Int] = []
        for row in items where row.gap == nil && seen.insert(row.id).inserted {
            guard let index = rows.index(of: row.id) else {
                fresh.append(row)
                continue
            }
            if case .notification(let known) = rows[index], case .notification(let arrived) = row {
                if newer {
                    var group = arrived
                    group.group.oldestID = known.group.oldestID
                    moved.append(index)
                    fresh.append(.notification(group))
                } else {
                    var group = known
                    group.group.oldestID = arrived.group.oldestID
                    if rows[index] != .notification(group) { replace(at: index, with: .notification(group), &edit) }
                }
                continue
            }
            if rows[index] != row { replace(at: index, with: row, &edit) }
        }
        if !moved.isEmpty {
            moved.sort()
            for index in moved { edit.deleted(current: index, row: rows[index]) }
            rows.remove(at: moved)
        }
        return fresh
    }

    /// Inserts a refresh's rows above the row whose newer bound was `above` (on top when `nil`);
    /// returns how many new rows it inserted (a gap row not counted).
    @discardableResult
    private mutating func insertNewer(_ page: NewerPage<ListRow>, above top: ItemID?, _ edit: inout RowEdit) -> Int {
        var fresh = newRows(from: page.items, newer: true, &edit)
        let count = fresh.count
        lastRefresh = fresh.isEmpty ? .nothingNew : .newRows(fresh.count)
        // Nothing to show: no rows, and no gap (it would stand above the top row).
        guard !fresh.isEmpty else { return 0 }
        // The top row at the time of the request: almost always still the first. (A notification
        // group at the top that grew has just moved into `fresh`: then the new rows go first.)
        let topIndex = top.map { top in
            rows.first?.newerBound == top ? 0 : rows.index(of: .post(top.post)) ?? rows.firstIndex { $0.newerBound == top } ?? 0
        } ?? 0
        guard let oldest = page.oldestBound ?? fresh.last?.olderBound, topIndex < rows.count else {
            if !fresh.isEmpty {
                // No row to hang a gap on (every row was deleted meanwhile, or the feed was
                // empty): older pages continue below what came.
                if rows.isEmpty, page.hasMore, let oldest = page.oldestBound ?? fresh.last?.olderBound { olderPagesStart(below: oldest) }
                edit.insertedBlock(at: 0, count: fresh.count)
                rows.insert(fresh, at: 0)
            }
            return count
        }
        if page.hasMore, let below = rows[topIndex].newerBound { fresh.append(.gap(Gap(below: below, above: oldest))) }
        edit.insertedBlock(at: topIndex, count: fresh.count)
        rows.insert(fresh, at: topIndex)
        return count
    }

    private mutating func fillGap(_ id: RowID, with page: NewerPage<ListRow>, _ edit: inout RowEdit) {
        guard rows.index(of: id) != nil else { return }
        let fresh = newRows(from: page.items, newer: true, &edit)
        // Rows that moved up may have moved the gap.
        guard let gapIndex = rows.index(of: id), var gap = rows[gapIndex].gap else { return }
        if page.hasMore {
            // More is missing below what came: the gap stays, above the oldest item that came
            // (hidden by a filter or not; as it was when nothing came but posts deleted meanwhile).
            if let oldest = page.oldestBound ?? (fresh.last ?? page.items.last { $0.gap == nil })?.olderBound { gap.above = oldest }
            gap.status = .idle
            replace(at: gapIndex, with: .gap(gap), &edit)
        } else {
            edit.deleted(current: gapIndex, row: rows[gapIndex])
            rows.remove(at: [gapIndex])
        }
        edit.insertedBlock(at: gapIndex, count: fresh.count)
        rows.insert(fresh, at: gapIndex)
    }

    /// A reload: the page's rows replace every row.
    private mutating func replaceRows(with page: Page<ListRow>, _ edit: inout RowEdit) {
        let fresh = RowList(page.items.filter { $0.gap == nil })
        let added = fresh.count { !rows.contains($0.id) }
        edit.replacedAll(old: rows.array)
        rows = fresh
        older = page.next.map { .from($0) } ?? .end
        olderFailure = nil
        refreshFailure = nil
        lastRefresh = added == 0 ? .nothingNew : .newRows(added)
        if let last = lastFailed, failure(of: last) == nil { lastFailed = nil }
        queued.removeAll { if case .fillGap = $0 { true } else { false } }
    }

    private mutating func replace(at index: Int, with row: ListRow, _ edit: inout RowEdit) {
        rows.replace(at: index, with: row)
        edit.touched(row.id)
    }

    // MARK: - Streams

    /// Streamed rows wait above, newest first; a post already shown or waiting is updated in
    /// place.
    private mutating func receiveStreamed(_ arrived: [ListRow], _ edit: inout RowEdit) {
        for row in arrived.reversed() where row.gap == nil {
            if row.post != nil, let index = rows.index(of: row.id) {
                if rows[index] != row { replace(at: index, with: row, &edit) }
                continue
            }
            // A post that already waits (a catch-up brought it before the stream did) keeps its
            // place; a notification group that grew moves up.
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
    private mutating func dropShownFromWaiting(_ arrived: [ListRow], _ edit: inout RowEdit) {
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
    private func coveredArrival(_ items: [ListRow]) -> Int {
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
    private func staleArrivals(of request: ListRequest) -> Int {
        guard let mark = missedSince else { return 0 }
        if let token = mark.token, request.token >= token { return 0 }
        return mark.arrivals
    }

    /// A request from the top that started after the catch-up was asked for has covered what
    /// the stream missed.
    private mutating func coveredMissed(by request: ListRequest) {
        if let token = missedSince?.token, request.token >= token { missedSince = nil }
    }

    /// Older pages start below the item `above` (where posts may be missing); an older page on
    /// its way, asked for from further down, is asked for again from there.
    private mutating func olderPagesStart(below above: ItemID) {
        let cursor = PageCursor(above.rawValue)
        older = .from(cursor)
        if case .page(let running?)? = inFlight?.kind, running != cursor { start(.page(after: cursor)) }
    }

    /// Items may be missing between the waiting rows and the rows, from now on.
    private mutating func markMayMiss() {
        waitingMayMiss = true
        mayMissSince = nextToken
    }

    /// After a refresh (or the first page): everything newer than the old top up to the arrival
    /// `covered` is now shown or behind its gap, so only the rows that arrived later still wait
    /// — and, for an answer that may hold posts the stream missed, later than `stale`. Returns
    /// whether rows were dropped for that alone (where they belong is unknown).
    private mutating func dropCoveredWaiting(after covered: Int, stale: Int, _ edit: inout RowEdit) -> Bool {
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

    /// Removes the rows `ids` (from the rows and the waiting rows), then mends the gaps.
    ///
    /// - Complexity: O(k) for k ids (plus the array move), not O(rows).
    private mutating func removeRows(_ ids: [RowID], _ edit: inout RowEdit) {
        let indices = Set(ids.compactMap { rows.index(of: $0) }).sorted()
        for index in indices.reversed() { edit.deleted(current: index, row: rows[index]) }
        rows.remove(at: indices)
        let waitingIndices = Set(ids.compactMap { waiting.index(of: $0) }).sorted()
        edit.stoppedWaiting(waitingIndices.map { waiting[$0] })
        waiting.remove(at: waitingIndices)
        for id in ids { arrivedAt[id] = nil }
        // The last waiting rows left, and posts may be missing below them: nothing would show
        // that gap any more, so a catch-up asks above the top again.
        if !waitingIndices.isEmpty, waiting.isEmpty, waitingMayMiss, refreshStyle == .newer, !rows.isEmpty {
            catchUpAgain(&edit)
        }
        guard !indices.isEmpty else { return }
        // Where each removed row was, the rows now on either side may be two gaps.
        mendGaps(at: indices.enumerated().map { $0.element - $0.offset }, &edit)
    }

    /// After rows were removed: no gap at the top (what it stood for is above the top now:
    /// rows shown from above leave a gap below them, ``waitingMayMiss``, and with none waiting a
    /// catch-up asks above the top), no two gaps in a row (the lower one takes both ranges, and
    /// asks again for all of them if it was loading), no gap at the bottom (older pages start
    /// above it instead, an older page on its way too).
    private mutating func mendGaps(at seams: [Int], _ edit: inout RowEdit) {
        var merged = 0
        for seam in Set(seams).sorted() {
            let index = seam - merged
            guard index > 0, index < rows.count, var lower = rows[index].gap, let upper = rows[index - 1].gap else { continue }
            lower.above = upper.above
            // A gap that grew while loading (or took over one that was loading): the answer on
            // its way covers only part of it, so all of it is asked for again.
            if case .gap(let requested)? = inFlight?.kind, requested.id == lower.id || requested.id == upper.id {
                lower.status = .loading
                start(.gap(lower))
            }
            replace(at: index, with: .gap(lower), &edit)
            edit.deleted(current: index - 1, row: rows[index - 1])
            rows.remove(at: [index - 1])
            merged += 1
        }
        var droppedTop = false
        while let first = rows.first, let gap = first.gap {
            edit.deleted(current: 0, row: first)
            rows.remove(at: [0])
            droppedTop = true
            dropRequest(for: gap)
        }
        if droppedTop, refreshStyle == .newer, !rows.isEmpty {
            markMayMiss()
            if waiting.isEmpty { catchUpAgain(&edit) }
        }
        if let last = rows.last, let gap = last.gap {
            edit.deleted(current: rows.count - 1, row: last)
            rows.remove(at: [rows.count - 1])
            dropRequest(for: gap)
            olderPagesStart(below: gap.above)
        }
        if case .fillGap(let id)? = lastFailed, rows.index(of: id) == nil { lastFailed = nil }
        runQueue(&edit)
    }

    /// A gap that left while loading: its answer must not fill a later gap of the same name.
    private mutating func dropRequest(for gap: Gap) {
        if case .gap(let requested)? = inFlight?.kind, requested.id == gap.id { inFlight = nil }
    }
}

/// What reduce did to the rows, in the few shapes it produces: deletions at old indices followed
/// by at most one contiguous insertion (a gap fill), everything removed (reset), everything
/// replaced (a reload, diffed), plus rows changed in place. Turned into a ``Changeset`` against
/// the final rows.
struct RowEdit {
    let oldCount: Int
    /// The rows before, when every row was removed (reset) or replaced (reload).
    private var oldRows: [ListRow]?
    private var removedAll = false
    private var deletions: [(index: Int, row: ListRow)] = []
    private var block: (at: Int, count: Int)?
    private var touchedIDs: [RowID] = []
    /// Rows that began waiting above, and rows that stopped waiting (shown, covered by a page,
    /// removed): the view model holds the posts of waiting rows in the store, as it does the
    /// posts of rows, so that none is forgotten while it waits.
    private(set) var waitingStarted: [ListRow] = []
    private(set) var waitingStopped: [ListRow] = []

    init(oldCount: Int) { self.oldCount = oldCount }

    mutating func startedWaiting(_ row: ListRow) { waitingStarted.append(row) }
    mutating func stoppedWaiting(_ rows: some Sequence<ListRow>) { waitingStopped.append(contentsOf: rows) }

    /// The row at old index `index` was removed (before any insertion of this edit).
    mutating func deleted(_ index: Int, row: ListRow) {
        assert(block == nil && oldRows == nil, "deletions come before the insertion of an edit")
        deletions.append((index, row))
    }

    /// The row now at `current` (after this edit's earlier deletions) was removed.
    mutating func deleted(current: Int, row: ListRow) {
        var old = current
        for index in deletions.map(\.index).sorted() where index <= old { old += 1 }
        deleted(old, row: row)
    }

    mutating func insertedBlock(at index: Int, count: Int) {
        assert(block == nil, "one insertion per edit")
        if count > 0 { block = (index, count) }
    }

    /// Every row was removed; `old` are the rows before (the edit's first change).
    mutating func removeAll(old: [ListRow]) {
        assert(block == nil && deletions.isEmpty && oldRows == nil, "a reset is the first change of an edit")
        oldRows = old
        removedAll = true
    }

    /// Every row was replaced; `old` are the rows before (the edit's first change).
    mutating func replacedAll(old: [ListRow]) {
        assert(block == nil && deletions.isEmpty && oldRows == nil, "a reload is the first change of an edit")
        oldRows = old
    }

    mutating func touched(_ id: RowID) { touchedIDs.append(id) }

    /// The rows this edit removed (rows replaced by a row of the same id are not removed).
    func removedRows(in state: ListState) -> [ListRow] {
        if let oldRows {
            return removedAll ? oldRows : oldRows.filter { !state.rows.contains($0.id) }
        }
        return deletions.map(\.row)
    }

    /// The changeset from the rows before the edit to `state.rows`.
    func changeset(in state: ListState) -> Changeset<ListRow> {
        let rows = state.rows
        var changes = Changeset<ListRow>(oldCount: oldCount, newCount: rows.count)
        if removedAll {
            changes.deletions = Array(0..<oldCount)
            changes.insertions = rows.enumerated().map { .init(index: $0.offset, element: $0.element) }
            return changes
        }
        if let oldRows { return Changeset(from: oldRows, to: rows) }
        let deleted = deletions.map(\.index).sorted()
        changes.deletions = deleted
        let inserted = block.map { $0.at..<($0.at + $0.count) } ?? 0..<0
        changes.insertions = inserted.map { .init(index: $0, element: rows[$0]) }
        var seen: Set<Int> = []
        for id in touchedIDs {
            guard let newIndex = rows.index(of: id), !inserted.contains(newIndex), seen.insert(newIndex).inserted else { continue }
            // Back from new to old: undo the insertion, then step over the deleted rows.
            var oldIndex = newIndex >= inserted.upperBound ? newIndex - inserted.count : newIndex
            for index in deleted where index <= oldIndex { oldIndex += 1 }
            changes.updates.append(.init(oldIndex: oldIndex, newIndex: newIndex, element: rows[newIndex]))
        }
        changes.updates.sort { $0.newIndex < $1.newIndex }
        return changes
    }
}
