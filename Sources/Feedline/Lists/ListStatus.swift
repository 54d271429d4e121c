/// A list's status line: what is loading, what failed, what the last refresh brought, whether
/// the end was reached. Derived from the list machine's state.
public struct ListStatus: Hashable, Sendable {
    /// Something the user (or prefetching) asked for that needs a request.
    public enum Intent: Hashable, Sendable {
        case fillGap(RowID)
        case loadOlder
        case refresh
        /// The first page again, replacing the rows (see `ListEvent/reloadRequested`).
        case reload
        /// What arrived while a stream was down (see `ListEvent/catchUpRequested`).
        case catchUp
        /// Restored rows from this one down that no answer has confirmed yet, asked for again
        /// as they come into view (see `ListState/unconfirmed`).
        case confirm(RowID)
    }

    /// What the last refresh brought.
    public enum RefreshOutcome: Hashable, Sendable {
        /// Nothing newer than the top row.
        case nothingNew
        /// This many new rows (gaps not counted).
        case newRows(Int)
    }

    /// What is loading.
    public enum Loading: Hashable, Sendable {
        case firstPage
        case olderPage
        case refresh
        /// The first page again, to replace the rows (a list that refreshes by loading its first
        /// page again shows ``refresh`` instead).
        case reload
        case gap(RowID)
        /// What arrived while a stream was down.
        case catchUp
    }

    /// A failure and what retrying it does.
    public struct Failure: Hashable, Sendable {
        public var intent: Intent
        public var failure: FeedFailure

        public init(intent: Intent, failure: FeedFailure) {
            self.intent = intent
            self.failure = failure
        }

        /// The sentence to show.
        public var message: String { failure.message }
    }

    public var loading: Loading?
    /// The last failure not retried yet; ``FeedListViewModel/retry()`` retries it (and every
    /// other failure of the list).
    public var failure: Failure?
    /// Why the last older page failed; shown at the bottom until it is retried.
    public var olderFailure: FeedFailure?
    /// Whether the server said there is nothing older.
    public var reachedEnd: Bool
    /// What the last refresh brought, once it has come back.
    public var lastRefresh: RefreshOutcome?
    /// Rows waiting above, brought by a stream (``FeedListViewModel/showWaiting()`` shows them).
    public var waiting: Int = 0
    /// Newer rows that came past the most that wait (200) and were let go to bound memory:
    /// a refresh loads them (showing the waiting rows leaves a gap row for them below).
    public var waitingBeyond: Int = 0
    /// How many entries the server sent for this list that could not be read (a wrong type,
    /// broken JSON inside one post) and were left out, since the list started or was reset:
    /// the rest of each page is shown. A front says so when it grows.
    public var skipped: Int = 0

    public init(
        loading: Loading? = nil, failure: Failure? = nil, olderFailure: FeedFailure? = nil, reachedEnd: Bool = false,
        lastRefresh: RefreshOutcome? = nil
    ) {
        self.loading = loading
        self.failure = failure
        self.olderFailure = olderFailure
        self.reachedEnd = reachedEnd
        self.lastRefresh = lastRefresh
    }

    /// The status of a pagination state.
    package init(_ state: ListState) {
        switch state.inFlight?.kind {
        case .page(nil): loading = .firstPage
        case .page: loading = .olderPage
        case .refresh: loading = state.rows.isEmpty && state.older != .end ? .firstPage : .refresh
        case .reload:
            loading = state.rows.isEmpty && state.older != .end ? .firstPage : state.refreshStyle == .reload ? .refresh : .reload
        case .gap(let gap): loading = .gap(gap.id)
        case .catchUp: loading = .catchUp
        // Confirming saved copies is quiet: nothing a reader waits for.
        case .confirm, nil: loading = nil
        }
        waiting = state.waiting.count
        waitingBeyond = state.waitingRows.beyond
        if let intent = state.lastFailed, let failure = state.failure(of: intent) {
            self.failure = Failure(intent: intent, failure: failure)
        }
        olderFailure = state.olderFailure
        reachedEnd = state.reachedEnd
        lastRefresh = state.lastRefresh
        skipped = state.skipped
    }

    /// Whether anything failed that a retry would run again.
    public var hasFailure: Bool { failure != nil || olderFailure != nil }
}
