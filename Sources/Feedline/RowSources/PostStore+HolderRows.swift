extension PostStore.Holder {
    /// Tells the store which posts a list's rows (and rows waiting above) show after one
    /// change: `changes` and `removed` from `edit`, and the rows a pending hiding holds now
    /// (`holding`, `TakenRows/held`), which the store keeps counting. Returns the events for
    /// rows changed in place that quote another post now (a quote approved, withdrawn,
    /// deleted): they hear of that one from now on, and show the store's copy of it.
    func follow(_ changes: Changeset<ListRow>, removed: [ListRow], _ edit: RowEdit, holding: Set<RowID>, in store: PostStore) -> [ListEvent] {
        // Shown before hidden, so that a post moving from waiting to the rows is never unused
        // in between (the store could forget it).
        for insertion in changes.insertions {
            // A row a pending hiding took (`TakenRows/held`), back: the store still counts it; its quote may have moved.
            if !edit.heldBack.isEmpty, edit.heldBack.contains(insertion.element.id) {
                moveQuote(of: insertion.element)
            } else {
                show(insertion.element)
            }
        }
        for row in edit.waitingStarted { show(row) }
        // Rows a hiding held that will not come back, then the rows removed (but for those it holds now).
        for row in edit.released { hide(row) }
        for row in removed where holding.isEmpty || !holding.contains(row.id) { hide(row) }
        for row in edit.waitingStopped { hide(row) }
        var quotes: [ListEvent] = []
        for update in changes.updates where moveQuote(of: update.element) {
            guard let quoted = update.element.shownPost?.quotedID else { continue }
            if store.isQuoteDeleted(quoted) {
                quotes.append(.quoteDeleted(quoted, rows: [update.element.id]))
            } else if let current = store.currentQuoted(quoted) {
                quotes.append(.quoteChanged(current, rows: [update.element.id]))
            }
        }
        return quotes
    }
}
