extension ListState {
    // MARK: - Transitions: older pages, reloads, reset

    /// The list became visible: the first page loads when there are no rows, nothing runs,
    /// nothing failed and the server has not said there is nothing.
    mutating func appeared(_ edit: inout RowEdit) {
        if rows.isEmpty, inFlight == nil, olderFailure == nil, older != .end {
            startOrQueue(.loadOlder, &edit)
        }
    }

    /// The row `id` is about to be displayed: within ``prefetchDistance`` of the end it asks
    /// for the next page — unless the last older page failed (then only load-more or retry
    /// asks again) or there is nothing older.
    mutating func prefetch(near id: RowID, _ edit: inout RowEdit) {
        guard let index = rows.index(of: id), index >= rows.count - prefetchDistance,
            case .from = older, olderFailure == nil
        else { return }
        startOrQueue(.loadOlder, &edit)
    }

    /// An older page (or the first page, `cursor` `nil`) answered `request`: its new rows go
    /// below the rows, rows already present are updated in place. The first page is the
    /// newest: it covers what waited before it; a later page only takes the rows it brings out
    /// of the waiting rows. Older pages then continue after its cursor (or end).
    mutating func pageAnswered(_ page: Page<ListRow>, after cursor: PageCursor?, for request: ListRequest, _ edit: inout RowEdit) {
        inFlight = nil
        var fresh = newRows(from: page.items, newer: false, &edit)
        let above = cursor == nil ? takeAboveShown(&fresh, of: page.items) : []
        edit.insertedBlock(at: rows.count, count: fresh.count)
        rows.insert(fresh, at: rows.count)
        if cursor == nil {
            keepOnTop(page)
            firstPageCoversWaiting(page.items, for: request, &edit)
            // Newer than a row shown while the page came: they wait above, as the stream's
            // arrivals do (oldest first), for the person to show them.
            for row in above.reversed() { edit.record(waitingRows.arrived(row, nextToken: nextToken)) }
        } else {
            dropShownFromWaiting(fresh, &edit)
        }
        older = page.next.map { .from($0) } ?? .end
        clearFailure(of: .loadOlder)
        runQueue(&edit)
    }

    /// The new rows of a first page that stand, in the page, above a row shown already (not one
    /// of one's own posts out of the server's order): taken out of `fresh`, newest first. Rows
    /// can be shown before the first page comes — arrivals shown while it came, after every row
    /// was deleted and the list started over — and a page only appends below the rows: put
    /// there, a post newer than a row shown stood under it for good.
    private func takeAboveShown(_ fresh: inout [ListRow], of items: [ListRow]) -> [ListRow] {
        guard !fresh.isEmpty, rows.contains(where: { !isOwnUnplaced($0) }) else { return [] }
        guard let anchor = items.firstIndex(where: { item in rows.index(of: item.id).map { !isOwnUnplaced(rows[$0]) } ?? false }) else {
            return []
        }
        let newer = Set(items[..<anchor].map(\.id))
        let above = fresh.filter { newer.contains($0.id) }
        fresh.removeAll { newer.contains($0.id) }
        return above
    }

    /// A reload answered: its rows replace every row, and stop waiting if they waited.
    mutating func reloadAnswered(_ page: Page<ListRow>, _ edit: inout RowEdit) {
        inFlight = nil
        replaceRows(with: page, &edit)
        keepOnTop(page)
        if refreshStyle == .newer {
            // Asked for as a reload, not a refresh: it says nothing of what is newer.
            lastRefresh = nil
            reloadFailure = nil
            if lastFailed == .reload { lastFailed = nil }
            // Saved copies the page did not bring again are gone from the rows.
            unconfirmed = unconfirmed.filter { rows.contains($0) || waiting.contains($0) }
            confirmAsked = confirmAsked.filter { rows.contains($0) }
        }
        dropShownFromWaiting(page.items, &edit)
        runQueue(&edit)
    }

    /// Start over: no rows, nothing waiting, restored or failed; what is in flight or queued
    /// is dropped; the first page loads. The token counter goes on, so late answers stay stale.
    mutating func resetAll(_ edit: inout RowEdit) {
        edit.removeAll(old: rows.array)
        rows.removeAll()
        unconfirmed = []
        confirmAsked = []
        ownUnplaced = [:]
        edit.record(waitingRows.reset())
        catchUpFailure = nil
        older = .from(nil)
        olderFailure = nil
        refreshFailure = nil
        reloadFailure = nil
        inFlight = nil
        queued = []
        lastFailed = nil
        lastRefresh = nil
        skipped = 0
        begin(.loadOlder, &edit)
    }

    /// A reload: the page's rows replace every row.
    /// The rows a first page or a reload puts on top out of the server's newest-first order
    /// (`Page.onTop`: an account's pinned posts) stay there: like one's own posts not placed
    /// yet (``ownUnplaced``), newer pages are asked above the row below them and go below them,
    /// until a page places one where it belongs.
    private mutating func keepOnTop(_ page: Page<ListRow>) {
        guard refreshStyle == .newer else { return }
        for item in page.items.prefix(page.onTop) where rows.contains(item.id) { ownUnplaced[item.id] = .max }
    }

    private mutating func replaceRows(with page: Page<ListRow>, _ edit: inout RowEdit) {
        let fresh = RowList(page.items.filter { $0.gap == nil })
        let added = fresh.count { !rows.contains($0.id) }
        edit.replacedAll(old: rows.array)
        rows = fresh
        ownUnplaced = [:]
        older = page.next.map { .from($0) } ?? .end
        olderFailure = nil
        refreshFailure = nil
        lastRefresh = added == 0 ? .nothingNew : .newRows(added)
        if let last = lastFailed, failure(of: last) == nil { lastFailed = nil }
        queued.removeAll { if case .fillGap = $0 { true } else { false } }
    }
}
