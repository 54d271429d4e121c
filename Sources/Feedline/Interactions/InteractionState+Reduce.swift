extension InteractionState {
    /// Applies one event in place. Pure: the result depends on the state and the event only.
    ///
    /// - `backoffElapsed`: a deferred kind sends its desired value again.
    /// - `copyReceived`: a fetched copy updates the confirmed state of each kind that has no
    ///   request in flight and was fetched after the state was last learnt; otherwise it is
    ///   ignored for that kind, so a stale page never flips a toggle back. A deferred kind keeps
    ///   its desired value; a copy that shows it confirms it and ends the deferral. A kind never
    ///   learnt (restored from the outbox) takes the copy's flag and count even while its
    ///   request runs, so its count shows right; its wish and request stay.
    /// - `requestFailed`: for lack of a connection (``FeedFailure/isTransient``) while the user
    ///   still wants the change, nothing is rolled back: the kind is deferred, and a re-send
    ///   waits ``resendDelay(afterFailures:retryAfter:)`` (2 s, 4 s, 8 s … at most 60 s, or until
    ///   the server's rate-limit reset when that is later), keeping the failure's sentence as the
    ///   reason it is queued (``Track/queuedReason``). A refusal rolls the
    ///   display back to the confirmed state and records a failure when that undid something.
    /// - `requestSucceeded`: the reply's flag and count become the confirmed state (a count that
    ///   lags its flag — unchanged although the flag changed — is corrected by one); if the user
    ///   changed their mind meanwhile, one more request starts. A reply that did not apply the
    ///   requested value is accepted as the server's truth and reported, never retried. The other
    ///   kinds of a restored post, never learnt, are learnt from the reply as from a copy.
    /// - `restored`: the desired value becomes the saved one, as a toggle to it would make it
    ///   (sent at once when nothing is in flight) but without clearing the last failure.
    /// - `retryRequested`: every deferred kind is sent at once, so a front's one Retry button
    ///   re-sends a queued favourite, boost or bookmark. A refusal is not wanted again (the
    ///   server would refuse it again); its failure stays for fronts to show.
    /// - `toggled`: flips the desired value (the display changes at once) and clears the last
    ///   failure; starts a request only when none of that kind is in flight. A deferred kind
    ///   toggled back to the confirmed value leaves the outbox with nothing sent.
    /// Replies and elapsed backoffs whose token is not the current one are ignored.
    package mutating func reduce(_ event: InteractionEvent) {
        switch event {
        case .backoffElapsed(let kind, let token, let epoch):
            self[kind].backoffElapsed(kind, token: token, at: epoch)

        case .copyReceived(let post, let fetchedAt, _):
            for kind in InteractionKind.allCases { self[kind].receive(flag: post.isOn(kind), count: post.count(kind), fetchedAt: fetchedAt) }

        case .requestFailed(let kind, let token, let failure, let epoch):
            let request = self[kind].inFlight
            if case .rolledBack(let wanted) = self[kind].failed(kind, token: token, failure: failure, at: epoch), let request {
                self.failure = InteractionFailure(
                    kind: kind, value: wanted, message: "Could not \(kind.verb(request.value)) this post: \(failure.message)", isTransient: false
                )
            }

        case .requestSucceeded(let kind, let token, let reply, let epoch):
            let outcome = self[kind].succeeded(kind, token: token, flag: reply.isOn(kind), count: reply.count(kind), counted: kind.isCounted, at: epoch)
            switch outcome {
            case .ignored: return
            case .notApplied(let requested):
                failure = InteractionFailure(kind: kind, value: requested, message: "The server did not \(kind.verb(requested)) this post.", isTransient: false)
            case .applied, .rolledBack: break
            }
            // A restored post's kinds never learnt learn from the reply, a copy as fresh as the request.
            for other in InteractionKind.allCases where other != kind && self[other].knownSince == 0 {
                self[other].receive(flag: reply.isOn(other), count: reply.count(other), fetchedAt: token)
            }

        case .restored(let kind, let value, let epoch):
            self[kind].want(kind, value, at: epoch)

        case .retryRequested(let epoch):
            for kind in InteractionKind.allCases where self[kind].resend != nil {
                self[kind].want(kind, self[kind].desired, at: epoch)
            }

        case .toggled(let kind, let epoch):
            failure = nil
            self[kind].want(kind, !self[kind].desired, at: epoch)
        }
    }
}

/// The interaction machine as the convergence engine drives it (`PostStore`): its answers are
/// the post afterwards; what it did is told through its display, and reported per kind for the
/// person who asked (``ToggleTrack/report(answering:before:failure:)``).
extension InteractionState: ConvergingMachine {
    package static func delay(of resend: InteractionResend) -> Duration { resend.delay }

    package mutating func answered(_ request: InteractionRequest, with reply: Post, at epoch: StoreEpoch) -> [KindOutcome<InteractionKind>] {
        let before = self[request.kind]
        reduce(.requestSucceeded(request.kind, token: request.token, reply: reply, at: epoch))
        return report(request, before: before, failure: nil)
    }

    package mutating func failed(_ request: InteractionRequest, with failure: FeedFailure, at epoch: StoreEpoch) -> [KindOutcome<InteractionKind>] {
        let before = self[request.kind]
        reduce(.requestFailed(request.kind, token: request.token, failure: failure, at: epoch))
        return report(request, before: before, failure: failure)
    }

    private func report(_ request: InteractionRequest, before: ToggleTrack<InteractionKind>, failure: FeedFailure?) -> [KindOutcome<InteractionKind>] {
        self[request.kind].report(answering: request, before: before, failure: failure).map { [KindOutcome(kind: request.kind, outcome: $0)] } ?? []
    }

    package mutating func elapsed(_ resend: InteractionResend, at epoch: StoreEpoch) {
        reduce(.backoffElapsed(resend.kind, token: resend.token, at: epoch))
    }

    package mutating func retry(at epoch: StoreEpoch) -> Bool {
        guard isDeferred else { return false }
        reduce(.retryRequested(at: epoch))
        return true
    }
}
