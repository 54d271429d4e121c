/// The session's one on/off setting per name that every screen shares — a blocked domain
/// (``DomainBlockStore``), a followed hashtag (``TagStore``): ``KeyedToggles`` under a store's
/// rules for names (how any spelling is keyed, what can be one) and its own change type, which
/// observers hear after every change of a name's setting.
///
/// A store is this type configured by its feature (a typealias and a constrained extension with
/// the feature's `init`, words and rules), so the loop, the observers and the reading are
/// written once.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class KeyedToggleStore<Change: Sendable>: ConvergingStore {
    private let observers = HandlerList<Change>()
    /// Set at the end of `init`, so its handlers can hold the store weakly.
    private var toggles: KeyedToggles?
    private let key: @Sendable (String) -> String
    private let isValid: @Sendable (String) -> Bool
    private let change: @MainActor (String, ToggleDisplay) -> Change

    /// - Parameters:
    ///   - key: a name as the store keys it (any spelling of one name gives one key).
    ///   - isValid: whether a key can be a name at all (``set(_:_:)`` refuses the rest).
    ///   - change: what observers hear of a key's new setting.
    ///   - send, describe, outcomes, subject: as ``KeyedToggles``.
    ///   - changed: the shown value of a key changed (`pending`: the server has not answered).
    ///   - settled: the server confirmed a key's pending value, which is the second argument.
    init(
        activity: Activity, retryClock: any Clock<Duration>, key: @escaping @Sendable (String) -> String,
        isValid: @escaping @Sendable (String) -> Bool, change: @escaping @MainActor (String, ToggleDisplay) -> Change,
        send: @escaping @Sendable (String, Bool) async throws -> Bool, describe: @escaping @MainActor (String, Bool) -> String,
        changed: @escaping @MainActor (String, Bool, Bool) -> Void = { _, _, _ in },
        settled: @escaping @MainActor (String, Bool) -> Void = { _, _ in },
        outcomes: Outcomes?, subject: @escaping @MainActor (String, Bool) -> Outcome.Subject?
    ) {
        self.key = key
        self.isValid = isValid
        self.change = change
        toggles = KeyedToggles(
            activity: activity, retryClock: retryClock, send: send, describe: describe, changed: changed,
            settled: { [weak self] key in
                if let isOn = self?.toggles?.state(key)?.isOn { settled(key, isOn) }
            },
            notify: { [weak self] key in self?.notify(key) },
            outcomes: outcomes, subject: subject
        )
    }

    // MARK: - Reading

    /// The name's setting as shown now (`name` in any spelling the store keys alike), or `nil`
    /// when nothing told the store about it.
    package func state(_ name: String) -> ToggleDisplay? {
        toggles?.state(key(name))
    }

    /// Calls `handler` on the main actor after every change of a name's setting, in order.
    /// Lasts as long as the returned token.
    package func observe(_ handler: @escaping @MainActor @Sendable (Change) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether a change failed and was not retried, or waits to be sent again.
    package var hasFailures: Bool { toggles?.hasFailures ?? false }

    /// Every change the server has not confirmed (in flight or waiting to be re-sent), with the
    /// value wanted, by key.
    var unsentChanges: [(key: String, value: Bool)] { toggles?.unsent ?? [] }

    /// Returns once no request is in flight (at once when none is), or after `limit` on the
    /// retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        await toggles?.waitForRequests(atMost: limit)
    }

    /// The requests in flight now, as (key, value). For tests.
    package var requestsInFlight: [(String, Bool)] { toggles?.requestsInFlight ?? [] }

    // MARK: - Input

    /// Marks the start of a fetch; pass what it says to ``ingest(_:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        toggles?.beginFetch() ?? 0
    }

    /// Records that a fetch begun at `fetchedAt` says `key` (already keyed) is `isOn`.
    func ingest(_ key: String, _ isOn: Bool, fetchedAt: StoreEpoch) {
        toggles?.ingest(key, isOn, fetchedAt: fetchedAt)
    }

    /// Sets the name (`true`) or clears it: optimistic, converging. Returns `false` (nothing
    /// happens) for something that cannot be a name.
    @discardableResult
    package func set(_ name: String, _ value: Bool) -> Bool {
        let keyed = key(name)
        guard isValid(keyed) else { return false }
        toggles?.set(keyed, value)
        return true
    }

    /// Wants again every change that rolled back, and sends every deferred one at once.
    /// Returns whether there was any.
    @discardableResult
    package func retryFailed() -> Bool {
        toggles?.retryFailed() ?? false
    }

    private func notify(_ key: String) {
        guard let display = toggles?.state(key) else { return }
        observers.notify(change(key, display))
    }
}
