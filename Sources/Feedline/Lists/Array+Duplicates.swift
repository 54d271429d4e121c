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
