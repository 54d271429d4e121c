extension StreamLifecycleState {
    /// Work live updates run. Equal requests are the same work: a connection keeps running from
    /// connecting to live because its request does not change, and the poll timer keeps its
    /// schedule through every phase but off.
    package enum Request: Hashable, Sendable {
        /// Open the stream at `endpoint` and read it until it ends (attempt `attempt`).
        case connect(Endpoint, attempt: Int)
        /// Ask the server where its stream lives (during attempt `attempt`).
        case discover(attempt: Int)
        /// Sleep `duration` on the clock before attempt `attempt`.
        case backoff(Duration, attempt: Int)
        /// Sleep `every` on the clock, then poll.
        case poll(every: Duration)
    }

    /// What should be running now: nothing when off or once the token was refused; else the
    /// poll timer (every list when polling, the lists the stream does not feed otherwise) and,
    /// unless polling, the one step towards a stream the phase is at.
    package var requests: [Request] {
        let poll = Request.poll(every: policy.pollInterval)
        switch phase {
        case .off, .unauthorized: return []
        case .connecting(let attempt), .live(let attempt): return [.connect(endpoint, attempt: attempt), poll]
        case .discovering(let attempt): return [.discover(attempt: attempt), poll]
        case .waiting(let attempt): return [.backoff(policy.backoff(attempt: attempt), attempt: attempt), poll]
        case .polling: return [poll]
        }
    }
}
