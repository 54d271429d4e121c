/// RxFeedback's keyed `react`, the one effect primitive every machine uses: the state says which
/// requests should be running; ``react(to:)`` starts the new ones, keeps the ones still asked for
/// and cancels the rest; each effect's result comes back as an event.
///
/// - **Equality is identity.** A request is kept while an equal one is asked for, so requests
///   carry what tells them apart (a token, a cursor, a post id).
/// - **At most one effect per request.** Asking for a running request again never starts another.
/// - **Cancelled means silent.** A cancelled effect's result is dropped, even if it was already
///   on its way; only effects still wanted deliver events.
/// - **Ordering.** Events are delivered on the main actor, one at a time, in the order the effects
///   finish. `handle` may call ``react(to:)`` again (it usually does, after reducing).
/// - **Counted.** Every effect counts in the `Activity` from its start until its event has been
///   handled (and whatever that started has started), so `Activity/idle()` waits for chains.
///
/// The loop holds its handler strongly; the owner (a view model) passes a handler that holds the
/// owner weakly, and cancels what runs when it goes (``cancelAll()``).
@MainActor
package final class Feedback<Request: Hashable & Sendable, Event: Sendable> {
    private let activity: Activity
    /// Makes the effect of a request as it starts: the owner's synchronous preparation (if any)
    /// runs here, on the main actor, and the effect only does what it awaits.
    private let makeEffect: @MainActor (Request) -> @MainActor @Sendable () async -> Event?
    private let handle: @MainActor @Sendable (Event) -> Void
    private var running: [Request: (id: UInt64, task: Task<Void, Never>)] = [:]
    private var nextID: UInt64 = 0

    /// A loop whose effects run `effect(request)` (returning `nil` to deliver nothing) and hand
    /// their event to `handle`.
    package init(
        activity: Activity,
        effect: @escaping @MainActor @Sendable (Request) async -> Event?,
        handle: @escaping @MainActor @Sendable (Event) -> Void
    ) {
        self.activity = activity
        makeEffect = { request in { await effect(request) } }
        self.handle = handle
    }

    /// A loop whose effects are prepared by the owner when they start — `prepare(request)` runs
    /// synchronously on the main actor as the request starts (taking the store's fetch epoch,
    /// say) — and then run `effect(request, prepared)`, which only awaits (a service call) and
    /// returns an event for `handle`: effects never write the owner's state.
    package init<Prepared: Sendable>(
        activity: Activity,
        prepare: @escaping @MainActor (Request) -> Prepared,
        effect: @escaping @MainActor @Sendable (Request, Prepared) async -> Event?,
        handle: @escaping @MainActor @Sendable (Event) -> Void
    ) {
        self.activity = activity
        makeEffect = { request in
            let prepared = prepare(request)
            return { await effect(request, prepared) }
        }
        self.handle = handle
    }

    /// The requests running now.
    package var requests: Set<Request> { Set(running.keys) }

    /// How many effects this loop has started.
    package private(set) var started = 0

    /// Makes the running effects match `wanted`: starts what is new, keeps what runs, cancels
    /// the rest.
    ///
    /// - Complexity: O(r + w) for r running and w wanted requests.
    package func react(to wanted: some Sequence<Request>) {
        let wanted = Set(wanted)
        for (request, entry) in running where !wanted.contains(request) {
            entry.task.cancel()
            running[request] = nil
        }
        for request in wanted where running[request] == nil { start(request) }
    }

    /// Like ``react(to:)`` for the part of the running requests that `scope` selects: running
    /// requests outside it are left alone. A machine keyed by many parts (the store, one part
    /// per post) updates one part per event in O(running + wanted), not O(every part).
    package func react(to wanted: some Sequence<Request>, within scope: (Request) -> Bool) {
        let wanted = Set(wanted)
        for (request, entry) in running where scope(request) && !wanted.contains(request) {
            entry.task.cancel()
            running[request] = nil
        }
        for request in wanted where running[request] == nil { start(request) }
    }

    /// Starts `request` unless an equal one runs, leaving every other running request alone: a
    /// one-shot effect no state keeps asking for (an answer to a follow request, a delete, a
    /// vote), whose event comes back to `handle` like any other.
    ///
    /// - Complexity: O(1).
    package func run(_ request: Request) {
        if running[request] == nil { start(request) }
    }

    /// Cancels every running effect.
    package func cancelAll() {
        for entry in running.values { entry.task.cancel() }
        running.removeAll()
    }

    private func start(_ request: Request) {
        started += 1
        nextID += 1
        let id = nextID
        let effect = makeEffect(request)
        let task = activity.run { [weak self] in
            let event = await effect()
            guard let self, let current = self.running[request], current.id == id else { return }
            self.running[request] = nil
            guard !Task.isCancelled, let event else { return }
            self.handle(event)
        }
        running[request] = (id, task)
    }

    isolated deinit {
        cancelAll()
    }
}

extension Feedback {
    /// A loop whose effects only wait: each request sleeps `delay(request)` on `clock` — counted
    /// in `activity` as waiting, so `Activity/idle()` is not held up by a backoff — then hands
    /// `elapsed(request)` to `handle`. A cancelled wait delivers nothing. (The re-sends of post
    /// interactions and of relationship changes.)
    package static func waits(
        activity: Activity, clock: any Clock<Duration>, delay: @escaping @Sendable (Request) -> Duration,
        elapsed: @escaping @Sendable (Request) -> Event, handle: @escaping @MainActor @Sendable (Event) -> Void
    ) -> Feedback {
        Feedback(
            activity: activity,
            effect: { request in
                do {
                    try await activity.waiting { try await clock.sleep(for: delay(request)) }
                    return elapsed(request)
                } catch {
                    return nil
                }
            },
            handle: handle
        )
    }
}
