/// Counts the effects (page loads, interaction requests, detail loads, marker saves, live
/// updates, start-up fetches) that are running, so a front or a test can wait until everything
/// has settled — without sleeping.
///
/// A session has one activity, and every effect of it counts there. An effect counts from the
/// moment it is started until the event it produces has been handled and any follow-up effect
/// has been started, so the count never touches zero between a reply and the request it
/// triggers. An effect that waits on a clock (a backoff, a debounce window, a poll interval) or
/// listens (an open stream) says so with ``waiting(_:)``: settled means nothing is working, so a
/// script is not held up by a backoff of a minute, yet nothing runs uncounted.
@MainActor
package final class Activity {
    /// Effects running now, waiting ones included.
    package private(set) var total = 0
    /// Effects working now: running and not inside ``waiting(_:)``.
    package var running: Int { total - waitingCount }
    /// Effects started since this activity was made (for request-count bounds in tests).
    package private(set) var started = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Where the effects' nonisolated work runs; `nil` for the global concurrent executor.
    private let executor: (any TaskExecutor)?
    /// The tasks of the effects ``run(_:)`` started that have not returned, by number.
    private var tasks: [Int: Task<Void, Never>] = [:]
    /// Whether ``stop()`` was called: no effect starts any more.
    package private(set) var isStopped = false

    /// An activity whose effects prefer `executor` for their nonisolated work (service calls,
    /// clock sleeps); `nil`, the default, leaves them on the global concurrent executor.
    package init(executor: (any TaskExecutor)? = nil) {
        self.executor = executor
    }

    /// Effects running now that are inside ``waiting(_:)``.
    package private(set) var waitingCount = 0

    /// Whether nothing is working: every running effect (if any) is waiting on a clock or
    /// listening.
    package var isIdle: Bool { running == 0 }

    /// Returns once no effect is working (each running one, if any, is waiting on a clock or
    /// listening). Returns at once when idle. Effects started while waiting are waited for too.
    package func idle() async {
        while running > 0 {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Runs `operation` as a main-actor task counted as activity until it returns.
    /// Cancel the returned task to stop it early; it still counts until it returns. A task
    /// cancelled before it begins does not run `operation` at all.
    @discardableResult
    package func run(_ operation: @escaping @MainActor @Sendable () async -> Void) -> Task<Void, Never> {
        // A stopped activity's owner is gone (an account switched away from): nothing starts.
        guard !isStopped else { return Task {} }
        total += 1
        started += 1
        let effect = started
        let task: Task<Void, Never>
        if let executor {
            task = Task(executorPreference: executor) { await CurrentEffect.$number.withValue(effect) { await self.counted(operation, effect) } }
        } else {
            task = Task { @MainActor in await CurrentEffect.$number.withValue(effect) { await self.counted(operation, effect) } }
        }
        // The task reaches `counted` on the main actor, after this returns: it is here by then.
        tasks[effect] = task
        return task
    }

    /// Cancels every effect running (a request in flight, a re-send waiting on its clock, a
    /// stream listening) and starts none after: for a session no one reads any more. A
    /// cancelled effect delivers nothing (see `Feedback`).
    package func stop() {
        isStopped = true
        for task in tasks.values { task.cancel() }
    }

    private func counted(_ operation: @MainActor @Sendable () async -> Void, _ effect: Int) async {
        // Cancelled before it began (``stop()`` between `run` and this task's start; `Feedback`
        // forgets the requests it cancels): it sends nothing.
        if !Task.isCancelled { await operation() }
        tasks[effect] = nil
        finish()
    }

    /// Runs `operation` as one effect counted in this activity and returns its result: for an
    /// async call whose caller waits for the answer (reading the server's markers at start), so
    /// that it is counted like every effect. Cancelling the caller cancels it.
    package func perform<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) async -> Value {
        total += 1
        started += 1
        defer { finish() }
        return await operation()
    }

    /// Runs `operation` — a wait on a clock or a stream that only listens — with the calling
    /// effect counted as waiting, not working, until it returns (see ``idle()``). Call it from an
    /// effect this activity runs.
    package func waiting<Value: Sendable>(_ operation: @Sendable () async throws -> Value) async rethrows -> Value {
        waitingCount += 1
        resumeIfIdle()
        defer { waitingCount -= 1 }
        return try await operation()
    }

    private func finish() {
        total -= 1
        resumeIfIdle()
    }

    private func resumeIfIdle() {
        guard running == 0, !waiters.isEmpty else { return }
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }
}

/// The effect the current task works for: its number in `Activity/started` order, inherited by
/// its child tasks (`async let`); `nil` outside effects. A test service reads it to tell one
/// effect's concurrent calls (a thread's post and context) from two effects' calls.
package enum CurrentEffect {
    @TaskLocal package static var number: Int?
}
