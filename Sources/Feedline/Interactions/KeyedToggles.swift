/// One on/off value per key that the user sets and the server confirms — a domain's block
/// (``DomainBlockStore``), a hashtag's follow (``TagStore``): the toggle machine of post
/// interactions and relationships (`ToggleTrack`) per key, with its requests and re-sends.
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
    package struct State: Hashable, Sendable {
        package var isOn: Bool
        package var pending: Bool
        package var failure: String?
    }

    private struct Request: Hashable, Sendable {
        var request: ToggleRequest<String>
    }

    private enum Reply: Sendable {
        case succeeded(Request, Bool)
        case failed(Request, FeedFailure)
        case elapsed(ToggleResend<String>)
    }

    private var tracks: [String: ToggleTrack<String>] = [:]
    /// The last refusal of each key: its sentence and the value that was refused.
    private var failures: [String: (message: String, wanted: Bool)] = [:]
    private var epoch: StoreEpoch = 0
    private var requests: Feedback<Request, Reply>?
    private var waits: Feedback<ToggleResend<String>, Reply>?
    private let requestWaiters = DeadlineWaiters()
    private let retryClock: any Clock<Duration>
    private let describe: @MainActor (String, Bool) -> String
    private let changed: @MainActor (String, _ now: Bool, _ pending: Bool) -> Void
    private let settled: @MainActor (String) -> Void
    private let notify: @MainActor (String) -> Void

    /// - Parameters:
    ///   - send: sets the key to the value on the server; returns the value the server has now.
    ///   - describe: what setting the key to a value is, for a refusal: "block the domain x".
    ///   - changed: the shown value of a key changed (`pending`: the server has not answered).
    ///   - settled: the server confirmed the pending value of a key.
    ///   - notify: the key's ``State`` changed in any way.
    package init(
        activity: Activity, retryClock: any Clock<Duration>, send: @escaping @Sendable (String, Bool) async throws -> Bool,
        describe: @escaping @MainActor (String, Bool) -> String, changed: @escaping @MainActor (String, Bool, Bool) -> Void,
        settled: @escaping @MainActor (String) -> Void, notify: @escaping @MainActor (String) -> Void
    ) {
        self.retryClock = retryClock
        self.describe = describe
        self.changed = changed
        self.settled = settled
        self.notify = notify
        requests = Feedback(
            activity: activity,
            effect: { request in
                do {
                    return .succeeded(request, try await send(request.request.kind, request.request.value))
                } catch {
                    return .failed(request, FeedFailure(error))
                }
            },
            handle: { [weak self] reply in self?.settle(reply) }
        )
        waits = .waits(
            activity: activity, clock: retryClock, delay: { $0.delay }, elapsed: { .elapsed($0) },
            handle: { [weak self] reply in self?.settle(reply) }
        )
    }

    // MARK: - Reading

    /// The key's state, or `nil` when nothing told the store about it.
    package func state(_ key: String) -> State? {
        guard let track = tracks[key] else { return nil }
        return State(isOn: track.desired, pending: track.isPending, failure: failures[key]?.message)
    }

    /// Whether a change waits to be sent again (a retry sends it).
    package var hasFailures: Bool {
        tracks.contains { $0.value.resend != nil }
    }

    /// Every change the server has not confirmed (in flight or waiting to be re-sent), by key.
    package var unsent: [(key: String, value: Bool)] {
        tracks.filter(\.value.isPending).keys.sorted().compactMap { key in tracks[key].map { (key, $0.desired) } }
    }

    /// Returns once no request is in flight (at once when none is), or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        guard !(requests?.requests.isEmpty ?? true) else { return }
        await requestWaiters.wait(atMost: limit, on: retryClock)
    }

    /// The requests in flight now, as (key, value). For tests.
    package var requestsInFlight: [(String, Bool)] {
        (requests?.requests ?? []).map { ($0.request.kind, $0.request.value) }
    }

    // MARK: - Input

    /// Marks the start of a fetch; pass its answer to ``ingest(_:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Records that a fetch begun at `fetchedAt` says `key` is `isOn`.
    package func ingest(_ key: String, _ isOn: Bool, fetchedAt: StoreEpoch) {
        let before = tracks[key]
        let shownBefore = state(key)
        var track = before ?? ToggleTrack(confirmed: isOn, count: 0)
        track.receive(flag: isOn, count: 0, fetchedAt: fetchedAt)
        tracks[key] = track
        if before?.desired != track.desired, before != nil || track.desired { changed(key, track.desired, track.isPending) }
        // A copy that shows a deferred wish ends the deferral: the wish stands.
        if let before { settleIfDone(key, before: before, after: track) }
        // Told only when what shows changed (a fetch that agrees says nothing new).
        if state(key) != shownBefore { notify(key) }
        match(key)
    }

    /// Wants `value` for `key`: optimistic, converging. A key never learnt is sent whatever it
    /// shows (setting what is already set changes nothing on the server).
    package func set(_ key: String, _ value: Bool) {
        var track = tracks[key] ?? ToggleTrack(confirmed: !value, count: 0)
        if track.desired == value, track.knownSince != 0 || track.isPending {
            // Asking for what shows after a refusal drops the refused change: a later retry
            // must not undo what the user just said.
            if failures.removeValue(forKey: key) != nil { notify(key) }
            return
        }
        if track.knownSince == 0, !track.isPending {
            track.confirmed = !value
            track.desired = !value
        }
        let before = track.desired
        epoch += 1
        failures[key] = nil
        track.want(key, value, at: epoch)
        tracks[key] = track
        if before != track.desired { changed(key, track.desired, track.isPending) }
        notify(key)
        match(key)
    }

    /// Sends every deferred change (waiting for a connection) at once; a refusal is not sent
    /// again (the server would refuse it again: setting the value again does). Returns whether
    /// there was any.
    @discardableResult
    package func retryFailed() -> Bool {
        var any = false
        for key in tracks.keys.sorted() {
            guard var track = tracks[key] else { continue }
            if track.resend != nil {
                any = true
                epoch += 1
                track.want(key, track.desired, at: epoch)
                tracks[key] = track
                notify(key)
                match(key)
            }
        }
        return any
    }

    // MARK: - Effects

    private func settle(_ reply: Reply) {
        defer {
            if !requestWaiters.isEmpty, requests?.requests.isEmpty ?? true { requestWaiters.resumeAll() }
        }
        epoch += 1
        switch reply {
        case .elapsed(let resend):
            guard var track = tracks[resend.kind] else { return }
            track.backoffElapsed(resend.kind, token: resend.token, at: epoch)
            tracks[resend.kind] = track
            match(resend.kind)
        case .succeeded(let request, let isOn):
            let key = request.request.kind
            guard var track = tracks[key] else { return }
            let before = track
            let shownBefore = state(key)
            let outcome = track.succeeded(key, token: request.request.token, flag: isOn, count: 0, counted: false, at: epoch)
            tracks[key] = track
            if case .notApplied(let requested) = outcome {
                failures[key] = ("The server did not \(describe(key, requested)).", requested)
            }
            if before.desired != track.desired { changed(key, track.desired, track.isPending) }
            settleIfDone(key, before: before, after: track)
            if state(key) != shownBefore { notify(key) }
            match(key)
        case .failed(let request, let failure):
            let key = request.request.kind
            guard var track = tracks[key] else { return }
            let before = track
            let shownBefore = state(key)
            let outcome = track.failed(key, token: request.request.token, failure: failure, at: epoch)
            tracks[key] = track
            if case .rolledBack(let wanted) = outcome {
                failures[key] = ("Could not \(describe(key, wanted)): \(failure.message)", wanted)
            }
            if before.desired != track.desired { changed(key, track.desired, track.isPending) }
            // A failure after the wish came back to the confirmed value: nothing waits any more.
            settleIfDone(key, before: before, after: track)
            if state(key) != shownBefore { notify(key) }
            match(key)
        }
    }

    /// Tells the owner the key's value stands when it stopped waiting for the server with the
    /// wish confirmed — however it stopped: an answer, a failure of a request the wish no longer
    /// needed, or a fetched copy that showed the deferred wish.
    private func settleIfDone(_ key: String, before: ToggleTrack<String>, after: ToggleTrack<String>) {
        if before.isPending, !after.isPending, after.desired == after.confirmed { settled(key) }
    }

    /// Makes the requests and waits match what the key's track asks for.
    private func match(_ key: String) {
        let track = tracks[key]
        requests?.react(to: track?.inFlight.map { [Request(request: $0)] } ?? [], within: { $0.request.kind == key })
        waits?.react(to: track?.resend.map { [$0] } ?? [], within: { $0.kind == key })
    }
}
