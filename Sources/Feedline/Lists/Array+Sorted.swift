extension Array where Element: Equatable {
    /// Drops each element equal to the one before it (in a sorted array: the duplicates). O(n).
    mutating func removeDuplicatesInOrder() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension Array where Element: Comparable {
    /// In an ascending array: how many elements are below `bound` (where it would go). O(log n).
    func count(below bound: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
