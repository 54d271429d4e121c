extension Changeset {
    /// The changeset that turns `old` into `new`.
    ///
    /// Rows are matched by `id`. Duplicate ids are matched in order — the k-th occurrence in
    /// `old` pairs with the k-th unmatched occurrence in `new` — and the rest become deletions and
    /// insertions, so any input, duplicates included, yields a changeset that ``apply(to:)->[Element]`` turns
    /// into `new`. Moves are as few as possible: the matched rows that keep their relative order
    /// (a longest increasing subsequence) stay put; the others move.
    ///
    /// The common prefix and suffix (rows whose ids line up) are trimmed first, so appending,
    /// prepending or updating rows in place never hashes the untouched rows.
    ///
    /// - Complexity: O(n + m) expected for n old and m new rows (ids hashed at most once each,
    ///   in a compact open-addressing table), plus O(k log k) for the k rows matched between the
    ///   trimmed prefix and suffix.
    ///
    /// Inlinable so that the diff is specialised for the caller's row type: generic code called
    /// across the module boundary pays a witness-table call for every `id` read and comparison.
    @inlinable
    public init(from old: some Collection<Element>, to new: some Collection<Element>) {
        let result = old.withContiguousStorageIfAvailable { oldBuffer in
            new.withContiguousStorageIfAvailable { newBuffer in
                Changeset.compute(oldBuffer, newBuffer)
            }
        }
        if let computed = result ?? nil {
            self = computed
        } else {
            let oldArray = ContiguousArray(old)
            let newArray = ContiguousArray(new)
            self = oldArray.withUnsafeBufferPointer { oldBuffer in
                newArray.withUnsafeBufferPointer { newBuffer in
                    Changeset.compute(oldBuffer, newBuffer)
                }
            }
        }
    }

    @inlinable
    static func compute(_ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>) -> Changeset {
        let oldCount = old.count
        let newCount = new.count
        var changes = Changeset(oldCount: oldCount, newCount: newCount)

        // Common prefix: same ids at the same positions.
        var prefix = 0
        let shorter = min(oldCount, newCount)
        while prefix < shorter, old[prefix].id == new[prefix].id {
            if old[prefix] != new[prefix] {
                changes.updates.append(Update(oldIndex: prefix, newIndex: prefix, element: new[prefix]))
            }
            prefix += 1
        }

        // Common suffix, not overlapping the prefix.
        var suffix = 0
        while suffix < shorter - prefix, old[oldCount - 1 - suffix].id == new[newCount - 1 - suffix].id {
            suffix += 1
        }
        let oldEnd = oldCount - suffix
        let newEnd = newCount - suffix

        if prefix == oldEnd {
            for index in prefix..<newEnd {
                changes.insertions.append(Insertion(index: index, element: new[index]))
            }
        } else if prefix == newEnd {
            changes.deletions.append(contentsOf: prefix..<oldEnd)
        } else {
            matchMiddle(old, new, oldRange: prefix..<oldEnd, newRange: prefix..<newEnd, into: &changes)
        }

        for offset in stride(from: suffix, to: 0, by: -1) {
            let oldIndex = oldCount - offset
            let newIndex = newCount - offset
            if old[oldIndex] != new[newIndex] {
                changes.updates.append(Update(oldIndex: oldIndex, newIndex: newIndex, element: new[newIndex]))
            }
        }
        return changes
    }

    /// Matches the rows between the trimmed prefix and suffix by id.
    @inlinable
    static func matchMiddle(
        _ old: UnsafeBufferPointer<Element>,
        _ new: UnsafeBufferPointer<Element>,
        oldRange: Range<Int>,
        newRange: Range<Int>,
        into changes: inout Changeset
    ) {
        var table = IndexTable(capacityFor: oldRange.count)
        // Occurrences of an id in old, chained in ascending order from the head in the table.
        var nextOccurrence = [Int32](repeating: -1, count: oldRange.count)
        for index in oldRange.reversed() {
            let id = old[index].id
            let local = Int32(index - oldRange.lowerBound)
            let slot = table.slot(for: id) { old[oldRange.lowerBound + Int($0)].id == id }
            if table.slots[slot] >= 0 {
                nextOccurrence[Int(local)] = table.slots[slot]
            }
            table.slots[slot] = local
        }

        var matchedOld = [Bool](repeating: false, count: oldRange.count)
        // Old index of each matched new row, in new order; -1 for insertions.
        var partner = [Int32](repeating: -1, count: newRange.count)
        for index in newRange {
            let id = new[index].id
            let slot = table.slot(for: id) { old[oldRange.lowerBound + Int($0)].id == id }
            let head = table.slots[slot]
            if head >= 0 {
                table.slots[slot] = nextOccurrence[Int(head)] >= 0 ? nextOccurrence[Int(head)] : -2
                matchedOld[Int(head)] = true
                partner[index - newRange.lowerBound] = head
            }
        }

        for local in 0..<oldRange.count where !matchedOld[local] {
            changes.deletions.append(oldRange.lowerBound + local)
        }

        let staying = longestIncreasingRun(partner)
        for local in 0..<newRange.count {
            let newIndex = newRange.lowerBound + local
            let oldLocal = partner[local]
            if oldLocal < 0 {
                changes.insertions.append(Insertion(index: newIndex, element: new[newIndex]))
                continue
            }
            let oldIndex = oldRange.lowerBound + Int(oldLocal)
            if !staying[local] {
                changes.moves.append(Move(from: oldIndex, to: newIndex))
            }
            if old[oldIndex] != new[newIndex] {
                changes.updates.append(Update(oldIndex: oldIndex, newIndex: newIndex, element: new[newIndex]))
            }
        }
    }

    /// Marks the entries of a longest strictly increasing subsequence of the non-negative values
    /// (negative values are skipped).
    ///
    /// - Complexity: O(k log k) for k non-negative values.
    @inlinable
    static func longestIncreasingRun(_ values: [Int32]) -> [Bool] {
        var tails: [Int32] = []          // positions (in values) of the smallest tail per length
        var previous = [Int32](repeating: -1, count: values.count)
        for position in values.indices where values[position] >= 0 {
            let value = values[position]
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[Int(tails[mid])] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(Int32(position)) } else { tails[low] = Int32(position) }
        }
        var marks = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            marks[Int(cursor)] = true
            cursor = previous[Int(cursor)]
        }
        return marks
    }
}

/// A compact open-addressing hash table from ids to small integers, for the diff.
/// Slots hold -1 when never used, -2 when their id has no more unmatched occurrences.
@usableFromInline
struct IndexTable {
    @usableFromInline var slots: [Int32]
    @usableFromInline let mask: Int

    @inlinable
    init(capacityFor count: Int) {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        slots = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
    }

    /// The slot that holds `id`, or the empty slot where it belongs. `matches(value)` tells
    /// whether the row a slot's value names has this id.
    @inlinable
    func slot<ID: Hashable>(for id: ID, matches: (Int32) -> Bool) -> Int {
        var slot = id.hashValue & mask
        while true {
            let value = slots[slot]
            if value == -1 { return slot }
            if value >= 0, matches(value) { return slot }
            // -2: an exhausted id; it never matches, and probing goes on past it.
            slot = (slot + 1) & mask
        }
    }
}
