/// Keeps a server's markers (``MarkerService``) in step with the reading positions: reads
/// them at start, saves a moved position at most once per ``MarkerState/interval`` of
/// reading (on the injected clock), sends a save that met a conflict again, and saves what
/// is left at the end (``finish(waitingAtMost:)``). A marker is never moved back: nothing is
/// saved for a timeline until its marker was read, and a position is saved only when the
/// service's ids show it is further on than what the server holds (and than what is already
/// wanted).
///
/// Main actor. Its effects (waits and saves) run in its own ``Activity``, so a session's
/// ``FeedSession/settle()`` never waits for a debounce window.
@MainActor
public final class MarkerSync {
    /// The markers' state: what is wanted, saved and under way per timeline.
    public private(set) var state = MarkerState()
    private let service: any MarkerService
    private var loop: Feedback<MarkerRequest, MarkerEvent>?
    private let clock: any Clock<Duration>
    private let activity = Activity()
    /// Callers of ``finish(waitingAtMost:)`` waiting for the last saves.
    private let waiters = DeadlineWaiters()

    /// Markers saved through `service`; windows and delays pass on `clock`.
    public init(service: any MarkerService, clock: any Clock<Duration> = ContinuousClock()) {
        self.service = service
        self.clock = clock
        loop = Feedback(activity: activity) { [service, clock] request in
            await Self.run(request, service: service, clock: clock)
        } handle: { [weak self] event in
            self?.send(event)
        }
    }

    /// Reads the server's markers of `timelines` and remembers them as saved (so an equal
    /// position is not saved again); from then on those timelines may be saved. A position
    /// wanted meanwhile that is not further on than the server's is dropped. Throws the
    /// service's failure as a ``FeedFailure`` (and nothing is ever saved for those timelines).
    public func read(_ timelines: [MarkerTimeline] = MarkerTimeline.allCases) async throws(FeedFailure) -> [MarkerTimeline: ServerMarker] {
        let found: [MarkerTimeline: ServerMarker]
        do {
            found = try await service.markers(for: timelines)
        } catch {
            throw FeedFailure(error)
        }
        for timeline in timelines {
            let held = found[timeline]?.id
            // A wanted position behind the server's gives way first, so no window opens for it.
            if let held, let wanted = state[timeline].wanted, !isFurther(wanted, than: held, in: timeline) {
                send(.moved(timeline, held))
            }
            send(.read(timeline, held))
        }
        return found
    }

    /// The position of `timeline` moved to `id`: it is saved when the current window ends —
    /// if it is further on than what the server holds and what is wanted already (else it is
    /// ignored).
    public func move(_ timeline: MarkerTimeline, to id: ItemID) {
        let slot = state[timeline]
        if let held = slot.saved, !isFurther(id, than: held, in: timeline) { return }
        if let wanted = slot.wanted, !isFurther(id, than: wanted, in: timeline) { return }
        send(.moved(timeline, id))
    }

    /// Whether `id` is known to be newer than `other` (an unknown order is not).
    private func isFurther(_ id: ItemID, than other: ItemID, in timeline: MarkerTimeline) -> Bool {
        id != other && service.isNewer(id, than: other, in: timeline) == true
    }

    /// Saves what is wanted and not saved yet at once, and returns once the saves are done or
    /// `limit` has passed on the clock, or the calling task is cancelled (whichever is first; at
    /// once when nothing is under way).
    public func finish(waitingAtMost limit: Duration) async {
        send(.finishing)
        guard !state.isSettled else { return }
        await waiters.wait(atMost: limit, on: clock)
    }

    /// Returns once no effect runs (a test hook: an open window counts until the clock passes it).
    package func settle() async {
        await activity.idle()
    }

    package func send(_ event: MarkerEvent) {
        state.reduce(event)
        loop?.react(to: state.requests)
        guard state.isSettled, state.isFinishing else { return }
        waiters.resumeAll()
    }

    /// One effect: a wait on the clock, or a save.
    private nonisolated static func run(_ request: MarkerRequest, service: any MarkerService, clock: any Clock<Duration>) async -> MarkerEvent? {
        switch request {
        case .wait(let timeline, let duration, let token):
            do {
                try await clock.sleep(for: duration)
            } catch {
                return nil
            }
            return .waitEnded(timeline, token: token)
        case .save(let timeline, let id, let token):
            do {
                try await service.saveMarker(id, for: timeline)
                return .saved(timeline, token: token)
            } catch {
                if Task.isCancelled { return nil }
                return service.isConflict(error) ? .conflicted(timeline, token: token) : .failed(timeline, token: token)
            }
        }
    }

    isolated deinit {
        loop?.cancelAll()
    }
}
