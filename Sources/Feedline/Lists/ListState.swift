/// The pagination machine's state: the rows in order, where the next older page starts, what is
/// loading, what failed. A value; change it only through ``reduce(_:)``.
///
/// Rows are unique by id. Rows are in the server's order, newest first; a gap row stands
/// between two rows where items may be missing.
public struct ListState: Sendable, Equatable {
    /// Where older pages continue.
    public enum Older: Hashable, Sendable {
        /// The next page starts after this cursor (`nil`: the first page).
        case from(PageCursor?)
        /// The server said there is nothing older.
        case end
    }

    /// Something the user (or prefetching) asked for that needs a request.
    public enum Intent: Hashable, Sendable {
        case fillGap(RowID)
        case loadOlder
        case refresh
        /// What arrived while a stream was down (see ``ListEvent/catchUpRequested``).
        case catchUp
        /// Restored rows from this one down that no answer has confirmed yet, asked for again
        /// as they come into view (see ``ListState/unconfirmed``).
        case confirm(RowID)
    }

    /// How a refresh finds new items.
    public enum RefreshStyle: Hashable, Sendable {
        /// Ask for the items newer than the top one (`since_id`) and insert them above, with a
        /// gap row when the page was full.
        case newer
        /// Load the first page again and replace the rows (threads; lists ordered by when the
        /// user acted, such as bookmarks, whose pages are not keyed by post).
        case reload
    }

    /// What the last refresh brought.
    public enum RefreshOutcome: Hashable, Sendable {
        /// Nothing newer than the top row.
        case nothingNew
        /// This many new rows (gaps not counted).
        case newRows(Int)
    }

    /// The rows, newest first.
    public package(set) var rows = RowList()
    /// How a refresh finds new items.
    public package(set) var refreshStyle: RefreshStyle
    /// How close to the end a displayed row must be to load the next page.
    public package(set) var prefetchDistance: Int
    public package(set) var older: Older = .from(nil)
    /// Why the last older page failed; while set, only an explicit load-more or retry asks again.
    public package(set) var olderFailure: FeedFailure?
    /// Why the last refresh failed.
    public package(set) var refreshFailure: FeedFailure?
    /// The request that should be running (RxFeedback's query: see ``requests``).
    public package(set) var inFlight: ListRequest?
    /// Requests asked for while another was running, run in order when it settles.
    public package(set) var queued: [Intent] = []
    /// The failure the status line shows: the last request that failed and is not retried yet.
    public package(set) var lastFailed: Intent?
    /// What the last refresh brought (`nil` before the first, and while one runs).
    public package(set) var lastRefresh: RefreshOutcome?
    /// The token the next request gets.
    public package(set) var nextToken = 1
    /// Rows a stream brought (or a catch-up found) that wait above the rows, newest first, so
    /// nothing moves under the reader; ``ListEvent/waitingShown(current:)`` puts them on top.
    public package(set) var waiting = RowList()
    /// Whether items may be missing between the waiting rows and the rows (a catch-up found
    /// more than a page, or a delete dropped a gap from the top): showing them then leaves a gap
    /// row below them.
    public package(set) var waitingMayMiss = false
    /// The first token of the requests that started after ``waitingMayMiss`` was set: only they
    /// can tell that nothing is missing.
    package var mayMissSince = 0
    /// Why the last catch-up failed.
    public package(set) var catchUpFailure: FeedFailure?
    /// The newest post row displayed so far (``ListEvent/rowWillDisplay(_:)``) — the reading
    /// position. It only moves forward: to a row above it in the list, or (when it is not in
    /// the list any more) to a post written after it.
    public package(set) var position: ReadingPosition?
    /// Rows restored from an earlier run (``ListEvent/restored(rows:waiting:older:confirmed:)``) that no
    /// server answer has brought again yet (nor a newer copy of their post, from anywhere):
    /// fronts may mark them as saved copies.
    public package(set) var unconfirmed: Set<RowID> = []
    /// Restored rows a confirming request was asked for already (answered or on its way): each
    /// is asked for once, so a post deleted on the server (which no answer brings) does not
    /// make its row ask again every time it is displayed. A failed request frees its rows.
    package var confirmAsked: Set<RowID> = []
    /// Set when the stream drops (or a catch-up is asked for without a drop: a first connection,
    /// a poll): posts may be missing between what waited then and what arrives later, and an
    /// answer that comes meanwhile may hold posts newer than what waited. Cleared once a
    /// catch-up, refresh or first page that started after the catch-up was asked for covers
    /// it, or showing the rows that arrived since puts a gap below them.
    package var missedSince: MissedMark?
    /// Stream arrivals so far, and when each waiting row arrived: a refresh or catch-up keeps
    /// the waiting rows that arrived after it started and drops the ones it covered.
    package var arrivals = 0
    package var arrivedAt: [RowID: Int] = [:]
    /// ``arrivals`` when the request in flight started.
    package var requestMark = 0

    /// How many restored rows the first catch-up after a restore confirms (asks above the last
    /// post among them): about a screen.
    public static let confirmDepth = 20

    /// Since when posts may be missing: ``arrivals`` when the stream dropped (rows that arrived
    /// later came after the reconnect) and, once a catch-up was asked for, the first token of
    /// the requests that started after that (`nil` while the stream is down).
    package struct MissedMark: Hashable, Sendable {
        package var arrivals: Int
        package var token: Int?
    }

    /// An empty list that has not loaded anything yet.
    public init(prefetchDistance: Int = 5, refreshStyle: RefreshStyle = .newer) {
        self.prefetchDistance = max(0, prefetchDistance)
        self.refreshStyle = refreshStyle
    }

    /// The position of the row with `id`, if present. O(1).
    public func index(of id: RowID) -> Int? { rows.index(of: id) }

    /// Whether the machine is waiting for a response.
    public var isLoading: Bool { inFlight != nil }

    /// Whether the server said there is nothing older.
    public var reachedEnd: Bool { older == .end }

    /// The failure of `intent`, if it failed and was not retried yet.
    public func failure(of intent: Intent) -> FeedFailure? {
        switch intent {
        case .loadOlder: olderFailure
        case .refresh: refreshFailure
        case .catchUp: catchUpFailure
        case .confirm: nil
        case .fillGap(let id):
            rows[id: id]?.gap.flatMap { gap in
                if case .failed(let failure) = gap.status { return failure }
                return nil
            }
        }
    }

    /// Every intent whose request failed and was not retried yet: the last failure first, then
    /// an older page, a refresh, and failed gaps from the top.
    public var failedIntents: [Intent] {
        var intents: [Intent] = []
        if olderFailure != nil { intents.append(.loadOlder) }
        if refreshFailure != nil { intents.append(.refresh) }
        if catchUpFailure != nil { intents.append(.catchUp) }
        for row in rows {
            if let gap = row.gap, case .failed = gap.status { intents.append(.fillGap(gap.id)) }
        }
        if let last = lastFailed, let index = intents.firstIndex(of: last) {
            intents.remove(at: index)
            intents.insert(last, at: 0)
        }
        return intents
    }

    /// Checks the invariants; returns a description of each one broken (empty when sound):
    /// unique ids, an index for every row, gaps only between two rows and never adjacent,
    /// a loading gap exactly when its request is in flight.
    public func checkInvariants() -> [String] {
        var broken = rows.checkIndex()
        for (offset, row) in rows.enumerated() {
            guard let gap = row.gap else { continue }
            if offset == 0 || offset == rows.count - 1 { broken.append("gap \(gap.id) at the edge (row \(offset))") }
            if offset > 0, rows[offset - 1].gap != nil { broken.append("adjacent gaps at rows \(offset - 1) and \(offset)") }
            let loading = gap.status == .loading
            let inFlightGap: Bool
            if case .gap(let requested)? = inFlight?.kind { inFlightGap = requested.id == gap.id } else { inFlightGap = false }
            if loading != inFlightGap { broken.append("gap \(gap.id) loading=\(loading) but in flight=\(inFlightGap)") }
        }
        if let last = lastFailed, failure(of: last) == nil { broken.append("last failure \(last) has no failure recorded") }
        broken += waiting.checkIndex().map { "waiting: " + $0 }
        for row in waiting {
            if row.gap != nil { broken.append("a gap waits above: \(row.id)") }
            if row.post != nil, rows.contains(row.id) { broken.append("\(row.id) both waits and is shown") }
        }
        return broken
    }
}
