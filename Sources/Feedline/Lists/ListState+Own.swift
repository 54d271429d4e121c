extension ListState {
    // MARK: - Transitions: one's own post

    /// Shows the user's own post, just confirmed, at once:
    /// - a row of it already there (a stream's echo came first) is brought up to date;
    /// - a list that refreshes by reloading (a thread) reloads, and shows it where the server puts it;
    /// - a list that asks for newer items shows it on top, with a gap below it that loads at once:
    ///   posts made by others between the old top and it are not skipped by the next refresh
    ///   (which asks from the new top), and the gap closes when nothing came between;
    /// - a list with nothing loaded yet leaves it to its first page.
    ///
    /// A copy of it waiting above the rows (the stream's echo) stops waiting.
    mutating func ownPosted(_ row: ListRow, _ edit: inout RowEdit) {
        if let index = rows.index(of: row.id) {
            if rows[index] != row { replace(at: index, with: row, &edit) }
            return
        }
        switch refreshStyle {
        case .reload:
            if !rows.isEmpty { startOrQueue(.refresh, &edit) }
        case .newer:
            guard !rows.isEmpty else { return }
            edit.record(waitingRows.pageBrought([row]))
            let outcome = lastRefresh
            insertNewer(NewerPage(items: [row], hasMore: true), above: rows.first?.newerBound, &edit)
            lastRefresh = outcome
            if rows.count > 1, let gap = rows[1].gap { startOrQueue(.fillGap(gap.id), &edit) }
        }
    }

    /// Puts back rows a pending delete took away, each at the index it had (or at the end when
    /// the list is shorter now), in ascending order of those indices; a row that is back already
    /// stays where it is.
    /// (Its own edit: the changeset is the difference of the rows before and after.)
    mutating func reinsert(_ reinserted: [ReinsertedRow], _ edit: inout RowEdit) {
        let missing = reinserted.sorted { $0.index < $1.index }.filter { rows.index(of: $0.row.id) == nil }
        guard !missing.isEmpty else { return }
        edit.replacedAll(old: rows.array)
        for item in missing where rows.index(of: item.row.id) == nil {
            rows.insert([item.row], at: min(max(0, item.index), rows.count))
        }
    }
}
