/// A list's status line: what is loading, what failed, what the last refresh brought, whether
/// the end was reached. Derived from the list machine's state.
public struct ListStatus: Hashable, Sendable {
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
        /// Saved rows from this one down, asked for again to confirm them as they come into view.
        /// Quiet while it loads (``ListStatus/loading`` is `nil` then): seen only as what failed.
        case confirm(RowID)

        /// What `intent` loads, for a list with no rows yet (`empty`) or some.
        init(_ intent: ListState.Intent, empty: Bool) {
            switch intent {
            case .loadOlder: self = empty ? .firstPage : .olderPage
            case .refresh: self = .refresh
            case .reload: self = .reload
            case .fillGap(let id): self = .gap(id)
            case .catchUp: self = .catchUp
            case .confirm(let id): self = .confirm(id)
            }
        }
    }

    /// A failure and what retrying it does.
    public struct Failure: Hashable, Sendable {
        /// What failed, as it showed while it loaded: ``FeedListViewModel/retry()`` loads it again.
        public var intent: Loading
        public var failure: FeedFailure

        public init(intent: Loading, failure: FeedFailure) {
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
    /// How many new rows the last refresh brought (gaps not counted; 0: nothing newer than the
    /// top row), once it has come back.
    public var lastRefresh: Int?
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
        lastRefresh: Int? = nil
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
            self.failure = Failure(intent: Loading(intent, empty: state.rows.isEmpty), failure: failure)
        }
        olderFailure = state.olderFailure
        reachedEnd = state.reachedEnd
        lastRefresh = switch state.lastRefresh {
        case .nothingNew?: 0
        case .newRows(let count)?: count
        case nil: nil
        }
        skipped = state.skipped
    }

    /// Whether anything failed that a retry would run again.
    public var hasFailure: Bool { failure != nil || olderFailure != nil }
}
