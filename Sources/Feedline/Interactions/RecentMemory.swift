/// The last `capacity` keys written, with a value each: writing a new key beyond the capacity
/// forgets the key written longest ago. Rewriting a key makes it the newest; removing one frees
/// its place. The store's memories of deletes and of forgotten posts.
///
/// - Complexity: reads, writes and removals amortised O(1); memory O(capacity) once the
///   removed keys' places in the order are passed.
package struct RecentMemory<Key: Hashable, Value> {
    package let capacity: Int
    /// Each key's value and the serial of its latest write.
    private var values: [Key: (value: Value, serial: Int)] = [:]
    /// Writes in order; a place whose serial is not its key's latest is a stale one, skipped.
    private var order: [(key: Key, serial: Int)] = []
    private var head = 0
    private var serial = 0

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package var isEmpty: Bool { values.isEmpty }
    package var count: Int { values.count }

    package subscript(key: Key) -> Value? { values[key]?.value }

    /// Writes `value` for `key` as the newest, forgetting the oldest keys beyond the capacity.
    package mutating func write(_ value: Value, for key: Key) {
        serial += 1
        values[key] = (value, serial)
        order.append((key, serial))
        while values.count > capacity, head < order.count {
            let oldest = order[head]
            head += 1
            if values[oldest.key]?.serial == oldest.serial { values[oldest.key] = nil }
        }
        compact()
    }

    /// Takes `key`'s value out of the memory.
    @discardableResult
    package mutating func remove(_ key: Key) -> Value? {
        let removed = values.removeValue(forKey: key)?.value
        compact()
        return removed
    }

    /// Drops the order's passed places once they are most of it, and stale places once the order
    /// holds more than twice the keys, so the order stays O(capacity).
    private mutating func compact() {
        if head > 1_024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        if order.count - head > 2 * max(capacity, 512) {
            order = order[head...].filter { values[$0.key]?.serial == $0.serial }
            head = 0
        }
    }
}
