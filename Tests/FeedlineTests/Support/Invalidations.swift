import Observation
import Synchronization

/// Counts the invalidations of what `read` reads. `withObservationTracking` reports only the
/// first change after it is armed, so this arms it again inside each report: two changes count
/// two, and a test can say "exactly once".
@MainActor
final class Invalidations {
    private let count = Mutex(0)

    /// How many changes were reported so far.
    var value: Int { count.withLock { $0 } }

    init(_ read: @escaping @MainActor () -> Void) {
        track(read)
    }

    private func track(_ read: @escaping @MainActor () -> Void) {
        withObservationTracking(read) { [self] in
            count.withLock { $0 += 1 }
            // Observable mutations of main-actor objects run on the main actor, synchronously.
            MainActor.assumeIsolated { track(read) }
        }
    }
}
