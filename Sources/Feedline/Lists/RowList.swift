/// The rows of a list in order, unique by id, with the position of each id in O(1) (O(log h)
/// for h recent removals, h ≤ 1,024).
///
/// A value with copy-on-write storage. Rows sit in slots; a removed row leaves an empty slot (a
/// *hole*) instead of moving the rows after it, so a delete costs O(log h), not a move of the
/// array. Each row has a key, and its slot is `key + shift`; its position is its slot less the
/// holes before it. So inserting at the top (a refresh) never rewrites the whole index,
/// appending a page costs O(page), and a delete rewrites nothing; the holes are compacted away
/// (O(n)) once 1,024 of them have gathered, or as many as there are rows. Inserting in the
/// middle (a gap fill) compacts and rewrites the index.
///
/// - Complexity: `subscript(_:)` by position and ``index(of:)`` are O(log h) (O(1) with no
///   holes, or before the first one); `subscript(id:)` and ``contains(_:)`` are O(1);
///   iterating is O(n + h).
public struct RowList: RandomAccessCollection, Hashable, Sendable {
    /// The rows in order, `nil` where a row was removed (a hole).
    private var slots: [ListRow?] = []
    /// Each row's key: its slot is `key + shift`.
    private var positions: [RowID: Int] = [:]
    /// Other ids rows are found by (see `ListRow.alias`): a post's id to its row's identity.
    private var aliases: [RowID: RowID] = [:]
    private var shift = 0
    /// The keys of the holes, ascending. The keys of the rows and the holes together are the
    /// integers from `-shift` to `slots.count - shift - 1`, without a break.
    private var holes: [Int] = []
    /// How many holes are kept before the slots are compacted.
    private static let holeLimit = 1_024

    /// No rows.
    public init() {}

    /// `rows` in order; a later row with an id already present is dropped.
    public init(_ rows: some Sequence<ListRow>) {
        let expected = rows.underestimatedCount
        slots.reserveCapacity(expected)
        positions.reserveCapacity(expected)
        for row in rows where positions[row.id] == nil {
            positions[row.id] = slots.count
            if let alias = row.alias { aliases[alias] = row.id }
            slots.append(row)
        }
    }

    /// The key the row `id` names (itself, or the row an alias points at).
    private func key(_ id: RowID) -> Int? {
        positions[id] ?? aliases[id].flatMap { positions[$0] }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count - holes.count }

    public subscript(position: Int) -> ListRow {
        guard let row = slots[slot(at: position)] else { preconditionFailure("RowList: a hole at position \(position)") }
        return row
    }

    /// The slot of the row at `position`: the position plus the holes before that row.
    private func slot(at position: Int) -> Int {
        guard let first = holes.first, first + shift <= position else { return position }
        // Hole i has `holes[i] + shift - i` rows before it, a count that never falls with i: the
        // holes before the row are those with at most `position` rows before them.
        var low = 0
        var high = holes.count
        while low < high {
            let middle = (low + high) / 2
            if holes[middle] + shift - middle <= position { low = middle + 1 } else { high = middle }
        }
        return position + low
    }

    /// The position of the row with `id`, if present. O(1), or O(log h) after h removals.
    public func index(of id: RowID) -> Int? {
        key(id).map { $0 + shift - holes(below: $0) }
    }

    /// How many holes have keys below `key`.
    private func holes(below key: Int) -> Int {
        guard let first = holes.first, first < key else { return 0 }
        var low = 0
        var high = holes.count
        while low < high {
            let middle = (low + high) / 2
            if holes[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The row with `id`, if present. O(1).
    public subscript(id id: RowID) -> ListRow? {
        key(id).flatMap { slots[$0 + shift] }
    }

    /// Whether a row with `id` is present. O(1).
    public func contains(_ id: RowID) -> Bool { key(id) != nil }

    /// The rows as an array (a copy: O(n + h)).
    public var array: [ListRow] { Array(self) }

    /// The rows in order, skipping the holes.
    public struct Iterator: IteratorProtocol {
        fileprivate var slots: IndexingIterator<[ListRow?]>

        public mutating func next() -> ListRow? {
            while let slot = slots.next() {
                if let row = slot { return row }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(slots: slots.makeIterator()) }

    public static func == (lhs: RowList, rhs: RowList) -> Bool {
        if lhs.holes.isEmpty, rhs.holes.isEmpty { return lhs.slots == rhs.slots }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for row in self { hasher.combine(row) }
    }

    // MARK: - Editing (for the list machine)

    package mutating func insert(_ rows: [ListRow], at index: Int) {
        guard !rows.isEmpty else { return }
        if index == count {
            // Keys continue after the last key or hole.
            let first = slots.count - shift
            for offset in rows.indices { positions[rows[offset].id] = first + offset }
            for row in rows { if let alias = row.alias { aliases[alias] = row.id } }
            slots.append(contentsOf: rows.lazy.map(Optional.some))
        } else if index == 0 {
            slots.insert(contentsOf: rows.lazy.map(Optional.some), at: 0)
            shift += rows.count
            for offset in rows.indices { positions[rows[offset].id] = offset - shift }
            for row in rows { if let alias = row.alias { aliases[alias] = row.id } }
        } else {
            compact()
            slots.insert(contentsOf: rows.lazy.map(Optional.some), at: index)
            for slot in index..<slots.count {
                if let row = slots[slot] { positions[row.id] = slot - shift }
            }
            for row in rows { if let alias = row.alias { aliases[alias] = row.id } }
        }
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
        // Holes at the end are simply dropped.
        while let last = holes.last, last + shift == slots.count - 1 {
            holes.removeLast()
            slots.removeLast()
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
        shift = 0
    }

    /// Replaces the row at `index` with one of the same id.
    package mutating func replace(at index: Int, with row: ListRow) {
        let slot = slot(at: index)
        if let alias = slots[slot]?.alias { aliases[alias] = nil }
        if let alias = row.alias { aliases[alias] = row.id }
        slots[slot] = row
    }

    /// Drops the holes and rewrites every key. O(n + h).
    private mutating func compact() {
        guard !holes.isEmpty else { return }
        var kept: [ListRow?] = []
        kept.reserveCapacity(slots.count - holes.count)
        for case let row? in slots {
            positions[row.id] = kept.count
            kept.append(row)
        }
        slots = kept
        holes.removeAll()
        shift = 0
    }

    /// Broken invariants (empty when sound): an index entry for every row, each pointing at it,
    /// and a hole for every empty slot.
    package func checkIndex() -> [String] {
        var broken: [String] = []
        if positions.count != count { broken.append("index has \(positions.count) entries for \(count) rows") }
        let empty = slots.indices.filter { slots[$0] == nil }.map { $0 - shift }
        if empty != holes { broken.append("holes \(holes) for empty slots at keys \(empty)") }
        for (offset, row) in enumerated() where index(of: row.id) != offset || self[offset] != row {
            broken.append("row \(offset) (\(row.id)) indexed at \(index(of: row.id).map(String.init) ?? "nil")")
        }
        return broken
    }
}
