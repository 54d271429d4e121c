/// A one-time announcement any task may wait for: ``wait()`` returns at once once it is open,
/// and every waiter resumes when it opens.
///
/// Safe from any executor. Checking whether it is open and registering a waiter are one step
/// under a lock, so an opening between a caller's check and its registration is never missed:
/// a continuation's body may run after a hop — on the task's preferred executor, for a task
/// that has one (`FeedSession(executor:)`) — and a main-actor flag read there, or a waiter list
/// filled there, could miss an opening made meanwhile and wait forever.
package final class Latch: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed latch.
    package init() {}

    /// Whether it has opened.
    package var isOpen: Bool { state.withLock { $0.open } }

    /// Returns once the latch is open (at once when it is).
    package func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the latch: every waiter resumes, and later waits return at once. Opening it again
    /// does nothing.
    package func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
