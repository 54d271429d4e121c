/// Counts the effects (page loads, interaction requests, detail loads) that are running, so a
/// front or a test can wait until everything has settled — without sleeping.
///
/// Every view model of one ``FeedSession`` shares one activity. An effect counts from the moment
/// it is started until the event it produces has been handled and any follow-up effect has been
/// started, so the count never touches zero between a reply and the request it triggers.
@MainActor
public final class Activity {
    /// Effects running now.
    public private(set) var running = 0
    /// Effects started since this activity was made (for request-count bounds in tests).
    public private(set) var started = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Where the effects' nonisolated work runs; `nil` for the global concurrent executor.
    private let executor: (any TaskExecutor)?

    /// An activity whose effects prefer `executor` for their nonisolated work (service calls,
    /// clock sleeps); `nil`, the default, leaves them on the global concurrent executor.
    public init(executor: (any TaskExecutor)? = nil) {
        self.executor = executor
    }

    /// Whether nothing is running.
    public var isIdle: Bool { running == 0 }

    /// Returns once no effect is running. Returns at once when idle. Effects started while
    /// waiting are waited for too.
    public func idle() async {
        while running > 0 {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Runs `operation` as a main-actor task counted as activity until it returns.
    /// Cancel the returned task to stop it early; it still counts until it returns.
    @discardableResult
    public func run(_ operation: @escaping @MainActor @Sendable () async -> Void) -> Task<Void, Never> {
        running += 1
        started += 1
        let effect = started
        if let executor {
            return Task(executorPreference: executor) { await CurrentEffect.$number.withValue(effect) { await self.counted(operation) } }
        }
        return Task { @MainActor in await CurrentEffect.$number.withValue(effect) { await self.counted(operation) } }
    }


    private func counted(_ operation: @MainActor @Sendable () async -> Void) async {
        await operation()
        finish()
    }

    private func finish() {
        running -= 1
        guard running == 0 else { return }
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }
}

/// The effect the current task works for: its number in ``Activity/started`` order, inherited by
/// its child tasks (`async let`); `nil` outside effects. A test service reads it to tell one
/// effect's concurrent calls (a thread's post and context) from two effects' calls.
package enum CurrentEffect {
    @TaskLocal package static var number: Int?
}
