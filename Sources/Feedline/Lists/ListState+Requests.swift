extension ListState {
    /// The requests that should be running now — at most one: the feedback loop starts it, keeps
    /// it while this returns the same value, and cancels it when this changes.
    package var requests: [ListRequest] { inFlight.map { [$0] } ?? [] }
}
