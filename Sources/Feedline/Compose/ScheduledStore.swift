import Foundation

/// The signed-in account's scheduled posts as every screen shows them (the scheduled screen,
/// ``ListSource/scheduled``), soonest first.
///
/// A configuration of the convergence engine (`Convergence`): each scheduled post is a
/// `PendingChange` of the post itself (`nil`: cancelled), keyed by the server's id — moved or
/// cancelled at once on every screen, one change per post in flight (a change asked meanwhile is
/// sent after its answer), confirmed or rolled back with the server's sentence on its row, and
/// sent again after a backoff when the server could not be reached (``FeedSession/retry()``
/// sends it at once). A post a submission scheduled joins at once (see ``Drafts``).
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class ScheduledStore: OneEngineStore {
    private let observers = HandlerList<[ScheduledRow]>()
    /// Each scheduled post as the server confirmed it and as wanted (set at the end of `init`,
    /// so its handlers can hold the store weakly).
    package private(set) var engine: Convergence<String, PendingChange<ScheduledPost?>>!
    /// Set while the store changes posts itself and tells the observers once, after.
    private var quiet = false

    /// A store that sends moves and cancellations to `service`, counted in `activity`, and
    /// re-sends those that failed for lack of a connection on `retryClock`; what the server did
    /// with each goes to `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, request in
                guard let post = request.value else {
                    try await service.cancelScheduled(id)
                    return nil
                }
                return try await service.reschedule(id, to: post.scheduledAt)
            },
            changed: { [weak self] _, _, _ in
                guard let self, !self.quiet else { return }
                self.notify()
            },
            outcomes: outcomes,
            outcome: { id, report, _ in report.outcome { .scheduled(id, at: $0?.scheduledAt) } }
        )
    }

    // MARK: - Reading

    /// Every scheduled post as shown now, soonest first (by id when two share a time).
    package var rows: [ScheduledRow] {
        engine.keys.compactMap { row($0) }.sorted { ($0.post.scheduledAt, $0.post.id.count, $0.post.id) < ($1.post.scheduledAt, $1.post.id.count, $1.post.id) }
    }

    /// The scheduled post `id` as shown, or `nil` (unknown, or cancelled).
    package func row(_ id: String) -> ScheduledRow? {
        guard let change = engine[id], let post = change.wanted else { return nil }
        let failure = change.refusal.map { refusal in
            refusal.wanted == nil ? "Could not cancel it: \(refusal.message)" : "Could not move it: \(refusal.message)"
        }
        return ScheduledRow(post: post, state: ToggleDisplay(isOn: true, pending: change.isPending, failure: failure))
    }

    /// Calls `handler` on the main actor with ``rows`` after every change, in order. Lasts as
    /// long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable ([ScheduledRow]) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Every change the server has not confirmed, as sentences, in the order asked.
    package var unsent: [String] {
        engine.unsent.compactMap { id in
            guard let change = engine[id] else { return nil }
            return change.wanted == nil ? "cancel the scheduled post \(id)" : "move the scheduled post \(id)"
        }
    }

    // MARK: - Input

    /// Marks the start of a fetch of the scheduled posts; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch { engine.beginFetch() }

    /// Records every scheduled post a fetch begun at `fetchedAt` brought: those learnt before it
    /// began and missing from it are gone (published, or cancelled elsewhere); what changed
    /// since stands.
    package func ingest(_ fetched: [ScheduledPost], fetchedAt: StoreEpoch) {
        quiet = true
        let ids = Set(fetched.map(\.id))
        for post in fetched {
            engine.update(post.id, orMake: { PendingChange(confirmed: post) }) { change, _ in
                change.receive(post, fetchedAt: fetchedAt).map { [$0] } ?? []
            }
        }
        for id in Array(engine.keys) where !ids.contains(id) {
            guard let change = engine[id], !change.isPending, change.knownSince < fetchedAt else { continue }
            engine.forget(id)
        }
        quiet = false
        notify()
    }

    /// The server scheduled `post` (a submission's answer): shown at once on every screen.
    package func learn(_ post: ScheduledPost) {
        quiet = true
        engine.update(post.id, orMake: { PendingChange(confirmed: post) }) { change, epoch in
            change.receive(post, fetchedAt: epoch).map { [$0] } ?? []
        }
        quiet = false
        notify()
    }

    /// Moves the scheduled post `id` to `date`: shown at once; rolled back with the reason on
    /// refusal. Throws when no such post shows.
    package func reschedule(_ id: String, to date: Date) throws(FeedFailure) {
        guard var post = row(id)?.post else { throw Self.unknown(id) }
        guard post.scheduledAt != date else { return }
        post.scheduledAt = date
        want(id, post)
    }

    /// Cancels the scheduled post `id`: off every screen at once; back on refusal.
    package func cancel(_ id: String) throws(FeedFailure) {
        guard row(id) != nil else { throw Self.unknown(id) }
        want(id, nil)
    }

    private func want(_ id: String, _ post: ScheduledPost?) {
        quiet = true
        engine.want(post, for: id)
        quiet = false
        notify()
    }

    private func notify() {
        observers.notify(rows)
    }

    private static func unknown(_ id: String) -> FeedFailure {
        FeedFailure(message: "There is no scheduled post \(id).", isTransient: false)
    }
}

/// A scheduled post as every screen shows it: with whether a move or cancellation of it waits
/// for the server, and the last refusal (`state.isOn` is always true: a cancelled post leaves).
package struct ScheduledRow: Hashable, Sendable {
    package var post: ScheduledPost
    package var state: ToggleDisplay
}
