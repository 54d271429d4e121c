/// Your notification policy as every screen shows it (Mastodon 4.3+: who gets their
/// notifications accepted, filtered into requests, or dropped).
///
/// A configuration of the convergence engine (`Convergence`): each field of the policy is a
/// `PendingChange` of its handling, keyed by the field — changed at once on every screen, one
/// change per field in flight (one asked meanwhile is sent after its answer), rolled back with
/// the server's sentence on refusal, and sent again after a backoff when the server cannot be
/// reached (``FeedSession/retry()`` sends it at once). The summary (requests waiting) is the
/// last fetched copy's.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class NotificationPolicyStore: OneEngineStore {
    private typealias Field = NotificationPolicy.Field
    private typealias Handling = NotificationPolicy.Handling

    private let observers = HandlerList<NotificationPolicy?>()
    private let service: any FeedService
    private let activity: Activity
    package private(set) var engine: Convergence<NotificationPolicy.Field, PendingChange<NotificationPolicy.Handling>>!
    /// The last fetched copy's counts; `nil` until a fetch brought the policy.
    private var summary: (requests: Int, notifications: Int)?
    /// Set while the store changes fields itself and tells the observers once, after.
    private var quiet = false

    /// A store that reads the policy from and sends its changes to `service`, counted in
    /// `activity`, re-sends those that failed for lack of a connection on `retryClock`, and says
    /// what the server did in `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        self.service = service
        self.activity = activity
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { field, request in try await service.setNotificationPolicy(field, to: request.value)[field] },
            changed: { [weak self] _, _, _ in
                guard let self, !self.quiet else { return }
                self.notify()
            },
            outcomes: outcomes,
            outcome: { field, report, _ in report.outcome { .notificationPolicy(field.name, value: $0.rawValue) } }
        )
    }

    // MARK: - Reading

    /// The policy as shown now — each field as wanted (a change shows at once) — or `nil` until
    /// it was read from the server.
    package var policy: NotificationPolicy? {
        guard let summary else { return nil }
        var policy = NotificationPolicy(pendingRequests: summary.requests, pendingNotifications: summary.notifications)
        for field in NotificationPolicy.Field.allCases {
            if let change = engine[field] { policy[field] = change.wanted }
        }
        return policy
    }

    /// Whether a change of `field` waits for the server.
    package func isPending(_ field: NotificationPolicy.Field) -> Bool { engine[field]?.isPending ?? false }

    /// The last refusal of a change of `field`, as a sentence, or `nil`.
    package func failure(_ field: NotificationPolicy.Field) -> String? {
        engine[field]?.refusal.map { "Could not \(Self.sentence(field, $0.wanted)): \($0.message)" }
    }

    /// Calls `handler` on the main actor with ``policy`` after every change, in order. Lasts as
    /// long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (NotificationPolicy?) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Every change the server has not confirmed, as sentences, in the order asked.
    package var unsent: [String] {
        engine.unsent.compactMap { field in engine[field].map { Self.sentence(field, $0.wanted) } }
    }

    // MARK: - Input

    /// Reads the policy from the server (counted in the activity) and shows it; a field changed
    /// meanwhile keeps its change. Returns why it could not be read, or `nil`.
    package func load() async -> FeedFailure? {
        let fetchedAt = engine.beginFetch()
        let service = service
        let answer: Result<NotificationPolicy, FeedFailure> = await activity.perform {
            do { return .success(try await service.notificationPolicy()) } catch { return .failure(FeedFailure(error)) }
        }
        switch answer {
        case .success(let policy):
            ingest(policy, fetchedAt: fetchedAt)
            return nil
        case .failure(let failure):
            return failure
        }
    }

    /// Records a copy of the policy fetched at `fetchedAt`: each field takes it unless a change
    /// of it waits for the server or something fresher is known.
    package func ingest(_ fetched: NotificationPolicy, fetchedAt: StoreEpoch) {
        quiet = true
        for field in NotificationPolicy.Field.allCases {
            let value = fetched[field]
            engine.update(field, orMake: { PendingChange(confirmed: value) }) { change, _ in
                change.receive(value, fetchedAt: fetchedAt).map { [$0] } ?? []
            }
        }
        summary = (fetched.pendingRequests, fetched.pendingNotifications)
        quiet = false
        notify()
    }

    /// Sets `field` to `handling`: shown at once; rolled back with the server's sentence on
    /// refusal. Throws when the policy was not read yet (there is nothing to roll back to).
    package func set(_ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling) throws(FeedFailure) {
        guard summary != nil, engine[field] != nil else {
            throw FeedFailure(message: "The notification policy has not been read from your server yet.", isTransient: false)
        }
        quiet = true
        engine.want(handling, for: field)
        quiet = false
        notify()
    }

    private func notify() {
        observers.notify(policy)
    }

    /// "filter notifications from people you don't follow".
    private static func sentence(_ field: NotificationPolicy.Field, _ handling: NotificationPolicy.Handling) -> String {
        "\(handling.rawValue) notifications from \(field.phrase)"
    }
}
