extension ListState {
    // MARK: - Transitions: removed rows, mending gaps

    /// Removes the rows `ids` (from the rows and the waiting rows), then mends the gaps. When
    /// the last waiting rows left and posts may be missing below them, nothing would show that
    /// gap any more, so a catch-up asks above the top again.
    ///
    /// Returns the rows removed from the rows, with the places they had, ascending.
    ///
    /// - Complexity: O(k log k) for k ids (`RowList/remove(ids:)`), not O(rows).
    @discardableResult
    mutating func removeRows(_ ids: [RowID], _ edit: inout RowEdit) -> [ReinsertedRow] {
        // One look-up per id (`RowList/remove(ids:)`): the rows with the places they had.
        let removed = rows.remove(ids: ids).map { ReinsertedRow(index: $0.index, row: $0.row) }
        edit.deleted(current: removed.map(\.index), rows: removed.map(\.row))
        if !ownUnplaced.isEmpty { for item in removed { ownUnplaced[item.row.id] = nil } }
        waitingLeft(waitingRows.removed(ids), &edit)
        guard !removed.isEmpty else { return removed }
        // Where each removed row was, the rows now on either side may be two gaps.
        mendGaps(at: removed.enumerated().map { $0.element.index - $0.offset }, &edit)
        return removed
    }

    /// After rows were removed: no gap at the top, nor right below one's own posts on top (`topRow`; what
    /// it stood for is above the top now:
    /// rows shown from above leave a gap below them, `WaitingRows/topGapDropped(nextToken:)`,
    /// and with none waiting a catch-up asks above the top), no two gaps in a row (the lower one
    /// takes both ranges, and asks again for all of them if it was loading), no gap at the
    /// bottom (older pages start above it instead, an older page on its way too).
    private mutating func mendGaps(at seams: [Int], _ edit: inout RowEdit) {
        var merged = 0
        var seams = seams
        seams.removeDuplicatesInOrder()
        for seam in seams {
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
        while rows.indices.contains(topRowIndex), let gap = rows[topRowIndex].gap {
            let index = topRowIndex
            edit.deleted(current: index, row: rows[index])
            rows.remove(at: [index])
            droppedTop = true
            dropRequest(for: gap)
        }
        if droppedTop, refreshStyle == .newer {
            // Also when no row is left: what waits then goes on top with older pages below it.
            waitingRows.topGapDropped(nextToken: nextToken)
            if waitingRows.isEmpty, !rows.isEmpty { catchUpAgain(&edit) }
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
