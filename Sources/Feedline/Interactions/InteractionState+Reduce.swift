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
    /// - `copyReceived`: a fetched copy updates the confirmed state of each kind that has no
    ///   request in flight and was fetched after the state was last learnt; otherwise it is
    ///   ignored for that kind, so a stale page never flips a toggle back.
    /// Replies whose token is not the request in flight are ignored.
    public mutating func reduce(_ event: InteractionEvent) {
        switch event {
        case .copyReceived(let post, let fetchedAt, _):
            let original = post.content
            for kind in InteractionKind.allCases {
                var track = self[kind]
                guard track.inFlight == nil, fetchedAt > track.knownSince else { continue }
                track.confirmed = kind == .favourite ? original.favourited : original.reblogged
                track.count = max(0, kind == .favourite ? original.favouritesCount : original.reblogsCount)
                track.desired = track.confirmed
                track.knownSince = fetchedAt
                self[kind] = track
            }

        case .requestFailed(let kind, let token, let message, _):
            var track = self[kind]
            guard let request = track.inFlight, request.token == token else { return }
            let undone = track.desired != track.confirmed
            track.inFlight = nil
            track.desired = track.confirmed
            self[kind] = track
            if undone {
                failure = InteractionFailure(kind: kind, message: "Could not \(Self.verb(kind, request.value)) this post: \(message)")
            }

        case .requestSucceeded(let kind, let token, let reply, let epoch):
            var track = self[kind]
            guard let request = track.inFlight, request.token == token else { return }
            let original = reply.content
            let flag = kind == .favourite ? original.favourited : original.reblogged
            var count = max(0, kind == .favourite ? original.favouritesCount : original.reblogsCount)
            if flag != track.confirmed, count == track.count {
                count = max(0, track.count + (flag ? 1 : -1))
            }
            if flag { count = max(1, count) }
            track.confirmed = flag
            track.count = count
            track.knownSince = epoch
            track.inFlight = nil
            if flag != request.value {
                track.desired = flag
                failure = InteractionFailure(kind: kind, message: "The server did not \(Self.verb(kind, request.value)) this post.")
            } else if track.desired != track.confirmed {
                track.inFlight = InteractionRequest(kind: kind, value: track.desired, token: epoch)
            }
            self[kind] = track

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

    private static func verb(_ kind: InteractionKind, _ value: Bool) -> String {
        switch (kind, value) {
        case (.favourite, true): "favourite"
        case (.favourite, false): "unfavourite"
        case (.reblog, true): "boost"
        case (.reblog, false): "unboost"
        }
    }
}

extension InteractionState {
    /// The requests that should be running: at most one per kind, each until its reply.
    public var requests: [InteractionRequest] {
        InteractionKind.allCases.compactMap { self[$0].inFlight }
    }
}
