extension PostStore {
    /// One holder's share of an entry: the rows of it that show the post, in the order shown,
    /// and how many details show it. A list shows a post in one row almost always, so the first
    /// row is kept inline: finding a holder's rows (a mute, a delete, a change to tell) reads
    /// the entry's own array of holders, not one more array per holder and post.
    struct Showing {
        let id: Int
        /// The first row shown, `nil` when no row shows it (only details).
        private var first: RowID?
        /// The rows after the first (empty almost always).
        private var more: [RowID] = []
        /// How many details show it.
        var details: Int

        /// A share of holder `id`: `row`, or (`nil`) a detail.
        init(id: Int, row: RowID?) {
            self.id = id
            first = row
            details = row == nil ? 1 : 0
        }

        /// The rows that show the post, in the order shown.
        var rows: [RowID] {
            guard let first else { return [] }
            return more.isEmpty ? [first] : [first] + more
        }

        /// Whether neither a row nor a detail shows it any more.
        var isEmpty: Bool { first == nil && details == 0 }

        /// Appends `rows`, or those that `keep` keeps, to `list` — without an array of them.
        func appendRows(to list: inout [RowID], where keep: (RowID) -> Bool = { _ in true }) {
            guard let first else { return }
            if keep(first) { list.append(first) }
            for row in more where keep(row) { list.append(row) }
        }

        /// One more row shows it.
        mutating func append(_ row: RowID) {
            if first == nil { first = row } else { more.append(row) }
        }

        /// The earliest shown of `row` shows it no more; `false` when no row is `row`.
        mutating func remove(_ row: RowID) -> Bool {
            if first == row {
                first = more.isEmpty ? nil : more.removeFirst()
                return true
            }
            guard let position = more.firstIndex(of: row) else { return false }
            more.remove(at: position)
            return true
        }
    }
}
