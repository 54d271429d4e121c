extension ListState {
    // MARK: - Transitions: refresh and gaps

    /// A refresh (items newer than the row whose newer bound was `above`) answered `request`.
    /// Its new rows go on top, with a gap row below them when more may be missing — also when
    /// posts went missing below the top after it started (a delete dropped a gap there). A full
    /// page with nothing new to show (a filter hid its posts, they were deleted while it came,
    /// or they are one's own posts shown already) goes on below that page as the same request,
    /// once per page; what waits is not covered until it ends. Then the waiting rows it covered stop waiting
    /// (`WaitingRows/refreshAnswered(_:token:shown:newRows:hasMore:nextToken:)`), and a
    /// failed catch-up counts as answered: it asked for what this brought.
    mutating func refreshAnswered(_ page: NewerPage<ListRow>, for request: ListRequest, above: ItemID, _ edit: inout RowEdit) {
        inFlight = nil
        var bounded = page
        bounded.hasMore = page.hasMore || waitingRows.mayMiss(after: request.token)
        let inserted = insertNewer(bounded, above: above, &edit)
        if inserted == 0, page.hasMore, let oldest = page.oldestBound ?? page.items.last(where: { $0.gap == nil })?.olderBound {
            proceed(request, as: .refresh(above: above, olderThan: oldest))
            return
        }
        edit.record(waitingRows.refreshAnswered(
            page.items, token: request.token, shown: rows, newRows: inserted, hasMore: page.hasMore, nextToken: nextToken))
        clearFailure(of: .catchUp)
        runQueue(&edit)
    }

    /// A gap fill answered: its rows go in the gap (which stays, smaller, when more is missing)
    /// — one's own posts not placed yet among them too, where the page has them — and stop
    /// waiting if they waited. A page with nothing to show (filtered or deleted) that
    /// left the gap open goes on below it at once, once per page, so that opening a gap shows
    /// something.
    mutating func gapAnswered(_ page: NewerPage<ListRow>, for gap: Gap, _ edit: inout RowEdit) {
        inFlight = nil
        fillGap(gap.id, with: page, &edit)
        dropShownFromWaiting(page.items, &edit)
        if page.items.isEmpty, page.hasMore, page.oldestBound != nil, rows[id: gap.id]?.gap != nil {
            begin(.fillGap(gap.id), &edit)
            return
        }
        runQueue(&edit)
    }

    /// Whether a newer page reaches the rows shown: its oldest post is a row already — below
    /// the row at `below` when given (a gap's), and not one of one's own posts not placed yet,
    /// which stand out of the server's order and tell nothing of what lies between the page and
    /// the rows.
    func reachesRows(_ page: NewerPage<ListRow>, below: Int? = nil) -> Bool {
        guard let oldest = page.items.last(where: { $0.post != nil }), let index = rows.index(of: oldest.id) else { return false }
        if let below, index <= below { return false }
        return !isOwnUnplaced(rows[index])
    }

    /// Inserts a refresh's rows above the row whose newer bound was `above` (below one's own
    /// posts on top, ``ListState/topRow``, when `nil`); returns how many new rows it inserted (a
    /// gap row not counted). One's own posts not placed yet go among them where they belong —
    /// where the page has them, or, on top, for rows that waited (`arrivals`: when each arrived)
    /// by the stream's order (see `takeOwnPlaced(by:fresh:arrivals:atTop:_:)`); the others on
    /// top stay above them.
    @discardableResult
    mutating func insertNewer(_ page: NewerPage<ListRow>, above top: ItemID?, arrivals: [RowID: Int]? = nil, _ edit: inout RowEdit) -> Int {
        var fresh = newRows(from: page.items, newer: true, &edit)
        let count = fresh.count
        lastRefresh = fresh.isEmpty ? .nothingNew : .newRows(fresh.count)
        // Nothing to show: no rows, and no gap (it would stand above the top row).
        guard !fresh.isEmpty else {
            if !page.hasMore { ownPlaced(by: page.items) }
            return 0
        }
        let oldest = page.oldestBound ?? fresh.last?.olderBound
        let placed = takeOwnPlaced(by: page.items, fresh: fresh, arrivals: arrivals, atTop: true, &edit)
        // The top row at the time of the request: almost always still the first below one's own
        // posts on top. (A notification group at the top that grew has just moved into `fresh`:
        // then the new rows go first.)
        let first = topRowIndex
        let topIndex = top.map { top in
            topRow?.newerBound == top ? first : rows.index(of: .post(top.post)) ?? rows.firstIndex { $0.newerBound == top } ?? first
        } ?? first
        guard let oldest, topIndex < rows.count else {
            // No row to hang a gap on (every row but one's own posts on top was deleted
            // meanwhile, or the feed was empty): older pages continue below what came.
            if first == rows.count, page.hasMore, let oldest { olderPagesStart(below: oldest) }
            fresh = Self.merging(fresh, placed)
            edit.insertedBlock(at: first, count: fresh.count)
            rows.insert(fresh, at: first)
            return count
        }
        fresh = Self.merging(fresh, placed)
        if page.hasMore, let below = rows[topIndex].newerBound { fresh.append(.gap(Gap(below: below, above: oldest))) }
        edit.insertedBlock(at: topIndex, count: fresh.count)
        rows.insert(fresh, at: topIndex)
        return count
    }

    /// Older pages start below the item `above` (where posts may be missing); an older page on
    /// its way, asked for from further down, is asked for again from there.
    mutating func olderPagesStart(below above: ItemID) {
        let cursor = PageCursor(above.rawValue)
        older = .from(cursor)
        if case .page(let running?)? = inFlight?.kind, running != cursor { start(.page(after: cursor)) }
    }

    private mutating func fillGap(_ id: RowID, with page: NewerPage<ListRow>, _ edit: inout RowEdit) {
        guard rows.index(of: id) != nil else { return }
        var fresh = newRows(from: page.items, newer: true, &edit)
        // One's own posts not placed yet that it brings go where it has them.
        let placed = takeOwnPlaced(by: page.items, fresh: fresh, arrivals: nil, atTop: false, &edit)
        // Rows that moved up may have moved the gap.
        guard let gapIndex = rows.index(of: id), var gap = rows[gapIndex].gap else { return }
        if page.hasMore {
            // More is missing below what came: the gap stays, above the oldest item that came
            // (hidden by a filter or not, shown already or not: one's own post placed just now
            // came too; as it was when nothing came but posts deleted meanwhile).
            if let oldest = page.oldestBound ?? page.items.last(where: { $0.gap == nil })?.olderBound { gap.above = oldest }
            gap.status = .idle
            replace(at: gapIndex, with: .gap(gap), &edit)
        } else {
            edit.deleted(current: gapIndex, row: rows[gapIndex])
            rows.remove(at: [gapIndex])
        }
        fresh = Self.merging(fresh, placed)
        edit.insertedBlock(at: gapIndex, count: fresh.count)
        rows.insert(fresh, at: gapIndex)
    }
}
