extension InteractionState {
    /// Applies one event in place. Pure: the result depends on the state and the event only.
    ///
    /// - `toggled`: flips the desired value (the display changes at once) and clears the last
    ///   failure; starts a request only when none of that kind is in flight.
    /// - `requestSucceeded`: the reply's flag and count become the confirmed state (a count that
    ///   lags its flag — unchanged although the flag changed — is corrected by one); if the user
    ///   changed their mind meanwhile, one more request starts. A reply that did not apply the
    ///   requested value is accepted as the server's truth and reported, never retried.
    /// - `requestFailed`: the display rolls back to the confirmed state; a failure is recorded
    ///   when that rollback undid something the user wanted.
    /// - `retryRequested`: the value the last failure undid is wanted again (as if toggled back),
    ///   so a front's one Retry button re-sends a rolled-back favourite, boost or bookmark.
    /// - `copyReceived`: a fetched copy updates the confirmed state of each kind that has no
    ///   request in flight and was fetched after the state was last learnt; otherwise it is
    ///   ignored for that kind, so a stale page never flips a toggle back.
    /// Replies whose token is not the request in flight are ignored.
    public mutating func reduce(_ event: InteractionEvent) {
        switch event {
        case .copyReceived(let post, let fetchedAt, _):
            for kind in InteractionKind.allCases {
                var track = self[kind]
                guard track.inFlight == nil, fetchedAt > track.knownSince else { continue }
                track.confirmed = post.isOn(kind)
                track.count = post.count(kind)
                track.desired = track.confirmed
                track.knownSince = fetchedAt
                self[kind] = track
            }

        case .requestFailed(let kind, let token, let failure, _):
            var track = self[kind]
            guard let request = track.inFlight, request.token == token else { return }
            let undone = track.desired != track.confirmed
            let wanted = track.desired
            track.inFlight = nil
            track.desired = track.confirmed
            self[kind] = track
            if undone {
                self.failure = InteractionFailure(
                    kind: kind, value: wanted, message: "Could not \(kind.verb(request.value)) this post: \(failure.message)",
                    isTransient: failure.isTransient
                )
            }

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
            if flag != request.value {
                track.desired = flag
                failure = InteractionFailure(kind: kind, value: request.value, message: "The server did not \(kind.verb(request.value)) this post.", isTransient: false)
            } else if track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: kind, value: track.desired, token: epoch)
            }
            self[kind] = track

        case .retryRequested(let epoch):
            guard let failed = failure else { return }
            failure = nil
            var track = self[failed.kind]
            track.desired = failed.value
            if track.inFlight == nil, track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: failed.kind, value: track.desired, token: epoch)
            }
            self[failed.kind] = track

        case .toggled(let kind, let epoch):
            var track = self[kind]
            failure = nil
            track.desired.toggle()
            if track.inFlight == nil, track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: kind, value: track.desired, token: epoch)
            }
            self[kind] = track
        }
    }
}
