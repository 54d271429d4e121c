import Feedline

/// What the REPL has shown of the timeline, kept in step with the view model's snapshots.
///
/// The viewport is every row from the top down to the last row shown; rows inserted above it
/// (a refresh, a gap filled) join it, rows appended below it wait for `more`. Each snapshot's
/// changeset marks rows as inserted, changed or removed; ``flush()`` prints only those (and the
/// status line when it changed), so output follows the changesets instead of redrawing.
struct TimelineView {
    private(set) var rows: [TimelineRow] = []
    private(set) var status = TimelineStatus()
    /// How many rows from the top are in view.
    private(set) var shown = 0
    /// Rows the user asked to see that were not loaded yet (revealed when they arrive).
    var owed = 0
    private var lastShown: RowID?
    private var sawSnapshot = false
    private var printed: [RowID: (number: Int, lines: [String])] = [:]
    /// What `list` drew for each row, reused while the row, its number and its age are the same
    /// (a long session lists hundreds of rows many times).
    private var listed: [RowID: (row: TimelineRow, number: Int, age: String?, lines: [String])] = [:]
    /// Each row's index in `rows`, rebuilt when rows are inserted, deleted or moved.
    private var indexByID: [RowID: Int] = [:]
    /// Whether rows were inserted, deleted or moved since the last flush (numbers may have changed).
    private var structural = true
    private var sawIndex = false
    private var touched: Set<RowID> = []
    private var removed: [RowID: TimelineRow] = [:]
    private var revealed: Set<RowID> = []
    private var lastStatus: String?
    /// Rows inserted since a refresh started, to say so when it brings nothing.
    private var refreshInsertions: Int?
    private var notes: [String] = []
    /// Rows that came into view and have not been reported to the view model yet.
    private(set) var toDisplay: [RowID] = []

    /// Takes in a snapshot: remembers what its changeset touched and reveals owed rows.
    mutating func receive(_ snapshot: TimelineViewModel.Snapshot) {
        if sawSnapshot {
            let changes = snapshot.changes
            for index in changes.deletions where rows.indices.contains(index) {
                let row = rows[index]
                if printed[row.id] != nil { removed[row.id] = row }
            }
            for insertion in changes.insertions { touched.insert(insertion.element.id) }
            for update in changes.updates { touched.insert(update.element.id) }
            for move in changes.moves where rows.indices.contains(move.from) { touched.insert(rows[move.from].id) }
        } else {
            sawSnapshot = true
            touched.formUnion(snapshot.rows.map(\.id))
        }
        if case .refresh? = status.loading, let inserted = refreshInsertions {
            refreshInsertions = inserted + snapshot.changes.insertions.count
        }
        let wasRefreshing = status.loading == .refresh
        let changes = snapshot.changes
        if !sawIndex || !changes.insertions.isEmpty || !changes.deletions.isEmpty || !changes.moves.isEmpty {
            structural = true
            sawIndex = true
            indexByID = Dictionary(snapshot.rows.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        rows = snapshot.rows
        status = snapshot.status
        if status.loading == .refresh, !wasRefreshing { refreshInsertions = 0 }
        if wasRefreshing, status.loading != .refresh {
            if refreshInsertions == 0, status.failure?.intent != .refresh { notes.append("No newer posts.") }
            refreshInsertions = nil
        }
        if let lastShown {
            shown = indexByID[lastShown].map { $0 + 1 } ?? min(shown, rows.count)
        } else {
            shown = min(shown, rows.count)
        }
        lastShown = shown > 0 ? rows[shown - 1].id : nil
        if owed > 0, shown < rows.count { reveal(owed) }
        if status.reachedEnd, shown == rows.count, status.loading == nil { owed = 0 }
    }

    /// Brings up to `count` more rows into view at the bottom; returns how many came.
    @discardableResult
    mutating func reveal(_ count: Int) -> Int {
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
    mutating func takeDisplayed() -> [RowID] {
        defer { toDisplay.removeAll() }
        return toDisplay
    }

    /// The row shown as `number` (1-based), if it is in view.
    func row(_ number: Int) -> TimelineRow? {
        number >= 1 && number <= shown ? rows[number - 1] : nil
    }

    /// The lines that show what changed since the last flush: removed rows, new rows (`+` when
    /// inserted above rows already seen), changed rows (`~`), a note when rows were renumbered,
    /// and the status line when it changed.
    mutating func flush(_ renderer: RowRenderer) -> [String] {
        var lines: [String] = []
        let present = removed.isEmpty ? [] : Set(rows.map(\.id))
        for (id, row) in removed.sorted(by: { ($0.value.number(in: printed) ?? 0) < ($1.value.number(in: printed) ?? 0) })
        where !present.contains(id) {
            lines.append(removedLine(row, renderer: renderer))
            printed[id] = nil
            listed[id] = nil
        }
        var shift: Int?
        // Numbers change only through insertions, deletions and moves. Without them, only the
        // touched and revealed rows can need drawing, so a favourite costs O(1), not O(rows shown).
        let indices: [Int]
        if structural || !removed.isEmpty {
            indices = Array(0..<shown)
        } else {
            indices = touched.union(revealed).compactMap { indexByID[$0] }.filter { $0 < shown }.sorted()
        }
        structural = false
        for index in indices {
            let row = rows[index]
            let number = index + 1
            if let before = printed[row.id] {
                if touched.contains(row.id) {
                    let drawn = renderer.lines(row, number: number)
                    if drawn != before.lines {
                        lines += RowRenderer.marked(drawn, "~")
                        printed[row.id] = (number, drawn)
                        continue
                    }
                }
                if before.number != number {
                    if shift == nil { shift = number - before.number }
                    printed[row.id] = (number, renderer.lines(row, number: number))
                }
            } else {
                let marker: Character = revealed.contains(row.id) || printed.isEmpty ? " " : "+"
                let drawn = renderer.lines(row, number: number)
                lines += RowRenderer.marked(drawn, marker)
                printed[row.id] = (number, drawn)
            }
        }
        if let shift, shift != 0 {
            let direction = shift > 0 ? "down" : "up"
            lines.append(renderer.style.dim("Rows seen before moved \(direction) by \(abs(shift)); list shows them renumbered."))
        }
        touched.removeAll()
        removed.removeAll()
        revealed.removeAll()
        lines += notes.map(renderer.style.dim)
        notes.removeAll()
        lines += statusIfChanged(renderer)
        return lines
    }

    /// Every row in view and the status line (the `list` command).
    mutating func redraw(_ renderer: RowRenderer) -> [String] {
        var lines: [String] = []
        for index in 0..<shown {
            let row = rows[index]
            let number = index + 1
            let age = row.post?.relativeTime(renderer.clock)
            let drawn: [String]
            if let cached = listed[row.id], cached.number == number, cached.age == age, cached.row == row {
                drawn = cached.lines
            } else {
                drawn = renderer.lines(row, number: number)
                listed[row.id] = (row, number, age, drawn)
            }
            lines += drawn
            printed[row.id] = (number, drawn)
        }
        touched.removeAll()
        removed.removeAll()
        revealed.removeAll()
        let status = renderer.statusLine(status, shown: shown, total: rows.count)
        lastStatus = status
        return lines + [status]
    }

    /// The status line, when it differs from the one printed last.
    mutating func statusIfChanged(_ renderer: RowRenderer) -> [String] {
        let line = renderer.statusLine(status, shown: shown, total: rows.count)
        guard line != lastStatus else { return [] }
        lastStatus = line
        return [line]
    }

    private func removedLine(_ row: TimelineRow, renderer: RowRenderer) -> String {
        let what: String = switch row {
        case .post(let post): "post by " + TextWidth.oneLine(post.author.name)
        case .gap: "gap (nothing is missing there any more)"
        }
        let number = row.number(in: printed).map { " (was row \($0))" } ?? ""
        return renderer.style.dim(TextWidth.truncate("-     removed: " + what + number, to: renderer.width))
    }
}

extension TimelineRow {
    fileprivate func number(in printed: [RowID: (number: Int, lines: [String])]) -> Int? {
        printed[id]?.number
    }
}
