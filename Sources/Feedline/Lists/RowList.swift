/// The rows of a list in order, unique by id, with the position of each id in O(1).
///
/// A value with copy-on-write storage. Positions are kept as `stored + shift`, so inserting at
/// the top (a refresh) never rewrites the whole index; appending a page costs O(page).
public struct RowList: RandomAccessCollection, Hashable, Sendable {
    private var storage: [ListRow] = []
    private var positions: [RowID: Int] = [:]
    private var shift = 0

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

    /// The position of the row with `id`, if present. O(1).
    public func index(of id: RowID) -> Int? {
        positions[id].map { $0 + shift }
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
            for offset in rows.indices { positions[rows[offset].id] = index + offset - shift }
        } else if index == 0 {
            storage.insert(contentsOf: rows, at: 0)
            shift += rows.count
            for offset in rows.indices { positions[rows[offset].id] = offset - shift }
        } else {
            storage.insert(contentsOf: rows, at: index)
            reindex(from: index)
        }
    }

    /// Removes the rows at `indices` (ascending, distinct).
    mutating func remove(at indices: [Int]) {
        guard let first = indices.first else { return }
        for index in indices { positions[storage[index].id] = nil }
        if indices.count == 1 {
            storage.remove(at: first)
        } else {
            var skip = Set(indices)
            var kept: [ListRow] = []
            kept.reserveCapacity(storage.count - indices.count)
            for (index, row) in storage.enumerated() where skip.remove(index) == nil { kept.append(row) }
            storage = kept
        }
        reindex(from: first)
    }

    mutating func removeAll() {
        storage.removeAll()
        positions.removeAll()
        shift = 0
    }

    /// Replaces the row at `index` with one of the same id.
    mutating func replace(at index: Int, with row: ListRow) {
        storage[index] = row
    }

    private mutating func reindex(from start: Int) {
        if start == 0 {
            positions.removeAll(keepingCapacity: true)
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
