/// The notifications your server filtered, one request per account, as every screen shows them
/// (the filtered-notifications screen, ``ListSource/notificationRequests``), newest first.
///
/// A configuration of the convergence engine (`Convergence`): each request is a `PendingChange`
/// of its answer (`nil`: unanswered, shown), keyed by the server's id — accepted or dismissed, it
/// leaves every screen at once; one answer per request in flight; a refusal brings it back with
/// the server's sentence on its row; and an answer that could not reach the server is sent again
/// after a backoff (``FeedSession/retry()`` sends it at once). An accept the server confirmed is
/// heard by every notifications screen (``observeAccepted(_:)``), which loads its first page again
/// so the account's notifications show.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class NotificationRequestStore: OneEngineStore {
    private typealias Answer = NotificationRequest.Answer

    private let observers = HandlerList<[NotificationRequestRow]>()
    private let accepted = HandlerList<String>()
    /// Each request as last fetched, by id (what its row shows).
    private var requests: [String: NotificationRequest] = [:]
    /// Each request's answer as the server confirmed it and as wanted (set at the end of `init`,
    /// so its handlers can hold the store weakly).
    package private(set) var engine: Convergence<String, PendingChange<NotificationRequest.Answer?>>!
    /// Set while the store changes requests itself and tells the observers once, after.
    private var quiet = false

    /// A store that sends answers to `service`, counted in `activity`, and re-sends those that
    /// failed for lack of a connection on `retryClock`; what the server did with each goes to
    /// `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, request in
                guard let answer = request.value else { return nil }
                try await service.answerNotificationRequest(id, answer)
                return answer
            },
            changed: { [weak self] _, _, _ in
                guard let self, !self.quiet else { return }
                self.notify()
            },
            report: { [weak self] id, report in
                if case .done(.some(.accept)) = report { self?.accepted.notify(id) }
            },
            outcomes: outcomes,
            outcome: { id, report, _ in
                report.value.map { answer in report.outcome { _ in .notificationRequest(id, accept: answer == .accept) } }
            }
        )
    }

    // MARK: - Reading

    /// Every unanswered request as shown now, newest first (by id when two changed at once).
    package var rows: [NotificationRequestRow] {
        engine.keys.compactMap { row($0) }.sorted {
            ($0.request.updatedAt, $0.request.id.count, $0.request.id) > ($1.request.updatedAt, $1.request.id.count, $1.request.id)
        }
    }

    /// The request `id` as shown, or `nil` (unknown, or answered).
    package func row(_ id: String) -> NotificationRequestRow? {
        guard let change = engine[id], change.wanted == nil, let request = requests[id] else { return nil }
        let failure = change.refusal.map { refusal in
            "Could not \(refusal.wanted == .accept ? "accept" : "dismiss") it: \(refusal.message)"
        }
        return NotificationRequestRow(request: request, state: ToggleDisplay(isOn: true, pending: change.isPending, failure: failure))
    }

    /// Whether an answer to the request `id` waits for the server.
    package func isPending(_ id: String) -> Bool { engine[id]?.isPending ?? false }

    /// Calls `handler` on the main actor with ``rows`` after every change, in order. Lasts as
    /// long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable ([NotificationRequestRow]) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Calls `handler` on the main actor with a request's id when the server confirmed its
    /// accept (its notifications are now among yours). Lasts as long as the token.
    package func observeAccepted(_ handler: @escaping @MainActor @Sendable (String) -> Void) -> Subscription {
        accepted.add(handler)
    }

    /// Every answer the server has not confirmed, as sentences, in the order asked.
    package var unsent: [String] {
        engine.unsent.compactMap { id in
            guard let answer = engine[id]?.wanted else { return nil }
            let who = requests[id].map { " of @\($0.account.handle)" } ?? " \(id)"
            return "\(answer.rawValue) the filtered notifications\(who)"
        }
    }

    // MARK: - Input

    /// Marks the start of a fetch of the requests; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch { engine.beginFetch() }

    /// Records every request a fetch begun at `fetchedAt` brought: those learnt before it began
    /// and missing from it are gone (answered elsewhere); an answer on its way stands.
    package func ingest(_ fetched: [NotificationRequest], fetchedAt: StoreEpoch) {
        quiet = true
        let ids = Set(fetched.map(\.id))
        for request in fetched {
            requests[request.id] = request
            engine.update(request.id, orMake: { PendingChange(confirmed: nil) }) { change, _ in
                change.receive(nil, fetchedAt: fetchedAt).map { [$0] } ?? []
            }
        }
        for id in Array(engine.keys) where !ids.contains(id) {
            guard let change = engine[id], !change.isPending, change.knownSince < fetchedAt else { continue }
            if engine.forget(id) { requests[id] = nil }
        }
        quiet = false
        notify()
    }

    /// Accepts or dismisses the request `id`: off every screen at once; back, with the server's
    /// sentence, on refusal. Throws when no such request shows.
    package func answer(_ id: String, _ answer: NotificationRequest.Answer) throws(FeedFailure) {
        guard row(id) != nil else {
            throw FeedFailure(message: "There is no filtered notification request \(id).", isTransient: false)
        }
        quiet = true
        engine.want(answer, for: id)
        quiet = false
        notify()
    }

    /// Accepts or dismisses every request shown and not already being answered, as
    /// ``answer(_:_:)`` does each (each its own change: a refusal brings back that one alone, with
    /// its sentence); the observers hear once. Returns the ids answered, newest first; throws why
    /// nothing is sent when none shows or every one shown is being answered already.
    package func answerAll(_ answer: NotificationRequest.Answer) throws(FeedFailure) -> [String] {
        let ids = rows.filter { !$0.state.pending }.map(\.request.id)
        guard !ids.isEmpty else {
            throw FeedFailure(
                message: rows.isEmpty
                    ? "There are no filtered notifications to \(answer == .accept ? "accept" : "dismiss")."
                    : "Every request shown is being answered already.",
                isTransient: false
            )
        }
        quiet = true
        for id in ids {
            engine.want(answer, for: id)
        }
        quiet = false
        notify()
        return ids
    }

    private func notify() {
        observers.notify(rows)
    }
}

/// A filtered-notifications request as every screen shows it: with whether an answer to it
/// waits for the server, and the last refusal (`state.isOn` is always true: an answered request
/// leaves).
package struct NotificationRequestRow: Hashable, Sendable {
    package var request: NotificationRequest
    package var state: ToggleDisplay
}
