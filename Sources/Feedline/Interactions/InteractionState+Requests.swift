extension InteractionState {
    /// The requests that should be running: at most one per kind, each until its reply.
    /// (RxFeedback's query: the store's effect loop starts, keeps or cancels requests to match.)
    public var requests: [InteractionRequest] {
        InteractionKind.allCases.compactMap { self[$0].inFlight }
    }
}
