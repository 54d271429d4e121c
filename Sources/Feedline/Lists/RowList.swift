/// The rows of a list in order, unique by id, with the position of each id in O(1) (O(log h)
/// for h recent removals, h ≤ 1,024).
///
/// A value with copy-on-write storage. Each row has a key; its position is `key + shift` less
/// the removed rows' keys below it (`holes`). So inserting at the top (a refresh) never
/// rewrites the whole index, appending a page costs O(page), and removing a row (a delete)
/// costs a move of the array, not a rewrite of the index; the holes are compacted away (O(n))
/// once 1,024 of them have gathered. Inserting in the middle (a gap fill) rewrites the index.
public struct RowList: RandomAccessCollection, Hashable, Sendable {
    private var storage: [ListRow] = []
    private var positions: [RowID: Int] = [:]
    private var shift = 0
    /// The keys of removed rows, ascending. The keys of the rows and the holes together are
    /// the integers from `-shift` on, without a break.
    private var holes: [Int] = []
    /// How many holes are kept before the index is rewritten without them.
    private static let holeLimit = 1_024

    /// No rows.
    public init() {}

    /// `rows` in order; a later row with an id already present is dropped.
    public init(_ rows: some Sequence<ListRow>) {
        for row in rows where positions[row.id] == nil {
            positions[row.id] = storage.count
            storage.append(row)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> ListRow { storage[position] }

    /// The position of the row with `id`, if present. O(1), or O(log h) after h removals.
    public func index(of id: RowID) -> Int? {
        positions[id].map { $0 + shift - holes(below: $0) }
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
        index(of: id).map { storage[$0] }
    }

    /// Whether a row with `id` is present. O(1).
    public func contains(_ id: RowID) -> Bool { positions[id] != nil }

    /// The rows as an array (shares storage; no copy until either side changes).
    public var array: [ListRow] { storage }

    public static func == (lhs: RowList, rhs: RowList) -> Bool { lhs.storage == rhs.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }

    // MARK: - Editing (for the list machine)

    mutating func insert(_ rows: [ListRow], at index: Int) {
        guard !rows.isEmpty else { return }
        if index == storage.count {
            storage.append(contentsOf: rows)
            // Keys continue after the last key or hole.
            for offset in rows.indices { positions[rows[offset].id] = index + offset - shift + holes.count }
        } else if index == 0 {
            storage.insert(contentsOf: rows, at: 0)
            shift += rows.count
            for offset in rows.indices { positions[rows[offset].id] = offset - shift }
        } else {
            storage.insert(contentsOf: rows, at: index)
            reindex(from: index)
        }
    }

    /// Removes the rows at `indices` (ascending, distinct). Their keys become holes; the index
    /// is rewritten only when too many have gathered.
    mutating func remove(at indices: [Int]) {
        guard !indices.isEmpty else { return }
        for index in indices {
            guard let key = positions.removeValue(forKey: storage[index].id) else { continue }
            holes.insert(key, at: holes(below: key))
        }
        if indices.count == 1 {
            storage.remove(at: indices[0])
        } else {
            var skip = Set(indices)
            var kept: [ListRow] = []
            kept.reserveCapacity(storage.count - indices.count)
            for (index, row) in storage.enumerated() where skip.remove(index) == nil { kept.append(row) }
            storage = kept
        }
        if holes.count > Self.holeLimit { reindex(from: 0) }
    }

    mutating func removeAll() {
        storage.removeAll()
        positions.removeAll()
        holes.removeAll()
        shift = 0
    }

    /// Replaces the row at `index` with one of the same id.
    mutating func replace(at index: Int, with row: ListRow) {
        storage[index] = row
    }

    /// Rewrites the keys from `start` on; with holes, all of them (the keys must stay without
    /// a break).
    private mutating func reindex(from start: Int) {
        let start = holes.isEmpty ? start : 0
        if start == 0 {
            positions.removeAll(keepingCapacity: true)
            holes.removeAll()
            shift = 0
        }
        for index in start..<storage.count { positions[storage[index].id] = index - shift }
    }

    /// Broken invariants (empty when sound): an index entry for every row, each pointing at it.
    func checkIndex() -> [String] {
        var broken: [String] = []
        if positions.count != storage.count { broken.append("index has \(positions.count) entries for \(storage.count) rows") }
        for (offset, row) in storage.enumerated() where index(of: row.id) != offset {
            broken.append("row \(offset) (\(row.id)) indexed at \(index(of: row.id).map(String.init) ?? "nil")")
        }
        return broken
    }
}
