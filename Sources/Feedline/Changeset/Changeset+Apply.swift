extension Changeset {
    /// Applies this changeset to the snapshot it was computed from, yielding the new snapshot.
    ///
    /// - Precondition: `old.count == oldCount` (a changeset only fits its own old snapshot).
    /// - Complexity: O(n + m).
    public func apply(to old: some Collection<Element>) -> [Element] {
        let oldRows = Array(old)
        precondition(oldRows.count == oldCount, "changeset for \(oldCount) rows applied to \(oldRows.count)")
        var removed = [Bool](repeating: false, count: oldCount)
        for index in deletions { removed[index] = true }
        for move in moves { removed[move.from] = true }
        var replacement: [Int: Element] = [:]
        for update in updates { replacement[update.oldIndex] = update.element }

        var placed = [Element?](repeating: nil, count: newCount)
        for insertion in insertions { placed[insertion.index] = insertion.element }
        for move in moves { placed[move.to] = replacement[move.from] ?? oldRows[move.from] }

        var result: [Element] = []
        result.reserveCapacity(newCount)
        var source = 0
        for slot in 0..<newCount {
            if let element = placed[slot] {
                result.append(element)
                continue
            }
            while source < oldCount, removed[source] { source += 1 }
            guard source < oldCount else { preconditionFailure("changeset does not fit its old snapshot") }
            result.append(replacement[source] ?? oldRows[source])
            source += 1
        }
        return result
    }

    /// Applies this changeset in place. Without moves it edits `rows` run by run, so a changeset
    /// that appends k rows costs O(k) and one that inserts at the top one shift of the array.
    ///
    /// - Precondition: `rows.count == oldCount`.
    /// - Complexity: O(n + m) in general; O(k + shifted rows) without moves.
    public func apply(to rows: inout [Element]) {
        precondition(rows.count == oldCount, "changeset for \(oldCount) rows applied to \(rows.count)")
        guard moves.isEmpty else {
            rows = apply(to: rows)
            return
        }
        // Deletions from the back, one contiguous run at a time.
        var end = deletions.count
        while end > 0 {
            var start = end - 1
            while start > 0, deletions[start - 1] == deletions[start] - 1 { start -= 1 }
            rows.removeSubrange(deletions[start]...deletions[end - 1])
            end = start
        }
        // Insertions from the front, one contiguous run at a time.
        var first = 0
        while first < insertions.count {
            var last = first
            while last + 1 < insertions.count, insertions[last + 1].index == insertions[last].index + 1 { last += 1 }
            rows.insert(contentsOf: insertions[first...last].lazy.map(\.element), at: insertions[first].index)
            first = last + 1
        }
        for update in updates { rows[update.newIndex] = update.element }
    }
}
