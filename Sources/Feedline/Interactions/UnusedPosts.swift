/// The posts nothing shows, in the order they became unused: the post store's cache order. A
/// post shown again leaves its place behind (its stamp no longer matches); stale places are
/// skipped when met and dropped once they outnumber the live ones, so the queue stays
/// O(unused posts).
struct UnusedPosts {
    private var queue: [(id: PostID, stamp: UInt64)] = []
    private var head = 0
    private var lastStamp: UInt64 = 0
    /// How many posts are unused now.
    private(set) var count = 0

    /// `id` became unused: it goes to the back. Returns its stamp, which the post keeps while
    /// it waits. `isLive` says whether a place (id, stamp) is still its post's.
    ///
    /// - Complexity: amortised O(1).
    mutating func append(_ id: PostID, isLive: (PostID, UInt64) -> Bool) -> UInt64 {
        lastStamp += 1
        queue.append((id, lastStamp))
        count += 1
        let queued = queue.count - head
        if queued > 1_024, queued > 4 * count {
            queue = queue[head...].filter { isLive($0.id, $0.stamp) }
            head = 0
        }
        return lastStamp
    }

    /// A post that waited left the queue (shown again, or forgotten): its place turns stale.
    mutating func left() {
        count -= 1
    }

    /// Takes the place at the front, live or stale (the caller checks its stamp); `nil` when
    /// the queue is empty.
    ///
    /// - Complexity: amortised O(1).
    mutating func popFront() -> (id: PostID, stamp: UInt64)? {
        guard head < queue.count else { return nil }
        let front = queue[head]
        head += 1
        if head > 1_024, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return front
    }
}
