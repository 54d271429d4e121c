import Synchronization

/// A clock whose sleeps return at once and move its virtual time forward to their deadline.
///
/// Scripted sessions and tests use it so that latency (and anything else scheduled on the
/// clock) costs no real time, while code that measures elapsed time still sees it pass.
/// Sleeping checks for cancellation before and after yielding once to other tasks.
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since the clock was made.
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current: Locked<Instant>

    public init(now: Instant = Instant(offset: .zero)) {
        current = Locked(now)
    }

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { now in now = max(now, deadline) }
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves virtual time forward by `duration` without sleeping.
    public func advance(by duration: Duration) {
        current.withLock { now in now = now.advanced(by: duration) }
    }
}
