import Feedline

/// What the REPL has shown of one list, kept in step with the list's snapshots: a value, with no
/// rendering in it (``ListPrinter`` draws what it plans).
///
/// The viewport is every row from the top down to the last row shown; rows inserted above it (a
/// refresh, a gap filled) join it, rows appended below it wait for `more`. Each snapshot's
/// changeset marks rows as inserted, changed or removed; ``plan(rows:)`` lists only those, so
/// output follows the changesets instead of redrawing. A list that is not on top keeps
/// receiving snapshots, so coming back to it shows what changed while the user was away.
package struct ListViewport: Equatable {
    /// One row to draw.
    package struct Item: Equatable {
        package enum Kind: Equatable {
            /// Not drawn before: `+` when it came in above rows already seen, else plain.
            case new(inserted: Bool)
            /// Drawn before as `previous`; its content changed (print it again if its lines did).
            case touched(previous: Int)
            /// Drawn before as `previous`; only its number may have changed.
            case renumbered(previous: Int)
        }

        package var row: ListRow
        package var number: Int
        package var kind: Kind
    }

    /// Something to say under the rows, worded by the printer (which knows what the list holds).
    package enum Note: Equatable {
        /// A refresh found nothing newer than the top row ("No newer posts.").
        case nothingNewer
        /// This many more entries the server sent could not be read and were left out.
        case skipped(Int)
    }

    /// What changed since the last plan, in the order to print it.
    package struct Plan: Equatable {
        /// Rows drawn before and gone now, with the number they had.
        package var removed: [(row: ListRow, number: Int)]
        package var items: [Item]
        package var notes: [Note]

        package static func == (lhs: Plan, rhs: Plan) -> Bool {
            lhs.items == rhs.items && lhs.notes == rhs.notes
                && lhs.removed.map(\.number) == rhs.removed.map(\.number) && lhs.removed.map(\.row) == rhs.removed.map(\.row)
        }
    }

    /// How many rows from the top are in view.
    package private(set) var shown = 0
    /// Rows the user asked to see that were not loaded yet (revealed when they arrive).
    package var owed = 0
    /// The list's status and row count at the last snapshot.
    package private(set) var status = ListStatus()
    package private(set) var total = 0
    /// Rows that came into view and were not reported to the view model yet (prefetching).
    package private(set) var toDisplay: [RowID] = []

    /// What a number typed at the prompt names on this screen (``lookup(_:in:)``).
    package enum Lookup: Equatable {
        /// The row printed with that number last.
        case row(ListRow)
        /// The row printed with that number last was removed (deleted) since.
        case removed(ListRow)
        /// No row was printed with that number.
        case none
    }

    private var lastShown: RowID?
    private var sawSnapshot = false
    /// The number each row was last printed with: its number on screen. Rows that only moved
    /// (something above them was inserted or removed) keep it until they are printed again — a
    /// number names what the screen shows, so a row number never moves under the typist.
    private var drawn: [RowID: Int] = [:]
    /// The inverse of ``drawn``: the row each number was last printed with.
    private var labelled: [Int: RowID] = [:]
    /// Numbers whose row was removed since it was printed: answered as removed until the number
    /// is printed again.
    private var removedLabels: [Int: ListRow] = [:]
    /// Every row printed at some point and still in the list, with the number it was last
    /// printed with (which another row may have taken since).
    private var seen: [RowID: Int] = [:]
    /// Where each row in view stood at the last plan (its place, 1-based): what a move is
    /// measured from.
    private var placedAt: [RowID: Int] = [:]
    private var touched: Set<RowID> = []
    private var removed: [RowID: (row: ListRow, number: Int)] = [:]
    private var revealed: Set<RowID> = []
    /// Rows were inserted, deleted or moved since the last plan (numbers may have changed).
    private var structural = true
    private var notes: [Note] = []

    /// Nothing shown yet.
    package init() {}

    package static func == (lhs: ListViewport, rhs: ListViewport) -> Bool {
        lhs.shown == rhs.shown && lhs.owed == rhs.owed && lhs.status == rhs.status && lhs.total == rhs.total
            && lhs.toDisplay == rhs.toDisplay && lhs.lastShown == rhs.lastShown && lhs.drawn == rhs.drawn
            && lhs.labelled == rhs.labelled && lhs.removedLabels == rhs.removedLabels && lhs.seen == rhs.seen && lhs.placedAt == rhs.placedAt
            && lhs.touched == rhs.touched && lhs.removed.keys == rhs.removed.keys && lhs.revealed == rhs.revealed
            && lhs.structural == rhs.structural && lhs.notes == rhs.notes
    }

    /// Takes in a snapshot: remembers what its changeset touched and reveals owed rows.
    package mutating func receive(_ snapshot: FeedListViewModel.Snapshot) {
        let rows = snapshot.rows
        let changes = snapshot.changes
        if sawSnapshot {
            for row in snapshot.removed {
                if let number = drawn[row.id] { removed[row.id] = (row, number) }
            }
            for insertion in changes.insertions { touched.insert(insertion.element.id) }
            for update in changes.updates { touched.insert(update.element.id) }
            for move in changes.moves where rows.indices.contains(move.to) { touched.insert(rows[move.to].id) }
            if !changes.insertions.isEmpty || !changes.deletions.isEmpty || !changes.moves.isEmpty { structural = true }
        } else {
            sawSnapshot = true
            touched.formUnion(rows.map(\.id))
            structural = true
        }
        let before = status
        // Everything was in view, down to the end of the list: rows added at the end (a reply
        // under the last post of a thread) come into view too, as they would on a screen.
        let sawEverything = before.reachedEnd && before.loading == nil && shown > 0 && shown == total
        status = snapshot.status
        total = rows.count
        if status.lastRefresh == 0, before.lastRefresh != 0 || before.loading == .refresh {
            notes.append(.nothingNewer)
        }
        // Said once, when the count grows: an answer left out entries it could not read.
        if status.skipped > before.skipped { notes.append(.skipped(status.skipped - before.skipped)) }
        if let lastShown {
            if let index = rows.index(of: lastShown) {
                shown = index + 1
            } else if changes.insertions.isEmpty, changes.moves.isEmpty {
                // The last row in view was removed, and nothing came in: the view is what it was
                // less what went, as when a row above it goes. A row pulled in from below would be
                // labelled with its place's number while a row moved up still shows that number.
                shown = min(shown - changes.deletions.prefix { $0 < shown }.count, rows.count)
            } else {
                shown = min(shown, rows.count)
            }
        } else {
            shown = min(shown, rows.count)
        }
        // A row that left the end of the view and comes back just below it (a refused delete,
        // mute or block of the last row in view) is back in view, where it was.
        for insertion in changes.insertions where insertion.index == shown && leftView(insertion.element.id) {
            shown += 1
        }
        lastShown = shown > 0 ? rows[shown - 1].id : nil
        // Rows inserted among those in view (a refresh, what waited above) are displayed too:
        // the list's reading position follows them.
        if sawSnapshot {
            for insertion in changes.insertions {
                if let index = rows.index(of: insertion.element.id), index < shown { toDisplay.append(insertion.element.id) }
            }
        }
        if owed > 0, shown < rows.count { reveal(owed, rows: rows) }
        if sawEverything, status.reachedEnd, shown < rows.count {
            // Not a page asked for with `more`: they came in (your reply under the last post of
            // a thread), so they are marked as new, as rows that come in above are.
            let from = shown
            reveal(rows.count - shown, rows: rows)
            for row in rows[from..<shown] { revealed.remove(row.id) }
        }
        if status.reachedEnd, shown == rows.count, status.loading == nil { owed = 0 }
    }

    /// Whether `id` was printed in view and removed since: not planned yet, or its number still
    /// answering that it was removed. O(numbers removed).
    private func leftView(_ id: RowID) -> Bool {
        removed[id] != nil || removedLabels.values.contains { $0.id == id }
    }

    /// Brings up to `count` more rows into view at the bottom; returns how many came.
    @discardableResult
    package mutating func reveal(_ count: Int, rows: RowList) -> Int {
        let available = min(count, rows.count - shown)
        guard available > 0 else { return 0 }
        for row in rows[shown..<(shown + available)] {
            revealed.insert(row.id)
            toDisplay.append(row.id)
        }
        shown += available
        owed = max(0, owed - available)
        lastShown = rows[shown - 1].id
        return available
    }

    /// Hands over the rows that came into view (for `rowWillDisplay`).
    package mutating func takeDisplayed() -> [RowID] {
        defer { toDisplay.removeAll() }
        return toDisplay
    }

    /// What `number` names: the row printed with it last (a row that moved since keeps the
    /// number it was printed with until it is printed again), a row removed since it was
    /// printed (the row again once it is back), or — for a row in view never printed — its
    /// place. O(1).
    package func lookup(_ number: Int, in rows: RowList) -> Lookup {
        if let id = labelled[number] {
            if let row = rows[id: id] { return .row(row) }
            if let gone = removed[id] { return .removed(gone.row) }
            return .none
        }
        // Removed, unless it came back since (a refused delete or mute): then it names the row.
        if let row = removedLabels[number] { return rows[id: row.id].map(Lookup.row) ?? .removed(row) }
        guard number >= 1, number <= shown, number <= rows.count, drawn[rows[number - 1].id] == nil else { return .none }
        return .row(rows[number - 1])
    }

    /// The row `number` names now (see ``lookup(_:in:)``), if it is there.
    package func row(_ number: Int, in rows: RowList) -> ListRow? {
        if case .row(let row) = lookup(number, in: rows) { return row }
        return nil
    }

    /// The row `id` is printed with `number` now: it takes the number from any row printed
    /// with it before.
    private mutating func label(_ id: RowID, _ number: Int) {
        if let old = drawn[id], labelled[old] == id { labelled[old] = nil }
        if let other = labelled[number], other != id { drawn[other] = nil }
        labelled[number] = id
        drawn[id] = number
        seen[id] = number
        removedLabels[number] = nil
    }

    /// How far the first row in view that still has its number stands from the place that
    /// number names (positive: further down), or `nil` when every number printed and still
    /// held names the row at its place — nothing a person types has moved. O(rows in view).
    package func displacement(in rows: RowList) -> Int? {
        for index in 0..<min(shown, rows.count) {
            if let label = drawn[rows[index].id], label != index + 1 { return index + 1 - label }
        }
        return nil
    }

    /// Whether every row loaded is in view.
    package var showsAll: Bool { shown == total }

    /// What to print since the last plan: removed rows, new rows, touched rows, renumbered rows
    /// (all rows in view after a structural change; only touched and revealed ones otherwise, so
    /// a favourite costs O(1), not O(rows shown)), and notes. Touched rows in `holding` (a change
    /// still on its way, which its outcome will touch again) are not printed yet: they stay
    /// touched for a later plan.
    package mutating func plan(rows: RowList, holding: Set<RowID> = []) -> Plan {
        let held = holding.isEmpty ? [] : touched.intersection(holding)
        let gone = forgetRemoved(rows: rows)
        let indices: [Int]
        if structural || !removed.isEmpty {
            indices = Array(0..<min(shown, rows.count))
        } else {
            indices = touched.union(revealed).compactMap { rows.index(of: $0) }.filter { $0 < shown }.sorted()
        }
        var items: [Item] = []
        for index in indices {
            let row = rows[index]
            let number = index + 1
            let placed = placedAt.updateValue(number, forKey: row.id)
            let moved = placed.map { $0 != number } ?? false
            if held.contains(row.id) { continue }
            if let label = drawn[row.id] {
                if touched.contains(row.id) {
                    // Printed again with the number the screen shows it with.
                    items.append(Item(row: row, number: label, kind: .touched(previous: label)))
                } else if moved, let placed {
                    // Moved, not printed: it keeps its number until list renumbers it.
                    items.append(Item(row: row, number: number, kind: .renumbered(previous: placed)))
                }
            } else if seen[row.id] != nil {
                // Printed before, its number since taken by a row printed with it: printed again
                // (with the number of its place) only when it changed.
                if touched.contains(row.id) {
                    items.append(Item(row: row, number: number, kind: .touched(previous: number)))
                    label(row.id, number)
                } else if moved, let placed {
                    items.append(Item(row: row, number: number, kind: .renumbered(previous: placed)))
                }
            } else {
                items.append(Item(row: row, number: number, kind: .new(inserted: !(revealed.contains(row.id) || seen.isEmpty))))
                label(row.id, number)
            }
        }
        let plan = Plan(removed: gone, items: items, notes: notes)
        structural = false
        touched = held
        removed.removeAll()
        revealed.removeAll()
        notes.removeAll()
        return plan
    }

    /// Forgets the rows removed since the last plan (their numbers now answer that they were
    /// removed) and returns them with their numbers, in number order.
    private mutating func forgetRemoved(rows: RowList) -> [(row: ListRow, number: Int)] {
        let present = removed.filter { !rows.contains($0.key) }
        for (id, entry) in present {
            drawn[id] = nil
            seen[id] = nil
            placedAt[id] = nil
            if labelled[entry.number] == id {
                labelled[entry.number] = nil
                removedLabels[entry.number] = entry.row
            }
        }
        return present.values.sorted { $0.number < $1.number }.map { (row: $0.row, number: $0.number) }
    }

    /// The rows in view within `bounds` (every row in view by default), for `list`: marks them
    /// drawn, and everything in view seen.
    package mutating func redraw(rows: RowList, in bounds: Range<Int>? = nil) -> [Item] {
        _ = forgetRemoved(rows: rows)
        var items: [Item] = []
        let inView = 0..<min(shown, rows.count)
        for index in (bounds ?? inView).clamped(to: inView) {
            let row = rows[index]
            items.append(Item(row: row, number: index + 1, kind: .renumbered(previous: drawn[row.id] ?? index + 1)))
            label(row.id, index + 1)
            placedAt[row.id] = index + 1
        }
        structural = false
        touched.removeAll()
        removed.removeAll()
        revealed.removeAll()
        return items
    }
}
