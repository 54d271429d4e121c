extension ListState {
    // MARK: - Transitions: rows a pending removal took (`TakenRows`)

    /// `cause` (pending) takes the rows `ids`: they leave the rows and the waiting rows as
    /// removed rows do; those of the rows are kept with their places until the server answers.
    ///
    /// - Complexity: O(k log k) for k ids, whatever the number of rows.
    mutating func rowsTaken(_ ids: [RowID], by cause: TakenRows.Cause, _ edit: inout RowEdit) {
        // The rows removed, with their places (ascending), are what the cause took.
        taken.take(removeRows(ids, &edit), by: cause)
    }

    /// The server took `cause`: its rows are gone for good; those still held are released
    /// (``RowEdit/released``: the store stops counting them).
    mutating func removalConfirmed(_ cause: TakenRows.Cause, _ edit: inout RowEdit) {
        edit.released += taken.release(taken.answered(cause).gone)
    }

    /// The server refused `cause`: its rows go back where they were, each as `current` shows it
    /// now (by id; as taken when absent from it), but for those in `stillHidden` (another cause
    /// hides them), which are released. A row already back (a page brought it) stays where it is.
    ///
    /// - Complexity: O(k log k + c) for k rows taken and c current rows.
    mutating func removalRefused(_ cause: TakenRows.Cause, current: [ListRow], stillHidden: Set<RowID>, _ edit: inout RowEdit) {
        let (back, away) = taken.answered(cause) { !stillHidden.contains($0.row.id) }
        guard !back.isEmpty || !away.isEmpty else { return }
        var latest: [RowID: ListRow] = [:]
        latest.reserveCapacity(current.count)
        for row in current { latest[row.id] = row }
        edit.released += taken.release(away)
        reinsert(back.map { ReinsertedRow(index: $0.index, row: latest[$0.row.id] ?? $0.row) }, &edit)
    }

    /// Some of the rows `cause` took may show again: those `current` has (by id) go back where
    /// they were, as `current` shows them; the rest stay taken. A row already back stays where it is.
    ///
    /// - Complexity: O(k log k + c) for k rows taken and c current rows.
    mutating func rowsPutBack(_ cause: TakenRows.Cause, current: [ListRow], _ edit: inout RowEdit) {
        var latest: [RowID: ListRow] = [:]
        for row in current { latest[row.id] = row }
        let back = taken.putBack(Set(latest.keys), of: cause)
        reinsert(back.map { ReinsertedRow(index: $0.index, row: latest[$0.row.id] ?? $0.row) }, &edit)
    }

    /// After every event: held rows that are rows again (put back, or a page brought them) are
    /// held no more; the store counts them already (``RowEdit/heldBack``). O(held), nothing when
    /// none is held.
    mutating func settleHeld(_ edit: inout RowEdit) {
        guard !taken.held.isEmpty else { return }
        edit.heldBack.formUnion(taken.shownAgain(in: rows))
    }
}

extension ListState {
    /// ``reduce(_:)``, and what the event told the store's count of this list's rows: the held
    /// rows released (the store stops counting them) and the held rows that are rows again (it
    /// counts them already) — what a view model reads from its edit (tests).
    package mutating func reduceHolding(_ event: ListEvent) -> (changes: Changeset<ListRow>, released: [ListRow], heldBack: Set<RowID>) {
        var edit = RowEdit(oldCount: rows.count)
        reduce(event, into: &edit)
        return (edit.changeset(in: self), edit.released, edit.heldBack)
    }
}
