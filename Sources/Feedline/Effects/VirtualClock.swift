import Synchronization

/// A clock whose sleeps return at once and move its virtual time forward to their deadline.
///
/// Scripted sessions and tests use it so that latency (and anything else scheduled on the
/// clock) costs no real time, while code that measures elapsed time still sees it pass.
/// Sleeping checks for cancellation before and after yielding once to other tasks.
package final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since the clock was made.
    package struct Instant: InstantProtocol {
        package var offset: Duration

        package init(offset: Duration) { self.offset = offset }

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current: Locked<Instant>

    package init(now: Instant = Instant(offset: .zero)) {
        current = Locked(now)
    }

    package var now: Instant { current.withLock { $0 } }
    package var minimumResolution: Duration { .zero }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { now in now = max(now, deadline) }
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves virtual time forward by `duration` without sleeping.
    package func advance(by duration: Duration) {
        current.withLock { now in now = now.advanced(by: duration) }
    }
}
