extension InteractionState {
    /// The requests that should be running: at most one per kind, each until its reply.
    /// (RxFeedback's query: the store's effect loop starts, keeps or cancels requests to match.)
    package var requests: [InteractionRequest] {
        InteractionKind.allCases.compactMap { self[$0].inFlight }
    }

    /// The re-sends that should be waiting: one per deferred kind, until its backoff elapses or
    /// the kind stops being deferred (then the wait is cancelled).
    package var resends: [InteractionResend] {
        InteractionKind.allCases.compactMap { self[$0].resend }
    }

    /// What this post has in the outbox: every pending kind (a request in flight or a deferred
    /// re-send) with the value the user wants, in `InteractionKind.allCases` order. A request
    /// in flight counts even when the user changed their mind back, because its outcome is
    /// unknown until it answers.
    package func outbox(postID: PostID) -> [OutboxEntry] {
        InteractionKind.allCases.filter { self[$0].isPending }.map { OutboxEntry(postID: postID, kind: $0, value: self[$0].desired) }
    }
}
