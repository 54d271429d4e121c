/// One on/off value per key that the user sets and the server confirms — a domain's block
/// (``DomainBlockStore``), a hashtag's follow (``TagStore``): a configuration of the convergence
/// engine (``Convergence``) whose machine is the toggle machine of post interactions and
/// relationships (`ToggleTrack`) with the key's last refusal (``KeyedToggle``).
///
/// - Optimistic: ``set(_:_:)`` shows the value at once (`changed` hears it).
/// - At most one request per key in flight; changes meanwhile only move the wish.
/// - A refusal rolls back with a sentence (``State/failure``); a lost connection keeps the wish
///   and sends it again after a backoff on `retryClock`.
/// - Fetches take an epoch (``beginFetch()``) and report with ``ingest(_:_:fetchedAt:)``: a
///   value fetched before the store last learnt the key does not undo it.
///
/// Main actor only; the owner is told of every change of a key's state (`notify`), in order.
@MainActor
package final class KeyedToggles {
    /// A key's value as shown: what the user wants, whether it waits for the server, the last refusal.
    package typealias State = ToggleDisplay

    private let engine: Convergence<String, KeyedToggle>
    private let describe: @MainActor (String, Bool) -> String

    /// - Parameters:
    ///   - send: sets the key to the value on the server; returns the value the server has now.
    ///   - describe: what setting the key to a value is, for a refusal: "block the domain x".
    ///   - changed: the shown value of a key changed (`pending`: the server has not answered).
    ///   - settled: the server confirmed the pending value of a key.
    ///   - notify: the key's ``State`` changed in any way.
    ///   - outcomes: where the person hears what the server did; `subject` names a key's change
    ///     to a value.
    package init(
        activity: Activity, retryClock: any Clock<Duration>, send: @escaping @Sendable (String, Bool) async throws -> Bool,
        describe: @escaping @MainActor (String, Bool) -> String, changed: @escaping @MainActor (String, Bool, Bool) -> Void,
        settled: @escaping @MainActor (String) -> Void, notify: @escaping @MainActor (String) -> Void,
        outcomes: Outcomes?, subject: @escaping @MainActor (String, Bool) -> Outcome.Subject?
    ) {
        self.describe = describe
        engine = Convergence(
            activity: activity, retryClock: retryClock, send: { key, request in try await send(key, request.value) },
            changed: { key, before, after in
                guard let after else { return }
                // A key first set (not fetched) was taken to be the opposite of the wish it sends.
                let wasOn = before?.track.desired ?? (after.track.isPending ? !after.track.desired : false)
                if wasOn != after.track.desired { changed(key, after.track.desired, after.track.isPending) }
                // However it stopped waiting with the wish confirmed: an answer, a failure of a
                // request the wish no longer needed, or a fetched copy that showed a deferred wish.
                if before?.track.isPending == true, !after.track.isPending, after.track.desired == after.track.confirmed { settled(key) }
                // Told only when what shows changed (a fetch that agrees says nothing new).
                if before.map({ $0.state(key, describe) }) != after.state(key, describe) { notify(key) }
            },
            outcomes: outcomes, outcome: { key, report, _ in subject(key, report.value).map { subject in report.outcome { _ in subject } } }
        )
    }

    // MARK: - Reading

    /// The key's state, or `nil` when nothing told the store about it.
    package func state(_ key: String) -> State? {
        engine[key]?.state(key, describe)
    }

    /// Whether a change waits to be sent again (a retry sends it).
    package var hasFailures: Bool { engine.hasDeferred }

    /// Every change the server has not confirmed (in flight or waiting to be re-sent), by key.
    package var unsent: [(key: String, value: Bool)] {
        engine.unsent.sorted().compactMap { key in engine[key].map { (key, $0.track.desired) } }
    }

    /// Returns once no request is in flight (at once when none is), or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        await engine.waitForRequests(atMost: limit)
    }

    /// The requests in flight now, as (key, value). For tests.
    package var requestsInFlight: [(String, Bool)] {
        engine.requestsInFlight.map { ($0.0, $0.1.value) }
    }

    // MARK: - Input

    /// Marks the start of a fetch; pass its answer to ``ingest(_:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        engine.beginFetch()
    }

    /// Records that a fetch begun at `fetchedAt` says `key` is `isOn`.
    package func ingest(_ key: String, _ isOn: Bool, fetchedAt: StoreEpoch) {
        engine.update(key, orMake: { KeyedToggle(track: ToggleTrack(confirmed: isOn, count: 0)) }) { toggle, _ in
            let before = toggle.track
            toggle.track.receive(flag: isOn, count: 0, fetchedAt: fetchedAt)
            return toggle.track.report(receivingAfter: before).map { [$0] } ?? []
        }
    }

    /// Wants `value` for `key`: optimistic, converging. A key never learnt is sent whatever it
    /// shows (setting what is already set changes nothing on the server).
    package func set(_ key: String, _ value: Bool) {
        if let toggle = engine[key], toggle.track.desired == value, toggle.track.knownSince != 0 || toggle.track.isPending {
            // Asking for what shows after a refusal drops the refused change: a later retry
            // must not undo what the user just said.
            engine.update(key) { toggle, _ in
                toggle.refusal = nil
                return []
            }
            return
        }
        engine.update(key, orMake: { KeyedToggle(track: ToggleTrack(confirmed: !value, count: 0)) }) { toggle, epoch in
            if toggle.track.knownSince == 0, !toggle.track.isPending {
                toggle.track.confirmed = !value
                toggle.track.desired = !value
            }
            toggle.refusal = nil
            toggle.track.want(key, value, at: epoch)
            return []
        }
    }

    /// Sends every deferred change (waiting for a connection) at once; a refusal is not sent
    /// again (the server would refuse it again: setting the value again does). Returns whether
    /// there was any.
    @discardableResult
    package func retryFailed() -> Bool {
        engine.retry()
    }
}

/// The machine of one key of ``KeyedToggles``: its toggle machine (keyed by the key itself) and
/// the last refusal, kept until the next wish.
package struct KeyedToggle: ConvergingMachine {
    /// A change the server did not take: the value asked for and the server's sentence, or no
    /// sentence when it answered without applying it.
    package struct Refusal: Hashable, Sendable {
        package var wanted: Bool
        package var message: String?
    }

    package var track: ToggleTrack<String>
    package var refusal: Refusal?

    package init(track: ToggleTrack<String>, refusal: Refusal? = nil) {
        self.track = track
        self.refusal = refusal
    }

    /// What the key shows, its refusal worded by `describe` ("block the domain x").
    func state(_ key: String, _ describe: (String, Bool) -> String) -> KeyedToggles.State {
        let failure = refusal.map { refusal in
            refusal.message.map { "Could not \(describe(key, refusal.wanted)): \($0)" } ?? "The server did not \(describe(key, refusal.wanted))."
        }
        return ToggleDisplay(isOn: track.desired, pending: track.isPending, failure: failure)
    }

    package var requests: [ToggleRequest<String>] { track.inFlight.map { [$0] } ?? [] }
    package var resends: [ToggleResend<String>] { track.resend.map { [$0] } ?? [] }
    package var isPending: Bool { track.isPending }
    package var isDeferred: Bool { track.resend != nil }
    package static func delay(of resend: ToggleResend<String>) -> Duration { resend.delay }

    package mutating func answered(_ request: ToggleRequest<String>, with isOn: Bool, at epoch: StoreEpoch) -> [ChangeOutcome<Bool>] {
        let before = track
        if case .notApplied(let requested) = track.succeeded(request.kind, token: request.token, flag: isOn, count: 0, counted: false, at: epoch) {
            refusal = Refusal(wanted: requested, message: nil)
        }
        return track.report(answering: request, before: before, failure: nil).map { [$0] } ?? []
    }

    package mutating func failed(_ request: ToggleRequest<String>, with failure: FeedFailure, at epoch: StoreEpoch) -> [ChangeOutcome<Bool>] {
        let before = track
        if case .rolledBack(let wanted) = track.failed(request.kind, token: request.token, failure: failure, at: epoch) {
            refusal = Refusal(wanted: wanted, message: failure.message)
        }
        return track.report(answering: request, before: before, failure: failure).map { [$0] } ?? []
    }

    package mutating func elapsed(_ resend: ToggleResend<String>, at epoch: StoreEpoch) {
        track.backoffElapsed(resend.kind, token: resend.token, at: epoch)
    }

    package mutating func retry(at epoch: StoreEpoch) -> Bool {
        guard let resend = track.resend else { return false }
        track.want(resend.kind, track.desired, at: epoch)
        return true
    }
}
