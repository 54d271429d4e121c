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
    /// Rows inserted one at a time anywhere, instead of a block (rows put back where they were).
    private var scattered: [RowID] = []
    private var touchedIDs: [RowID] = []
    /// Rows that began waiting above, and rows that stopped waiting (shown, covered by a page,
    /// removed): the view model holds the posts of waiting rows in the store, as it does the
    /// posts of rows, so that none is forgotten while it waits.
    private(set) var waitingStarted: [ListRow] = []
    private(set) var waitingStopped: [ListRow] = []
    /// Rows a pending account hiding held (`TakenRows/held`) that will not come back: the view
    /// model stops the store counting them as shown.
    var released: [ListRow] = []
    /// Held rows that are rows again: the store counts them already, so the view model does not
    /// show them to it again (it only moves their quote).
    var heldBack: Set<RowID> = []

    init(oldCount: Int) { self.oldCount = oldCount }

    /// Rows began or stopped waiting above (a `WaitingRows` transition's change).
    mutating func record(_ change: WaitingRows.Change) {
        waitingStarted.append(contentsOf: change.started)
        waitingStopped.append(contentsOf: change.stopped)
    }

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

    /// The rows now at `indices` (ascending, distinct; after this edit's earlier deletions)
    /// were removed. O((d + k) log d) for d earlier deletions and k rows.
    mutating func deleted(current indices: [Int], rows: [ListRow]) {
        let earlier = deletions.map(\.index).sorted()
        var passed = 0
        for (index, row) in zip(indices, rows) {
            // Its old index steps over the earlier deletions at or above it, as many as stood before it.
            while passed < earlier.count, earlier[passed] <= index + passed { passed += 1 }
            deleted(index + passed, row: row)
        }
    }

    mutating func insertedBlock(at index: Int, count: Int) {
        assert(block == nil && scattered.isEmpty, "one insertion per edit")
        if count > 0 { block = (index, count) }
    }

    /// The row `id` was inserted wherever it stands at the end of the edit (after the edit's
    /// deletions; an edit of such insertions has no block).
    mutating func inserted(_ id: RowID) {
        assert(block == nil && oldRows == nil, "rows inserted one at a time instead of a block")
        scattered.append(id)
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
        let inserted = block.map { Array($0.at..<($0.at + $0.count)) } ?? Set(scattered.compactMap { rows.index(of: $0) }).sorted()
        changes.insertions = inserted.map { .init(index: $0, element: rows[$0]) }
        var seen: Set<Int> = []
        for id in touchedIDs {
            guard let newIndex = rows.index(of: id), seen.insert(newIndex).inserted else { continue }
            // Back from new to old: undo the insertions, then step over the deleted rows.
            let insertedAbove = inserted.count(below: newIndex + 1)
            if insertedAbove > 0, inserted[insertedAbove - 1] == newIndex { continue }
            var oldIndex = newIndex - insertedAbove
            for index in deleted where index <= oldIndex { oldIndex += 1 }
            changes.updates.append(.init(oldIndex: oldIndex, newIndex: newIndex, element: rows[newIndex]))
        }
        changes.updates.sort { $0.newIndex < $1.newIndex }
        return changes
    }

}
