/// The rows of a list in order, unique by id, with the position of each id in O(1) (O(log h)
/// for h recent removals, h ≤ 1,024).
///
/// A value with copy-on-write storage. Rows sit in slots; a removed row leaves an empty slot (a
/// *hole*) instead of moving the rows after it, so a delete costs O(log h), not a move of the
/// array. Each row has a key, and its slot is `key + shift`; its position is its slot less the
/// free slots before it (the *headroom* before the first row, and the holes). So:
/// - inserting at the top (a refresh, rows shown from above) takes slots from the headroom,
///   which grows by a share of the rows when it runs out: O(k) amortised for k rows, no key
///   rewritten;
/// - appending a page costs O(page);
/// - inserting between two rows where rows were removed (rows put back) fills those holes:
///   O(k + h);
/// - inserting elsewhere in the middle (a gap row below one's own post on top, a gap filled)
///   moves the rows on the shorter side, towards the top or the end: O(k + min(i, n − i)) for
///   index i, so O(k) next to either end;
/// - a delete rewrites nothing; the holes are compacted away (O(n)) once 1,024 of them have
///   gathered, or as many as there are rows.
///
/// - Complexity: `subscript(_:)` by position and ``index(of:)`` are O(log h) (O(1) with no
///   holes, or before the first one); `subscript(id:)` and ``contains(_:)`` are O(1);
///   iterating is O(n + h).
public struct RowList: RandomAccessCollection, Hashable, Sendable {
    /// The headroom (`base` empty slots), then the rows in order, `nil` where a row was removed
    /// (a hole). The last slot is never a hole, nor is the first one after the headroom.
    private var slots: [ListRow?] = []
    /// How many empty slots come before the first row: rows inserted at the top take them.
    private var base = 0
    /// Each row's key: its slot is `key + shift`.
    private var positions = RowKeys()
    /// Other ids rows are found by (see `ListRow.alias`): a post's id to its row's identity.
    private var aliases: [RowID: RowID] = [:]
    private var shift = 0
    /// The keys of the holes, ascending. The keys of the rows and the holes together are the
    /// integers from `base - shift` to `slots.count - shift - 1`, without a break.
    private var holes: [Int] = []
    /// How many holes are kept before the slots are compacted.
    private static let holeLimit = 1_024
    /// How many index entries edits have written since the list was made (a cost counter for
    /// tests: inserting k rows should write about k, not the whole index).
    package private(set) var keysWritten = 0

    /// No rows.
    public init() {}

    /// `rows` in order; a later row with an id already present is dropped.
    public init(_ rows: some Sequence<ListRow>) {
        let expected = rows.underestimatedCount
        slots.reserveCapacity(expected)
        positions.reserveCapacity(expected)
        for row in rows where positions.insert(row.id, key: slots.count) {
            if let alias = row.alias { aliases[alias] = row.id }
            slots.append(row)
        }
    }

    /// The key the row `id` names (itself, or the row an alias points at).
    private func key(_ id: RowID) -> Int? {
        positions[id] ?? aliases[id].flatMap { positions[$0] }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count - base - holes.count }

    public subscript(position: Int) -> ListRow {
        guard let row = slots[slot(at: position)] else { preconditionFailure("RowList: a hole at position \(position)") }
        return row
    }

    /// The slot of the row at `position` (`endIndex`: the slot after the last): the position
    /// plus the headroom and the holes before that row.
    private func slot(at position: Int) -> Int {
        guard let first = holes.first, first + shift - base <= position else { return base + position }
        // Hole i has `holes[i] + shift - base - i` rows before it, a count that never falls with
        // i: the holes before the row are those with at most `position` rows before them.
        var low = 0
        var high = holes.count
        while low < high {
            let middle = (low + high) / 2
            if holes[middle] + shift - base - middle <= position { low = middle + 1 } else { high = middle }
        }
        return base + position + low
    }

    /// The position of the row with `id`, if present. O(1), or O(log h) after h removals.
    public func index(of id: RowID) -> Int? {
        key(id).map { $0 + shift - base - holes(below: $0) }
    }

    /// How many holes have keys below `key`.
    private func holes(below key: Int) -> Int {
        guard let first = holes.first, first < key else { return 0 }
        return holes.count(below: key)
    }

    /// The row with `id`, if present. O(1).
    public subscript(id id: RowID) -> ListRow? {
        key(id).flatMap { slots[$0 + shift] }
    }

    /// Whether a row with `id` is present. O(1).
    public func contains(_ id: RowID) -> Bool { key(id) != nil }

    /// The rows as an array (a copy: O(n + h)).
    public var array: [ListRow] { Array(self) }

    /// The rows in order, skipping the holes (O(n + h), no lookup per row).
    public func makeIterator() -> some IteratorProtocol<ListRow> { RowIterator(slots: slots[base...].makeIterator()) }

    public static func == (lhs: RowList, rhs: RowList) -> Bool {
        if lhs.holes.isEmpty, rhs.holes.isEmpty { return lhs.slots[lhs.base...] == rhs.slots[rhs.base...] }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for row in self { hasher.combine(row) }
    }

    // MARK: - Editing (for the list machine)

    /// Inserts `rows` (ids not present) before the row at `index` (`count`: at the end).
    ///
    /// - Complexity: O(k) amortised at the top and the end; O(k + h) where as many holes
    ///   stand right before `index` (rows put back where they were); else
    ///   O(k + min(index, count − index)).
    package mutating func insert(_ rows: [ListRow], at index: Int) {
        guard !rows.isEmpty else { return }
        let count = rows.count
        if index == self.count {
            // Keys continue after the last key (the last slot is never a hole).
            let first = slots.count - shift
            for offset in rows.indices { positions[rows[offset].id] = first + offset }
            keysWritten += rows.count
            slots.append(contentsOf: rows.lazy.map(Optional.some))
        } else {
            var next = slot(at: index)
            // The holes right before that row, where rows were removed.
            let free = next - (index == 0 ? base : slot(at: index - 1) + 1)
            if free >= count {
                fill(rows, from: next - free)
            } else if index <= self.count / 2 {
                next = makeHeadroom(count, before: next)
                fill(rows, from: next - count)
            } else {
                makeRoom(count, at: next)
                fill(rows, from: next)
            }
        }
        for row in rows { if let alias = row.alias { aliases[alias] = row.id } }
    }

    /// Puts `rows` in the empty slots from `first` on (holes, or slots just made free), and
    /// forgets the holes among them.
    private mutating func fill(_ rows: [ListRow], from first: Int) {
        let holeStart = holes(below: first - shift)
        let holeEnd = holes(below: first + rows.count - shift)
        if holeEnd > holeStart { holes.removeSubrange(holeStart..<holeEnd) }
        for offset in rows.indices {
            slots[first + offset] = rows[offset]
            positions[rows[offset].id] = first + offset - shift
        }
        keysWritten += rows.count
    }

    /// Moves the rows and holes before `slot` `count` slots towards the top (growing the
    /// headroom first when it is short), leaving `count` empty slots right before the row at
    /// `slot`; returns that row's slot (it moves when the headroom grows). O(count + the slots
    /// before), amortised.
    private mutating func makeHeadroom(_ count: Int, before slot: Int) -> Int {
        var slot = slot
        if base < count {
            // A share of the rows, so that growing costs O(1) amortised per row inserted.
            let extra = Swift.max(count - base, (slots.count - base) / 4 + 16)
            slots.insert(contentsOf: repeatElement(nil, count: extra), at: 0)
            base += extra
            shift += extra
            slot += extra
        }
        for from in base..<slot {
            let row = slots[from]
            slots[from - count] = row
            if let row {
                positions[row.id] = from - count - shift
                keysWritten += 1
            }
        }
        for hole in 0..<holes(below: slot - shift) { holes[hole] -= count }
        base -= count
        for free in (slot - count)..<slot { slots[free] = nil }
        return slot
    }

    /// Moves the rows and holes from `slot` on `count` slots towards the end, leaving `count`
    /// empty slots from `slot` on. O(count + the slots from `slot` on), amortised.
    private mutating func makeRoom(_ count: Int, at slot: Int) {
        let end = slots.count
        slots.append(contentsOf: repeatElement(nil, count: count))
        for from in stride(from: end - 1, through: slot, by: -1) {
            let row = slots[from]
            slots[from + count] = row
            if let row {
                positions[row.id] = from + count - shift
                keysWritten += 1
            }
        }
        for hole in holes(below: slot - shift)..<holes.count { holes[hole] += count }
        for free in slot..<(slot + count) { slots[free] = nil }
    }

    /// Removes the rows at `indices` (ascending, distinct). Their slots become holes (the
    /// rows after them do not move); they are compacted only when too many have gathered.
    package mutating func remove(at indices: [Int]) {
        if indices.count == 1 {
            if let key = empty(slot(at: indices[0])) { holes.insert(key, at: holes(below: key)) }
        } else if indices.count > 1 {
            // Every slot first: a position names a row of the list as it was.
            let removed = indices.map(slot(at:))
            var keys: [Int] = []
            keys.reserveCapacity(removed.count)
            for slot in removed {
                if let key = empty(slot) { keys.append(key) }
            }
            holes = Self.merged(holes, keys)
        }
        settleHoles()
    }

    /// Removes the rows `ids` name (by their ids or aliases; an id absent, or naming a row
    /// named before, is skipped) and returns them with the positions they had, ascending —
    /// one look-up per id, where finding the positions first and removing by them would look
    /// each up twice. Their slots become holes, as ``remove(at:)`` leaves them.
    ///
    /// - Complexity: O(k log k + h) for k ids and h holes (h ≤ 1,024), whatever the number
    ///   of rows.
    package mutating func remove(ids: some Sequence<RowID>) -> [(index: Int, row: ListRow)] {
        // The keys first: each leaves the index as it is found (one hash look-up), so an id
        // named twice is found once.
        var keys: [Int] = []
        keys.reserveCapacity(ids.underestimatedCount)
        for id in ids {
            if let key = positions.removeValue(forKey: id) {
                keys.append(key)
            } else if !aliases.isEmpty, let named = aliases.removeValue(forKey: id), let key = positions.removeValue(forKey: named) {
                keys.append(key)
            }
        }
        guard !keys.isEmpty else { return [] }
        keys.sort()
        // Then the rows, moved out of their slots (which become holes) in one pass of
        // independent reads: in a long list each is a cache miss, and these overlap.
        var removed: [(index: Int, row: ListRow)] = []
        removed.reserveCapacity(keys.count)
        var holesAbove = holes(below: keys[0])
        for key in keys {
            while holesAbove < holes.count, holes[holesAbove] < key { holesAbove += 1 }
            guard let row = slots[key + shift].take() else { preconditionFailure("RowList: a key names a hole") }
            // Positions as the list was: the holes are merged only after the last row.
            removed.append((key + shift - base - holesAbove, row))
        }
        if !aliases.isEmpty {
            for item in removed { if let alias = item.row.alias { aliases[alias] = nil } }
        }
        holes = Self.merged(holes, keys)
        settleHoles()
        return removed
    }

    /// After a removal: holes at the end are dropped, holes at the start join the headroom,
    /// and too many holes are compacted away.
    private mutating func settleHoles() {
        // Holes at the end are simply dropped, and holes at the start join the headroom.
        while let last = holes.last, last + shift == slots.count - 1 {
            holes.removeLast()
            slots.removeLast()
        }
        var leading = 0
        while leading < holes.count, holes[leading] + shift == base + leading { leading += 1 }
        if leading > 0 {
            holes.removeFirst(leading)
            base += leading
        }
        if holes.count > Swift.min(Self.holeLimit, count) { compact() }
    }

    /// Empties `slot`, returning its key (the hole's), or `nil` for a hole already.
    private mutating func empty(_ slot: Int) -> Int? {
        guard let row = slots[slot] else { return nil }
        positions[row.id] = nil
        if let alias = row.alias { aliases[alias] = nil }
        slots[slot] = nil
        return slot - shift
    }

    /// Two ascending arrays as one.
    private static func merged(_ lhs: [Int], _ rhs: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(lhs.count + rhs.count)
        var left = lhs.startIndex
        var right = rhs.startIndex
        while left < lhs.endIndex, right < rhs.endIndex {
            if lhs[left] < rhs[right] {
                result.append(lhs[left])
                left += 1
            } else {
                result.append(rhs[right])
                right += 1
            }
        }
        result += lhs[left...]
        result += rhs[right...]
        return result
    }

    package mutating func removeAll() {
        slots.removeAll()
        positions.removeAll()
        aliases.removeAll()
        holes.removeAll()
        base = 0
        shift = 0
    }

    /// Replaces the row at `index` with one of the same id.
    package mutating func replace(at index: Int, with row: ListRow) {
        let slot = slot(at: index)
        if let alias = slots[slot]?.alias { aliases[alias] = nil }
        if let alias = row.alias { aliases[alias] = row.id }
        slots[slot] = row
    }

    /// Drops the holes and the headroom and rewrites every key. O(n + h).
    private mutating func compact() {
        guard !holes.isEmpty else { return }
        var kept: [ListRow?] = []
        kept.reserveCapacity(slots.count - base - holes.count)
        for case let row? in slots[base...] {
            positions[row.id] = kept.count
            kept.append(row)
        }
        keysWritten += kept.count
        slots = kept
        holes.removeAll()
        base = 0
        shift = 0
    }

    /// Broken invariants (empty when sound): an index entry for every row, each pointing at it,
    /// a hole for every empty slot after the headroom, and none at either end.
    package func checkIndex() -> [String] {
        var broken: [String] = []
        if positions.count != count { broken.append("index has \(positions.count) entries for \(count) rows") }
        if slots[..<base].contains(where: { $0 != nil }) { broken.append("a row in the headroom of \(base) slots") }
        let empty = slots.indices.filter { $0 >= base && slots[$0] == nil }.map { $0 - shift }
        if empty != holes { broken.append("holes \(holes) for empty slots at keys \(empty)") }
        if let first = holes.first, first + shift == base { broken.append("a hole first, at key \(first)") }
        if let last = holes.last, last + shift == slots.count - 1 { broken.append("a hole last, at key \(last)") }
        for (offset, row) in enumerated() where index(of: row.id) != offset || self[offset] != row {
            broken.append("row \(offset) (\(row.id)) indexed at \(index(of: row.id).map(String.init) ?? "nil")")
        }
        return broken
    }
}

/// The rows of a ``RowList`` in order, skipping the holes.
private struct RowIterator: IteratorProtocol {
    var slots: IndexingIterator<ArraySlice<ListRow?>>

    mutating func next() -> ListRow? {
        while let slot = slots.next() {
            if let row = slot { return row }
        }
        return nil
    }
}
