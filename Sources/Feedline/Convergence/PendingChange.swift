/// The convergence machine of one value the user changes and the server confirms, shown at once
/// and rolled back when the server refuses it — a post's text (an edit), a list's title, whether
/// a conversation is read, whether a post or a list still exists (a delete): what the server last
/// confirmed (the value to roll back to), what the user wants (shown), the one request in flight,
/// the re-send waited for, and the last refusal. A value; an owner (``Convergence``) routes its
/// events to these transitions.
///
/// Three phases:
/// - **settled**: nothing in flight, nothing waiting; the wanted value is the confirmed one;
/// - **sending**: one request in flight (``inFlight``) — at most one, whatever is asked meanwhile
///   (a later wish is sent once it is answered);
/// - **deferred**: its last request failed for lack of a connection, so the wish is kept and a
///   re-send waits for its backoff (``resend``).
///
/// A refusal is a note, not a phase: the value rolls back to the confirmed one at once and
/// ``refusal`` keeps the server's sentence until the next wish or ``acknowledge()``; nothing
/// sends a refused change again by itself.
///
/// Freshness: a copy fetched before the value was last learnt (``knownSince``) is older than what
/// is known and is ignored; copies are ignored while a request runs (its answer is fresher).
package struct PendingChange<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value the server last confirmed: what a refusal rolls back to.
    package var confirmed: Value
    /// What the user wants now; the display shows it.
    package var wanted: Value
    /// The request in flight, if any.
    package var inFlight: Request?
    /// The re-send this change waits for (the deferred phase), if any.
    package var resend: Resend?
    /// When the server's value was last learnt (an answer or a fetched copy); 0 when never.
    package var knownSince: StoreEpoch
    /// How many requests for the current wish failed in a row for lack of a connection.
    package var failedAttempts: Int
    /// Why the last of the ``failedAttempts`` failed (one sentence); `nil` when none failed.
    package var queuedReason: String?
    /// The last refusal: the value the server refused and its sentence, until the next wish or
    /// ``acknowledge()``.
    package var refusal: Refusal?

    /// A request this machine wants running: set the value to `value`. The token tells its
    /// answer apart from any other.
    package struct Request: Hashable, Sendable {
        package var value: Value
        package var token: StoreEpoch

        package init(value: Value, token: StoreEpoch) {
            self.value = value
            self.token = token
        }
    }

    /// A re-send waited for: after `delay`, the wish is sent again.
    package struct Resend: Hashable, Sendable {
        package var token: StoreEpoch
        package var delay: Duration

        package init(token: StoreEpoch, delay: Duration) {
            self.token = token
            self.delay = delay
        }
    }

    /// A change the server refused: the value wanted and the server's sentence.
    package struct Refusal: Hashable, Sendable {
        package var wanted: Value
        package var message: String

        package init(wanted: Value, message: String) {
            self.wanted = wanted
            self.message = message
        }
    }

    /// A value the server confirmed at `knownSince` (0: only assumed, the first copy or answer
    /// replaces it).
    package init(confirmed: Value, knownSince: StoreEpoch = 0) {
        self.confirmed = confirmed
        wanted = confirmed
        inFlight = nil
        resend = nil
        self.knownSince = knownSince
        failedAttempts = 0
        queuedReason = nil
        refusal = nil
    }

    /// Whether it waits for the server: a request in flight or a re-send deferred.
    package var isPending: Bool { inFlight != nil || resend != nil }

    /// Whether the wish differs from what the server confirmed (shown, not yet confirmed).
    package var isChanged: Bool { wanted != confirmed }
}

// MARK: - Transitions

extension PendingChange {
    /// The user wants `value`: shown at once. With nothing in flight, a deferred re-send is
    /// dropped and a request starts when `value` is not the confirmed value; with a request in
    /// flight, the wish waits for its answer. A refusal note is cleared.
    package mutating func want(_ value: Value, at epoch: StoreEpoch) {
        wanted = value
        refusal = nil
        guard inFlight == nil else { return }
        resend = nil
        if wanted != confirmed {
            inFlight = Request(value: value, token: epoch)
        } else {
            failedAttempts = 0
            queuedReason = nil
        }
    }

    /// The backoff of the re-send with `token` is over: the wish is sent again.
    package mutating func backoffElapsed(token: StoreEpoch, at epoch: StoreEpoch) {
        guard resend?.token == token else { return }
        resend = nil
        inFlight = Request(value: wanted, token: epoch)
    }

    /// Sends a deferred wish at once, without waiting for its backoff. Returns whether there was
    /// one. A refusal is not sent again (it stays a note).
    @discardableResult
    package mutating func retry(at epoch: StoreEpoch) -> Bool {
        guard let resend else { return false }
        backoffElapsed(token: resend.token, at: epoch)
        return true
    }

    /// Forgets the refusal note (the person has seen it).
    package mutating func acknowledge() {
        refusal = nil
    }

    /// Takes `value` from a copy fetched at `fetchedAt`, when it is fresher than what is known
    /// and nothing is in flight (or the value was never learnt). A settled change shows it; a
    /// deferred wish stays, and a copy that already shows it ends the deferral (reported done).
    package mutating func receive(_ value: Value, fetchedAt: StoreEpoch) -> ChangeOutcome<Value>? {
        guard fetchedAt > knownSince, inFlight == nil || knownSince == 0 else { return nil }
        confirmed = value
        knownSince = fetchedAt
        if !isPending {
            wanted = confirmed
            return nil
        }
        if resend != nil, wanted == confirmed {
            resend = nil
            failedAttempts = 0
            queuedReason = nil
            return .done(wanted)
        }
        return nil
    }

    /// The request with `token` failed. For lack of a connection (``FeedFailure/isTransient``)
    /// while the wish stands, nothing rolls back: the change is deferred and a re-send waits
    /// ``ToggleTrack/resendDelay(afterFailures:retryAfter:)``. A refusal keeps the server's
    /// sentence (``refusal``) and rolls the display back to the confirmed value — unless another
    /// wish came meanwhile, which is sent next with no note (the server refused the value sent,
    /// not it; the refusal is reported all the same).
    package mutating func failed(token: StoreEpoch, failure: FeedFailure, at epoch: StoreEpoch) -> ChangeOutcome<Value>? {
        guard let request = inFlight, request.token == token else { return nil }
        inFlight = nil
        if wanted == confirmed {
            // The user changed their mind back meanwhile: nothing to undo, nothing to report.
            failedAttempts = 0
            queuedReason = nil
            return nil
        }
        if failure.isTransient {
            failedAttempts += 1
            queuedReason = failure.message
            let delay = ToggleTrack<Int>.resendDelay(afterFailures: failedAttempts, retryAfter: failure.retryAfter)
            resend = Resend(token: epoch, delay: delay)
            return .queued(wanted, reason: failure.message, after: delay)
        }
        failedAttempts = 0
        queuedReason = nil
        if wanted != request.value {
            // Another wish came meanwhile: the refusal was of the value sent, not of it, and a
            // note would outlive the wish it does not concern.
            inFlight = Request(value: wanted, token: epoch)
        } else {
            refusal = Refusal(wanted: request.value, message: failure.message)
            wanted = confirmed
        }
        return .refused(request.value, message: failure.message)
    }

    /// The request with `token` succeeded and the server says the value is now `value`. If the
    /// user wanted something else meanwhile, one more request starts. An answer that did not
    /// apply the value sent is the server's truth: shown, reported, never sent again.
    package mutating func succeeded(token: StoreEpoch, value: Value, at epoch: StoreEpoch) -> ChangeOutcome<Value>? {
        guard let request = inFlight, request.token == token else { return nil }
        confirmed = value
        knownSince = epoch
        inFlight = nil
        failedAttempts = 0
        queuedReason = nil
        if value != request.value {
            // The server's truth; what the user wants now may be just that.
            let wish = wanted
            wanted = value
            return wish == value ? .done(value) : .notApplied(request.value, now: value)
        }
        if wanted != confirmed {
            inFlight = Request(value: wanted, token: epoch)
            return nil
        }
        return .done(value)
    }

    /// The invariants, each broken one described (empty when sound): the wish differs from the
    /// confirmed value with nothing in flight only while deferred; a deferred change has nothing
    /// in flight, something to send and a failed attempt counted; a settled one counts none.
    package var brokenInvariants: [String] {
        var broken: [String] = []
        if inFlight == nil, resend == nil, wanted != confirmed { broken.append("wanted ≠ confirmed with nothing in flight or deferred") }
        if let resend {
            if inFlight != nil { broken.append("deferred with a request in flight") }
            if wanted == confirmed { broken.append("deferred with nothing to send") }
            if failedAttempts < 1 { broken.append("deferred without a failed attempt") }
            if resend.delay < ToggleTrack<Int>.resendDelay(afterFailures: failedAttempts) {
                broken.append("a re-send after \(resend.delay) for \(failedAttempts) failed attempts")
            }
        }
        if !isPending, failedAttempts != 0 { broken.append("settled with \(failedAttempts) failed attempts") }
        if (failedAttempts > 0) != (queuedReason != nil) { broken.append("\(failedAttempts) failed attempts with reason \(queuedReason ?? "nil")") }
        return broken
    }
}

/// What an answer, a failure or a fetched copy did to a change, for the person who asked:
/// the one vocabulary every machine of the engine reports in (see ``Outcome``).
package enum ChangeOutcome<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The server confirmed the wish and nothing waits for it.
    case done(Value)
    /// The request failed for lack of a connection: the wish is kept and sent again after `after`.
    case queued(Value, reason: String, after: Duration)
    /// The server refused the wish: the display rolled back; `message` is its sentence.
    case refused(Value, message: String)
    /// The server answered without applying the value sent; it has `now`.
    case notApplied(Value, now: Value)
}
