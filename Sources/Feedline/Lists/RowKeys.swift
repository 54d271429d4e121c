/// `RowList`'s index: each row's id with its key, kept together in one element of a hash set,
/// so that finding a key reads one place — a dictionary keeps its keys and its values in two
/// arrays, and in a list of thousands of rows each is a cache miss of its own.
struct RowKeys {
    /// An id with its key, equal to another (and hashed) by the id alone: the set finds an
    /// element by the id.
    private struct Keyed: Hashable {
        let id: RowID
        var key: Int

        static func == (lhs: Keyed, rhs: Keyed) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    private var keyed: Set<Keyed> = []

    /// How many ids have a key.
    var count: Int { keyed.count }

    /// The key of `id`; setting `nil` forgets it.
    subscript(id: RowID) -> Int? {
        get { keyed.firstIndex(of: Keyed(id: id, key: 0)).map { keyed[$0].key } }
        set {
            if let newValue {
                keyed.update(with: Keyed(id: id, key: newValue))
            } else {
                keyed.remove(Keyed(id: id, key: 0))
            }
        }
    }

    /// Forgets the key of `id`, returning it (`nil`: it had none). One look-up.
    mutating func removeValue(forKey id: RowID) -> Int? {
        keyed.remove(Keyed(id: id, key: 0))?.key
    }

    /// Gives `id` the key `key` unless it has one; returns whether it had none. One look-up.
    mutating func insert(_ id: RowID, key: Int) -> Bool {
        keyed.insert(Keyed(id: id, key: key)).inserted
    }

    mutating func reserveCapacity(_ capacity: Int) { keyed.reserveCapacity(capacity) }

    mutating func removeAll() { keyed.removeAll() }
}
