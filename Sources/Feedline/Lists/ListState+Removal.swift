extension ListState {
    // MARK: - Transitions: removed rows, mending gaps

    /// Removes the rows `ids` (from the rows and the waiting rows), then mends the gaps. When
    /// the last waiting rows left and posts may be missing below them, nothing would show that
    /// gap any more, so a catch-up asks above the top again.
    ///
    /// - Complexity: O(k) for k ids (plus the array move), not O(rows).
    mutating func removeRows(_ ids: [RowID], _ edit: inout RowEdit) {
        var indices = ids.compactMap { rows.index(of: $0) }
        indices.sort()
        indices.removeDuplicatesInOrder()
        let removed = indices.map { rows[$0] }
        edit.deleted(current: indices, rows: removed)
        if !ownUnplaced.isEmpty { for row in removed { ownUnplaced[row.id] = nil } }
        rows.remove(at: indices)
        waitingLeft(waitingRows.removed(ids), &edit)
        guard !indices.isEmpty else { return }
        // Where each removed row was, the rows now on either side may be two gaps.
        mendGaps(at: indices.enumerated().map { $0.element - $0.offset }, &edit)
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
