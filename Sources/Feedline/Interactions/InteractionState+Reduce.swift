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
    /// - `retryRequested`: the value the last failure undid is wanted again (as if toggled back),
    ///   and every deferred kind is sent at once, so a front's one Retry button re-sends a
    ///   rolled-back or queued favourite, boost or bookmark.
    /// - `toggled`: flips the desired value (the display changes at once) and clears the last
    ///   failure; starts a request only when none of that kind is in flight. A deferred kind
    ///   toggled back to the confirmed value leaves the outbox with nothing sent.
    /// Replies and elapsed backoffs whose token is not the current one are ignored.
    package mutating func reduce(_ event: InteractionEvent) {
        switch event {
        case .backoffElapsed(let kind, let token, let epoch):
            guard self[kind].resend?.token == token else { return }
            want(kind, self[kind].desired, at: epoch)

        case .copyReceived(let post, let fetchedAt, _):
            for kind in InteractionKind.allCases { receive(post, kind, fetchedAt: fetchedAt) }

        case .requestFailed(let kind, let token, let failure, let epoch):
            var track = self[kind]
            guard let request = track.inFlight, request.token == token else { return }
            track.inFlight = nil
            if track.desired == track.confirmed {
                // The user already changed their mind back: nothing to undo, nothing to report.
                track.failedAttempts = 0
                track.queuedReason = nil
            } else if failure.isTransient {
                track.failedAttempts += 1
                track.queuedReason = failure.message
                track.resend = InteractionResend(
                    kind: kind, token: epoch, delay: Self.resendDelay(afterFailures: track.failedAttempts, retryAfter: failure.retryAfter)
                )
            } else {
                let wanted = track.desired
                track.desired = track.confirmed
                track.failedAttempts = 0
                track.queuedReason = nil
                self.failure = InteractionFailure(
                    kind: kind, value: wanted, message: "Could not \(kind.verb(request.value)) this post: \(failure.message)", isTransient: false
                )
            }
            self[kind] = track

        case .requestSucceeded(let kind, let token, let reply, let epoch):
            var track = self[kind]
            guard let request = track.inFlight, request.token == token else { return }
            let flag = reply.isOn(kind)
            var count = reply.count(kind)
            if kind.isCounted {
                if flag != track.confirmed, count == track.count {
                    count = max(0, track.count + (flag ? 1 : -1))
                }
                if flag { count = max(1, count) }
            }
            track.confirmed = flag
            track.count = count
            track.knownSince = epoch
            track.inFlight = nil
            track.failedAttempts = 0
            track.queuedReason = nil
            if flag != request.value {
                track.desired = flag
                failure = InteractionFailure(kind: kind, value: request.value, message: "The server did not \(kind.verb(request.value)) this post.", isTransient: false)
            } else if track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: kind, value: track.desired, token: epoch)
            }
            self[kind] = track
            // A restored post's kinds never learnt learn from the reply, a copy as fresh as the request.
            for other in InteractionKind.allCases where other != kind && self[other].knownSince == 0 {
                receive(reply, other, fetchedAt: token)
            }

        case .restored(let kind, let value, let epoch):
            want(kind, value, at: epoch)

        case .retryRequested(let epoch):
            if let failed = failure {
                failure = nil
                want(failed.kind, failed.value, at: epoch)
            }
            for kind in InteractionKind.allCases where self[kind].resend != nil {
                want(kind, self[kind].desired, at: epoch)
            }

        case .toggled(let kind, let epoch):
            failure = nil
            want(kind, !self[kind].desired, at: epoch)
        }
    }

    /// Takes `kind` from a copy fetched at `fetchedAt`, when it is fresher than what is known and
    /// nothing of that kind is in flight (or the kind was never learnt). A deferred kind keeps its
    /// wish; a copy that shows it ends the deferral.
    private mutating func receive(_ copy: Post, _ kind: InteractionKind, fetchedAt: StoreEpoch) {
        var track = self[kind]
        guard fetchedAt > track.knownSince, track.inFlight == nil || track.knownSince == 0 else { return }
        track.confirmed = copy.isOn(kind)
        track.count = copy.count(kind)
        track.knownSince = fetchedAt
        if !track.isPending {
            track.desired = track.confirmed
        } else if track.resend != nil, track.desired == track.confirmed {
            track.resend = nil
            track.failedAttempts = 0
            track.queuedReason = nil
        }
        self[kind] = track
    }

    /// The user wants `kind` set to `value`: with nothing in flight, a deferred re-send is
    /// dropped and a request starts at once when `value` is not the confirmed value.
    private mutating func want(_ kind: InteractionKind, _ value: Bool, at epoch: StoreEpoch) {
        var track = self[kind]
        track.desired = value
        if track.inFlight == nil {
            track.resend = nil
            if track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: kind, value: value, token: epoch)
            } else {
                track.failedAttempts = 0
                track.queuedReason = nil
            }
        }
        self[kind] = track
    }
}
