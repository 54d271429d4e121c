extension WaitingRows {
    // MARK: - Transitions: rows that leave

    /// The user asked to see what waits; `current` are those rows with the store's latest
    /// copies. Every row stops waiting; the returned page is what goes on top of the list, as a
    /// refresh's would, newest first, with `hasMore` when a gap row must stand below it.
    ///
    /// While a catch-up after a reconnect has not come back (``missedSince``), posts may be
    /// missing between the rows that arrived since the reconnect and the older ones: only the
    /// newer go on top, with a gap below them that stands for the rest (opening it brings them
    /// back, in order), and the drop counts as covered. With nothing arrived since the reconnect,
    /// what waits goes on top and the catch-up brings the rest above it. With nothing waiting,
    /// nothing changes.
    package mutating func shown(current: [ListRow]) -> (page: NewerPage<ListRow>, change: Change) {
        guard !rows.isEmpty else { return (NewerPage(items: [], hasMore: false), Change()) }
        var latest: [RowID: ListRow] = [:]
        for row in current { latest[row.id] = row }
        var items = rows.map { latest[$0.id] ?? $0 }
        var missing = mayMiss
        if let mark = missedSince {
            // What arrived since the reconnect goes on top, with a gap below it for what the
            // stream missed and what waited before (the catch-up would have placed those). With
            // nothing arrived since, what waits is older than what was missed: it goes on top,
            // and the catch-up brings the rest above it.
            let newer = items.filter { (arrivedAt[$0.id] ?? 0) > mark.arrivals }
            if !newer.isEmpty {
                items = newer
                missing = true
                missedSince = nil
            }
        }
        let change = Change(stopped: Array(rows))
        rows.removeAll()
        arrivedAt.removeAll()
        mayMiss = false
        return (NewerPage(items: items, hasMore: missing), change)
    }

    /// The posts of the rows `ids` were deleted: those that wait stop waiting.
    ///
    /// - Complexity: O(k) for k ids (plus the array move).
    package mutating func removed(_ ids: [RowID]) -> Change {
        // Nothing waits (most of the time): nothing to look up.
        guard !rows.isEmpty || !arrivedAt.isEmpty else { return Change() }
        let change = Change(stopped: rows.remove(ids: ids).map(\.row))
        for id in ids { arrivedAt[id] = nil }
        return change
    }

    /// A delete dropped a gap row from the top of the list: what it stood for is above the
    /// top now, so posts may be missing between what waits and the rows, from the request with
    /// `nextToken` on.
    package mutating func topGapDropped(nextToken: Int) {
        postsMayBeMissing(nextToken: nextToken)
    }

    /// The list starts over: nothing waits, nothing may be missing, no drop is pending. The
    /// counters (``arrivals``, ``requestMark``, ``mayMissSince``) stay: they only order events.
    package mutating func reset() -> Change {
        let change = Change(stopped: Array(rows))
        rows.removeAll()
        arrivedAt.removeAll()
        mayMiss = false
        missedSince = nil
        return change
    }
}
