/// The convergence machine of one on/off value the user sets and the server confirms — a post's
/// favourite, boost or bookmark (``InteractionState``), an account's follow, mute or block
/// (``RelationshipState``): what the server last confirmed, what the user wants, the request in
/// flight and the re-send waited for. A value; the owners route their events to its transitions.
///
/// Three phases:
/// - **settled**: nothing in flight, nothing waiting; the desired value is the confirmed one;
/// - **sending**: one request in flight (``inFlight``) — at most one, whatever the taps;
/// - **deferred**: its last request failed for lack of a connection, so the desired value is
///   kept and a re-send waits for its backoff (``resend``).
package struct ToggleTrack<Kind: Hashable & Sendable>: Hashable, Sendable {
    /// The flag the server last confirmed.
    package var confirmed: Bool
    /// What the user wants now; the display shows it.
    package var desired: Bool
    /// The count that goes with `confirmed` (0 for what the server does not count).
    package var count: Int
    /// When the server's value was last learnt (a reply or a fetched copy): copies fetched
    /// before this are older than what is known and are ignored. 0 when it was never learnt.
    package var knownSince: StoreEpoch
    /// What a track keeps only while it waits for the server or counts failures, out of line:
    /// `nil` when all of it is at rest, so a settled track is a few words (a store keeps five
    /// tracks for each of thousands of posts, and copies them on every change).
    private var waiting: OutOfLine<Waiting>?

    /// The parts of a track at rest in almost every track.
    private struct Waiting: Hashable, Sendable {
        var inFlight: ToggleRequest<Kind>?
        var failedAttempts = 0
        var resend: ToggleResend<Kind>?
        var queuedReason: String?
    }

    /// The request in flight, if any.
    package var inFlight: ToggleRequest<Kind>? {
        get { waiting?.value.inFlight }
        set { changeWaiting { $0.inFlight = newValue } }
    }
    /// How many requests for the current wish failed in a row for lack of a connection; 0 once
    /// the wish is confirmed or dropped. Sets the backoff of the next re-send.
    package var failedAttempts: Int {
        get { waiting?.value.failedAttempts ?? 0 }
        set { changeWaiting { $0.failedAttempts = newValue } }
    }
    /// The re-send this track waits for (the deferred phase), if any.
    package var resend: ToggleResend<Kind>? {
        get { waiting?.value.resend }
        set { changeWaiting { $0.resend = newValue } }
    }
    /// Why the last of the ``failedAttempts`` failed (one sentence); `nil` when none failed.
    package var queuedReason: String? {
        get { waiting?.value.queuedReason }
        set { changeWaiting { $0.queuedReason = newValue } }
    }

    /// Changes the out-of-line parts; back to `nil` when all of them are at rest, so two tracks
    /// that agree are equal however they got there.
    private mutating func changeWaiting(_ change: (inout Waiting) -> Void) {
        var parts = waiting?.value ?? Waiting()
        change(&parts)
        waiting = parts == Waiting() ? nil : OutOfLine(parts)
    }

    package init(
        confirmed: Bool, count: Int, desired: Bool? = nil, inFlight: ToggleRequest<Kind>? = nil, knownSince: StoreEpoch = 0,
        failedAttempts: Int = 0, resend: ToggleResend<Kind>? = nil, queuedReason: String? = nil
    ) {
        self.confirmed = confirmed
        self.count = max(0, count)
        self.desired = desired ?? confirmed
        self.knownSince = knownSince
        // A track made at rest (every copy the server sends) has nothing out of line to build.
        guard inFlight != nil || failedAttempts != 0 || resend != nil || queuedReason != nil else { return }
        changeWaiting { parts in
            parts.inFlight = inFlight
            parts.failedAttempts = failedAttempts
            parts.resend = resend
            parts.queuedReason = queuedReason ?? (failedAttempts > 0 ? "" : nil)
        }
    }

    /// Whether it waits for the server: a request in flight or a re-send deferred.
    package var isPending: Bool { inFlight != nil || resend != nil }

    /// Whether nothing waits out of line: no request in flight, no re-send, no failure counted,
    /// no reason kept. O(1); true of almost every track.
    package var isAtRest: Bool { waiting == nil }

    /// The count shown: the confirmed one adjusted by the pending change.
    package var displayedCount: Int {
        guard desired != confirmed else { return count }
        return max(0, count + (desired ? 1 : -1))
    }

    /// How long a deferred track waits before it sends again after `failures` failed attempts
    /// in a row: 2 s, 4 s, 8 s … doubling, at most 60 s — or as long as the server asked
    /// (`retryAfter`: a rate limit's reset), when that is longer.
    package static func resendDelay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        let doublings = min(max(failures, 1) - 1, 5)
        let backoff = min(Duration.seconds(2 << doublings), .seconds(60))
        return max(backoff, retryAfter ?? .zero)
    }

    // MARK: - Transitions

    /// What a reply or a failure did to the track.
    package enum Outcome: Hashable, Sendable {
        /// Not this track's current request (an old token): nothing changed.
        case ignored
        /// Applied; nothing to report.
        case applied
        /// The server refused: the display rolled back from `wanted` to the confirmed value.
        case rolledBack(wanted: Bool)
        /// The server answered without applying `requested`: its value is taken as the truth.
        case notApplied(requested: Bool)
    }

    /// The user wants `value`: with nothing in flight, a deferred re-send is dropped and a
    /// request starts at once when `value` is not the confirmed value.
    package mutating func want(_ kind: Kind, _ value: Bool, at epoch: StoreEpoch) {
        desired = value
        guard inFlight == nil else { return }
        resend = nil
        if desired != confirmed {
            inFlight = ToggleRequest(kind: kind, value: value, token: epoch)
        } else {
            failedAttempts = 0
            queuedReason = nil
        }
    }

    /// The backoff of the re-send with `token` is over: the desired value is sent again.
    package mutating func backoffElapsed(_ kind: Kind, token: StoreEpoch, at epoch: StoreEpoch) {
        guard resend?.token == token else { return }
        want(kind, desired, at: epoch)
    }

    /// Takes `flag` and `count` from a copy fetched at `fetchedAt`, when it is fresher than what
    /// is known and nothing is in flight (or the value was never learnt: then the copy's flag and
    /// count show while the request runs). A deferred wish stays; a copy that shows it ends the
    /// deferral.
    package mutating func receive(flag: Bool, count: Int, fetchedAt: StoreEpoch) {
        guard fetchedAt > knownSince, inFlight == nil || knownSince == 0 else { return }
        confirmed = flag
        self.count = count
        knownSince = fetchedAt
        if !isPending {
            desired = confirmed
        } else if resend != nil, desired == confirmed {
            resend = nil
            failedAttempts = 0
            queuedReason = nil
        }
    }

    /// The request with `token` failed. For lack of a connection (``FeedFailure/isTransient``)
    /// while the user still wants the change, nothing is rolled back: the track is deferred and
    /// a re-send waits ``resendDelay(afterFailures:retryAfter:)``, keeping the failure's sentence
    /// as the reason. A refusal rolls the display back to the confirmed value.
    package mutating func failed(_ kind: Kind, token: StoreEpoch, failure: FeedFailure, at epoch: StoreEpoch) -> Outcome {
        guard inFlight?.token == token else { return .ignored }
        inFlight = nil
        if desired == confirmed {
            // The user already changed their mind back: nothing to undo, nothing to report.
            failedAttempts = 0
            queuedReason = nil
            return .applied
        }
        if failure.isTransient {
            failedAttempts += 1
            queuedReason = failure.message
            resend = ToggleResend(kind: kind, token: epoch, delay: Self.resendDelay(afterFailures: failedAttempts, retryAfter: failure.retryAfter))
            return .applied
        }
        let wanted = desired
        desired = confirmed
        failedAttempts = 0
        queuedReason = nil
        return .rolledBack(wanted: wanted)
    }

    /// The request with `token` succeeded and the server says the value is now `flag` (with
    /// `count`; a counted value whose count lags its flag is corrected by one). If the user
    /// changed their mind meanwhile, one more request starts. A reply that did not apply the
    /// requested value is the server's truth, reported and never retried.
    package mutating func succeeded(
        _ kind: Kind, token: StoreEpoch, flag: Bool, count replyCount: Int, counted: Bool, at epoch: StoreEpoch
    ) -> Outcome {
        guard let request = inFlight, request.token == token else { return .ignored }
        var newCount = replyCount
        if counted {
            if flag != confirmed, newCount == count { newCount = max(0, count + (flag ? 1 : -1)) }
            if flag { newCount = max(1, newCount) }
        }
        confirmed = flag
        count = newCount
        knownSince = epoch
        inFlight = nil
        failedAttempts = 0
        queuedReason = nil
        if flag != request.value {
            desired = flag
            return .notApplied(requested: request.value)
        }
        if desired != confirmed { inFlight = ToggleRequest(kind: kind, value: desired, token: epoch) }
        return .applied
    }

    /// The invariants of one track, each broken one described (empty when sound): the desired
    /// value differs from the confirmed one with nothing in flight only while deferred; a
    /// deferred track has nothing in flight and a failed attempt counted; a settled track counts
    /// no failed attempts; counts are never negative, and 0 unless `counted`.
    package func brokenInvariants(_ kind: Kind, counted: Bool) -> [String] {
        var broken: [String] = []
        if inFlight == nil, resend == nil, desired != confirmed {
            broken.append("\(kind): desired \(desired) ≠ confirmed \(confirmed) with nothing in flight or deferred")
        }
        if let resend {
            if inFlight != nil { broken.append("\(kind): deferred with a request in flight") }
            if desired == confirmed { broken.append("\(kind): deferred with nothing to send") }
            if resend.kind != kind { broken.append("\(kind): a \(resend.kind) re-send in its track") }
            if failedAttempts < 1 { broken.append("\(kind): deferred without a failed attempt") }
            if resend.delay < Self.resendDelay(afterFailures: failedAttempts) {
                broken.append("\(kind): a re-send after \(resend.delay) for \(failedAttempts) failed attempts")
            }
        }
        if !isPending, failedAttempts != 0 { broken.append("\(kind): settled with \(failedAttempts) failed attempts") }
        if (failedAttempts > 0) != (queuedReason != nil) {
            broken.append("\(kind): \(failedAttempts) failed attempts with reason \(queuedReason ?? "nil")")
        }
        if count < 0 { broken.append("\(kind): negative count \(count)") }
        if !counted, count != 0 { broken.append("\(kind): a count of \(count) for an uncounted kind") }
        if let request = inFlight, request.kind != kind { broken.append("\(kind): a \(request.kind) request in its track") }
        return broken
    }
}

/// A re-send a toggle machine waits for (its deferred phase): after `delay`, the desired value
/// is sent again. The token tells this wait apart from any other.
package struct ToggleResend<Kind: Hashable & Sendable>: Hashable, Sendable {
    package var kind: Kind
    package var token: StoreEpoch
    package var delay: Duration

    package init(kind: Kind, token: StoreEpoch, delay: Duration) {
        self.kind = kind
        self.token = token
        self.delay = delay
    }
}

/// A request a toggle machine wants running: set `kind` to `value`. The token tells its reply
/// apart from any other.
package struct ToggleRequest<Kind: Hashable & Sendable>: Hashable, Sendable {
    package var kind: Kind
    package var value: Bool
    package var token: StoreEpoch

    package init(kind: Kind, value: Bool, token: StoreEpoch) {
        self.kind = kind
        self.value = value
        self.token = token
    }
}

extension ToggleTrack {
    /// What answering `request` did, for the person who asked, read from the track before
    /// (`before`) and after the answer (`self`) — `failure` when it failed: queued while a
    /// re-send waits; refused with the server's sentence when the display rolled back; not
    /// applied when the server kept another value; done when nothing waits any more. `nil` when
    /// the answer was not of the request in flight, or the wish moved on meanwhile (the next
    /// answer says how it ends).
    package func report(answering request: ToggleRequest<Kind>, before: ToggleTrack, failure: FeedFailure?) -> ChangeOutcome<Bool>? {
        guard before.inFlight == request else { return nil }
        if let failure {
            if let resend { return .queued(desired, reason: failure.message, after: resend.delay) }
            if before.desired != before.confirmed, desired == confirmed { return .refused(request.value, message: failure.message) }
            return nil
        }
        if confirmed != request.value { return .notApplied(request.value, now: confirmed) }
        return isPending ? nil : .done(confirmed)
    }

    /// What a fetched copy did, read from the track before it (`before`): done when it showed a
    /// deferred wish (nothing waits any more).
    package func report(receivingAfter before: ToggleTrack) -> ChangeOutcome<Bool>? {
        before.resend != nil && !isPending && desired == confirmed ? .done(confirmed) : nil
    }
}

/// What an answer did to one kind of a machine of several toggles (a post's favourite, boost,
/// bookmark; an account's follow, mute, block…).
package struct KindOutcome<Kind: Hashable & Sendable>: Hashable, Sendable {
    package var kind: Kind
    package var outcome: ChangeOutcome<Bool>
}
