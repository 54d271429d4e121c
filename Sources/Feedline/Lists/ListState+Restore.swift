extension ListState {
    // MARK: - Transitions: restored rows, confirming them, the reading position

    /// Rows from an earlier run (`ListEvent/restored(rows:waiting:older:confirmed:)`) are
    /// taken when the list is untouched; the rows in `confirmed` (fresh server copies) are not
    /// marked as saved copies.
    mutating func restored(_ saved: [ListRow], waiting newer: [ListRow], older cursor: PageCursor?, confirmed: Set<RowID>, _ edit: inout RowEdit) {
        restore(saved, waiting: newer, older: cursor, &edit)
        if !unconfirmed.isEmpty { unconfirmed.subtract(confirmed) }
    }

    /// A kept reading position becomes the list's when it has none or the kept one is newer.
    mutating func positionRestored(_ saved: ReadingPosition) {
        if position.map({ saved.isNewer(than: $0) }) ?? true { position = saved }
    }

    /// The reading position moves to the row `id` (a post, or a notification group's newest
    /// notification) if it is newer than the position: above it in the list, or — when the
    /// position's row is not in the list — written later.
    mutating func advancePosition(to id: RowID) {
        guard let index = rows.index(of: id) else { return }
        let seen: ReadingPosition
        switch rows[index] {
        case .post(let row):
            // One's own post not placed yet is out of the server's order: what is below it is not read.
            guard !row.isSending, ownUnplaced[id] == nil else { return }
            seen = ReadingPosition(row.post)
        case .notification(let row): seen = ReadingPosition(id: row.group.newestID, createdAt: row.group.latestAt)
        case .gap, .account, .tag, .domain, .conversation, .userList, .filter, .announcement, .scheduled, .notificationRequest: return
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

    /// A restored row nothing has confirmed comes into view: its stretch is asked for again,
    /// once (lists that reload do not confirm).
    mutating func confirmWhenDisplayed(_ id: RowID, _ edit: inout RowEdit) {
        if unconfirmed.contains(id), !confirmAsked.contains(id), refreshStyle == .newer { startOrQueue(.confirm(id), &edit) }
    }

    /// A confirming request answered: the rows it brought are confirmed (already, on arrival)
    /// and take the server's copy in place; nothing new is inserted: the range is one the
    /// reader has seen already.
    mutating func confirmAnswered(_ page: NewerPage<ListRow>, _ edit: inout RowEdit) {
        inFlight = nil
        for item in page.items where item.post != nil {
            if let index = rows.index(of: item.id), rows[index] != item { replace(at: index, with: item, &edit) }
        }
        runQueue(&edit)
    }

    /// Asks again for the stretch of restored rows from `id` down — up to ``confirmDepth`` rows,
    /// above the next row below them (`since_id` leaves that bound out; the last row is brought
    /// by the first older page) — unless every row of it was asked for already.
    mutating func beginConfirming(from id: RowID) {
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
    mutating func confirm(_ items: [ListRow]) {
        guard !unconfirmed.isEmpty else { return }
        for item in items { unconfirmed.remove(item.id) }
    }

    /// Rows from an earlier run: shown at once, the saved newer ones waiting above; then a
    /// catch-up above the first screen's last post confirms that screen and brings what is new.
    /// Ignored once the list has rows, waiting rows or a request.
    private mutating func restore(_ saved: [ListRow], waiting newer: [ListRow], older cursor: PageCursor?, _ edit: inout RowEdit) {
        guard rows.isEmpty, waitingRows.isEmpty, inFlight == nil else { return }
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
        // The saved newer rows wait above, as streamed ones would.
        for row in newer.reversed() where row.gap == nil && !seen.contains(row.id) && !waitingRows.rows.contains(row.id) {
            edit.record(waitingRows.arrived(row, nextToken: nextToken))
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
}
