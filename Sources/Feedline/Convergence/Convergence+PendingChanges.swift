// What stores whose keys each hold a `PendingChange` ask of their engine alike: a wish, a
// fetched list the server orders, and a value the server made in place of a local one.

extension Convergence {
    /// Takes in a whole list the server orders (the filters, your lists), fetched by a fetch
    /// begun at `fetchedAt`, for a store that shows it in `order`: each fetched value is received
    /// (a change of it waiting for the server keeps its wish), and one removed here stays away.
    /// Returns the new order: the fetched keys that still show, in the server's order, then the
    /// keys of `order` the fetch did not bring that stand — waiting for the server, or made or
    /// learnt since the fetch began. The others are gone from the server: they are forgotten.
    ///
    /// - Complexity: O(fetched + order).
    package func ingestList<Value: Hashable & Sendable>(
        _ fetched: [(key: Key, value: Value)], shownIn order: [Key], fetchedAt: StoreEpoch
    ) -> [Key] where Machine == PendingChange<Value?> {
        var fetchedOrder: [Key] = []
        var seen: Set<Key> = []
        for (key, value) in fetched where seen.insert(key).inserted {
            update(key, orMake: { PendingChange(confirmed: value) }) { change, _ in
                change.receive(value, fetchedAt: fetchedAt).map { [$0] } ?? []
            }
            // A value deleted since stays away.
            if self[key]?.wanted != nil || self[key]?.isPending == true { fetchedOrder.append(key) }
        }
        let fetchedKeys = Set(fetchedOrder)
        var kept: [Key] = []
        for key in order where !fetchedKeys.contains(key) {
            guard let change = self[key] else { continue }
            if change.isPending || change.knownSince >= fetchedAt {
                kept.append(key)
            } else {
                forget(key)
            }
        }
        return fetchedOrder + kept
    }
}

extension Convergence {
    /// What an answer does to a list the store orders, for a key whose value is `answer`'s:
    /// one deleted, or whose making here was refused (a key `isLocal`, the store's own until the
    /// server names it), leaves `order` — and the engine. Returns the order, and the value the
    /// server made of one shown under a local key, which the store then puts in its place
    /// (``madeByServer(_:as:shownAs:in:)``).
    package func ordering<Value: Hashable & Sendable>(
        _ key: Key, answered answer: ChangeOutcome<Value?>?, isLocal: Bool, in order: [Key]
    ) -> (order: [Key], made: Value?) where Machine == PendingChange<Value?> {
        switch answer {
        case .done(let value?)?, .notApplied(_, now: let value?)?:
            return (order, isLocal ? value : nil)
        case .done(nil)?, .notApplied(_, now: nil)?:
            return (order.filter { $0 != key }, nil)
        case .refused(let asked, _)?:
            // A change asked meanwhile goes next: the refusal was of a value no longer wanted.
            guard self[key]?.isPending != true, asked != nil, isLocal else { return (order, nil) }
            forget(key)
            return (order.filter { $0 != key }, nil)
        case .queued?, nil:
            return (order, nil)
        }
    }

    /// The server made `value`, shown under the local key `local`, as `key`: it takes the local
    /// key's place in `order` (unless a fetch brought it first), as the server's. Returns the
    /// order, and whether it took the place.
    package func madeByServer<Value: Hashable & Sendable>(
        _ value: Value, as key: Key, shownAs local: Key, in order: [Key]
    ) -> (order: [Key], tookPlace: Bool) where Machine == PendingChange<Value?> {
        forget(local)
        var order = order
        var tookPlace = false
        if let index = order.firstIndex(of: local) {
            if order.contains(key) {
                order.remove(at: index)
            } else {
                order[index] = key
                tookPlace = true
            }
        }
        update(key, orMake: { PendingChange(confirmed: value) }) { change, epoch in
            change.receive(value, fetchedAt: epoch).map { [$0] } ?? []
        }
        return (order, tookPlace)
    }
}

extension Convergence {
    /// Wants `value` for `key` — its machine made by `make` when the key is new — at the next
    /// epoch: shown at once, sent as the machine decides (one change per key in flight). Returns
    /// whether a machine was there to change.
    @discardableResult
    package func want<Value: Hashable & Sendable>(
        _ value: Value, for key: Key, orMake make: () -> PendingChange<Value>? = { nil }
    ) -> Bool where Machine == PendingChange<Value> {
        update(key, orMake: make) { change, epoch in
            change.want(value, at: epoch)
            return []
        }
    }
}
