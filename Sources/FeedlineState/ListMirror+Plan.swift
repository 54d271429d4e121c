@_spi(FeedService) import Feedline

/// The writes that turn the saved list `old` into a new value: computed in memory, applied by
/// `StateStore.saveList` in one transaction.
struct ListPlan {
    /// Entries that are gone (their rows deleted; a post no other entry shows is deleted too).
    var removed: [SavedList.Entry] = []
    /// New entries with their ranks.
    var inserted: [(entry: SavedList.Entry, rank: Int64)] = []
    /// Entries kept whose rank changes: moved in the list, or the list was renumbered.
    var reranked: [(entry: SavedList.Entry, rank: Int64)] = []
    /// Entries kept whose value changed: an edited post, a gap with another upper bound.
    var changed: [SavedList.Entry] = []
    /// What the mirror becomes once the writes are committed (generation not yet bumped).
    var mirror: ListMirror
}

extension ListMirror {
    /// Ranks are spaced this far apart when made from scratch or at either end, so that a page
    /// inserted between two entries finds room (about 16 pages nested at one place before the
    /// list is renumbered).
    static let spacing: Int64 = 1 << 16
    /// Ranks stay within ±2^62 so that differences never overflow.
    static let bound: Int64 = 1 << 62

    /// The writes from this (saved) list to `entries`, which must be newest first with unique
    /// ids (the store dedups and trims before).
    ///
    /// Entries that stay in the same relative order keep their ranks (the longest such run —
    /// usually all the kept ones); new and moved entries take ranks between their neighbours'.
    /// Only when two neighbours have no room left is the whole list renumbered.
    ///
    /// - Complexity: O(n log n) time in memory for n entries (hashing, and the longest increasing
    ///   run of kept entries); the writes are O(changes), or O(n) when renumbering.
    func plan(to entries: [SavedList.Entry]) -> ListPlan {
        var oldIndex: [RowID: Int] = [:]
        oldIndex.reserveCapacity(self.entries.count)
        for (index, entry) in self.entries.enumerated() { oldIndex[entry.rowID] = index }

        // Old positions of the kept entries, in their new order; the longest increasing run
        // keeps its ranks.
        let keptOld: [Int?] = entries.map { oldIndex[$0.rowID] }
        let stable = Self.longestIncreasing(keptOld)

        var plan = ListPlan(mirror: ListMirror(generation: generation, entries: entries, ranks: []))
        let newIDs = Set(entries.map(\.rowID))
        plan.removed = self.entries.filter { !newIDs.contains($0.rowID) }
        for (index, entry) in entries.enumerated() {
            if let old = keptOld[index], self.entries[old] != entry { plan.changed.append(entry) }
        }

        guard let ranks = Self.ranks(for: keptOld, stable: stable, oldRanks: self.ranks) else {
            // No room somewhere: renumber everything.
            let ranks = entries.indices.map { Int64($0) * Self.spacing }
            for (index, entry) in entries.enumerated() {
                if let old = keptOld[index] {
                    if self.ranks[old] != ranks[index] { plan.reranked.append((entry, ranks[index])) }
                } else {
                    plan.inserted.append((entry, ranks[index]))
                }
            }
            plan.mirror.ranks = ranks
            return plan
        }
        for (index, entry) in entries.enumerated() {
            if keptOld[index] == nil {
                plan.inserted.append((entry, ranks[index]))
            } else if !stable.contains(index) {
                plan.reranked.append((entry, ranks[index]))
            }
        }
        plan.mirror.ranks = ranks
        return plan
    }

    /// Ranks for the new order: stable entries keep theirs, each run of others is spread between
    /// the stable neighbours around it. `nil` when some run finds no room.
    private static func ranks(for keptOld: [Int?], stable: Set<Int>, oldRanks: [Int64]) -> [Int64]? {
        var ranks = [Int64](repeating: 0, count: keptOld.count)
        var runStart = 0
        var above: Int64? = nil
        for index in 0...keptOld.count {
            let isEnd = index == keptOld.count
            guard isEnd || stable.contains(index) else { continue }
            let below: Int64? = isEnd ? nil : keptOld[index].map { oldRanks[$0] }
            let count = Int64(index - runStart)
            if count > 0 {
                guard let run = spread(count, above: above, below: below) else { return nil }
                for (offset, rank) in run.enumerated() { ranks[runStart + offset] = rank }
            }
            if let below { ranks[index] = below }
            above = below
            runStart = index + 1
        }
        return ranks
    }

    /// `count` increasing ranks strictly between `above` and `below` (either may be open).
    private static func spread(_ count: Int64, above: Int64?, below: Int64?) -> [Int64]? {
        switch (above, below) {
        case (nil, nil):
            return (0..<count).map { $0 * spacing }
        case (nil, let below?):
            guard below > -bound + (count + 1) * spacing else { return nil }
            return (0..<count).map { below - (count - $0) * spacing }
        case (let above?, nil):
            guard above < bound - (count + 1) * spacing else { return nil }
            return (0..<count).map { above + ($0 + 1) * spacing }
        case (let above?, let below?):
            let step = (below - above) / (count + 1)
            guard step >= 1 else { return nil }
            return (0..<count).map { above + ($0 + 1) * step }
        }
    }

    /// The indices of a longest strictly increasing subsequence of the non-nil values.
    ///
    /// - Complexity: O(n log n).
    static func longestIncreasing(_ values: [Int?]) -> Set<Int> {
        // tails[k]: index (into values) of the smallest tail of an increasing run of length k+1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if let tail = values[tails[middle]], tail < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(index)
            index = previous[index]
        }
        return result
    }
}
