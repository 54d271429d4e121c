/// Keeps a server's markers (`MarkerService`) in step with the reading positions: reads
/// them at start, saves a moved position at most once per `MarkerState/interval` of
/// reading (on the injected clock), sends a save that met a conflict again, and saves what
/// is left at the end (``finish(waitingAtMost:)``). A marker is never moved back: nothing is
/// saved for a timeline until its marker was read, and a position is saved only when the
/// service's ids show it is further on than what the server holds (and than what is already
/// wanted).
///
/// Main actor. Its effects (reading, windows and saves) count in the `Activity` it is given —
/// the session's —, its windows and conflict delays as waiting, so a session's
/// ``FeedSession/settle()`` waits for a save but never for a debounce window.
@MainActor
package final class MarkerSync {
    /// The markers' state: what is wanted, saved and under way per timeline.
    package private(set) var state = MarkerState()
    private let service: any MarkerService
    private var loop: Feedback<MarkerRequest, MarkerEvent>?
    private let clock: any Clock<Duration>
    private let activity: Activity
    /// Callers of ``finish(waitingAtMost:)`` waiting for the last saves.
    private let waiters = DeadlineWaiters()

    /// Markers saved through `service`; windows and delays pass on `clock`; every effect counts
    /// in `activity` (a session's: ``FeedSession/activity``).
    package init(service: any MarkerService, clock: any Clock<Duration> = ContinuousClock(), activity: Activity = Activity()) {
        self.service = service
        self.clock = clock
        self.activity = activity
        loop = Feedback(activity: activity) { [service, clock] request in
            await Self.run(request, service: service, clock: clock, activity: activity)
        } handle: { [weak self] event in
            self?.send(event)
        }
    }

    /// Reads the server's markers of `timelines` and remembers them as saved (so an equal
    /// position is not saved again); from then on those timelines may be saved. A position
    /// wanted meanwhile that is not further on than the server's is dropped. Throws the
    /// service's failure as a ``FeedFailure`` (and nothing is ever saved for those timelines).
    package func read(_ timelines: [MarkerTimeline] = MarkerTimeline.allCases) async throws(FeedFailure) -> [MarkerTimeline: ServerMarker] {
        let service = service
        let answer = await activity.perform { () -> Result<[MarkerTimeline: ServerMarker], FeedFailure> in
            do {
                return .success(try await service.markers(for: timelines))
            } catch {
                return .failure(FeedFailure(error))
            }
        }
        let found: [MarkerTimeline: ServerMarker]
        switch answer {
        case .success(let markers): found = markers
        case .failure(let failure): throw failure
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
    package func move(_ timeline: MarkerTimeline, to id: ItemID) {
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
    package func finish(waitingAtMost limit: Duration) async {
        send(.finishing)
        guard !state.isSettled else { return }
        await waiters.wait(atMost: limit, on: clock)
    }

    /// Returns once no effect works (a test hook; an open window only waits, it does not count).
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
    private static func run(_ request: MarkerRequest, service: any MarkerService, clock: any Clock<Duration>, activity: Activity) async -> MarkerEvent? {
        switch request {
        case .wait(let timeline, let duration, let token):
            do {
                try await activity.waiting { try await clock.sleep(for: duration) }
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
