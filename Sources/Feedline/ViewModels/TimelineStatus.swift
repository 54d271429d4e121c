/// The timeline's status line: what is loading, what failed, whether the end was reached.
public struct TimelineStatus: Hashable, Sendable {
    /// What is loading.
    public enum Loading: Hashable, Sendable {
        case firstPage
        case olderPage
        case refresh
        case gap(RowID)
    }

    /// A failure and what retrying it does.
    public struct Failure: Hashable, Sendable {
        public var intent: TimelineState.Intent
        public var message: String

        public init(intent: TimelineState.Intent, message: String) {
            self.intent = intent
            self.message = message
        }
    }

    public var loading: Loading?
    /// The last failure, which ``TimelineViewModel/retry()`` retries.
    public var failure: Failure?
    /// Why the last older page failed; shown at the bottom until it is retried.
    public var olderFailure: String?
    /// Whether the server said there is nothing older.
    public var reachedEnd: Bool

    public init(loading: Loading? = nil, failure: Failure? = nil, olderFailure: String? = nil, reachedEnd: Bool = false) {
        self.loading = loading
        self.failure = failure
        self.olderFailure = olderFailure
        self.reachedEnd = reachedEnd
    }

    /// The status of a pagination state.
    public init(_ state: TimelineState) {
        switch state.inFlight?.kind {
        case .page(nil): loading = .firstPage
        case .page: loading = .olderPage
        case .refresh: loading = .refresh
        case .gap(let gap): loading = .gap(gap.id)
        case nil: loading = nil
        }
        if let intent = state.lastFailed, let message = state.lastFailure {
            failure = Failure(intent: intent, message: message)
        }
        olderFailure = state.olderFailure
        reachedEnd = state.reachedEnd
    }
}
