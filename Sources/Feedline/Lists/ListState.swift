/// The pagination machine's state: the rows in order, where the next older page starts, what is
/// loading, what failed. A value; change it only through ``reduce(_:)``.
///
/// Rows are unique by id. Rows are in the server's order, newest first; a gap row stands
/// between two rows where items may be missing.
package struct ListState: Sendable, Equatable {
    /// Where older pages continue.
    package enum Older: Hashable, Sendable {
        /// The next page starts after this cursor (`nil`: the first page).
        case from(PageCursor?)
        /// The server said there is nothing older.
        case end
    }

    /// Something the user (or prefetching) asked for that needs a request (a front sees it as
    /// the ``ListStatus/Loading`` it shows, or as what failed).
    package enum Intent: Hashable, Sendable {
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
    package enum RefreshOutcome: Hashable, Sendable {
        /// Nothing newer than the top row.
        case nothingNew
        /// This many new rows (gaps not counted).
        case newRows(Int)
    }

    /// How a refresh finds new items.
    package enum RefreshStyle: Hashable, Sendable {
        /// Ask for the items newer than the top one (`since_id`) and insert them above, with a
        /// gap row when the page was full.
        case newer
        /// Load the first page again and replace the rows (threads; lists ordered by when the
        /// user acted, such as bookmarks, whose pages are not keyed by post).
        case reload
    }

    /// The rows, newest first.
    package var rows = RowList()
    /// How a refresh finds new items.
    package var refreshStyle: RefreshStyle
    /// How close to the end a displayed row must be to load the next page.
    package var prefetchDistance: Int
    package var older: Older = .from(nil)
    /// Why the last older page failed; while set, only an explicit load-more or retry asks again.
    package var olderFailure: FeedFailure?
    /// Why the last refresh failed.
    package var refreshFailure: FeedFailure?
    /// Why the last reload (``ListEvent/reloadRequested``, of a list that refreshes by "newer
    /// than") failed.
    package var reloadFailure: FeedFailure?
    /// The request that should be running (RxFeedback's query: see ``requests``).
    package var inFlight: ListRequest?
    /// Requests asked for while another was running, run in order when it settles.
    package var queued: [Intent] = []
    /// The failure the status line shows: the last request that failed and is not retried yet.
    package var lastFailed: Intent?
    /// What the last refresh brought (`nil` before the first, and while one runs).
    package var lastRefresh: RefreshOutcome?
    /// How many entries the server sent for this list that could not be read and were left
    /// out, over every answer since the list started (or was reset).
    package var skipped = 0
    /// The token the next request gets.
    package var nextToken = 1
    /// Rows a stream brought (or a catch-up found) that wait above the rows, newest first, so
    /// nothing moves under the reader; `ListEvent/waitingShown(current:)` puts them on top.
    package var waiting: RowList { waitingRows.rows }
    /// Whether items may be missing between the waiting rows and the rows (a catch-up found
    /// more than a page, or a delete dropped a gap from the top): showing them then leaves a gap
    /// row below them.
    package var waitingMayMiss: Bool { waitingRows.mayMiss }
    /// The waiting rows with the bookkeeping that places them: arrivals, drops, what may be
    /// missing. Changed only through its own transitions.
    package var waitingRows = WaitingRows()
    /// Why the last catch-up failed.
    package var catchUpFailure: FeedFailure?
    /// The newest post row displayed so far (`ListEvent/rowWillDisplay(_:)`) — the reading
    /// position. It only moves forward: to a row above it in the list, or (when it is not in
    /// the list any more) to a post written after it.
    package var position: ReadingPosition?
    /// Rows restored from an earlier run (`ListEvent/restored(rows:waiting:older:confirmed:)`) that no
    /// server answer has brought again yet (nor a newer copy of their post, from anywhere):
    /// fronts may mark them as saved copies.
    package var unconfirmed: Set<RowID> = []
    /// Restored rows a confirming request was asked for already (answered or on its way): each
    /// is asked for once, so a post deleted on the server (which no answer brings) does not
    /// make its row ask again every time it is displayed. A failed request frees its rows.
    package var confirmAsked: Set<RowID> = []
    /// How many restored rows the first catch-up after a restore confirms (asks above the last
    /// post among them): about a screen.
    package static let confirmDepth = 20
    /// One's own posts the server confirmed (`ListEvent/ownConfirmed(local:_:)`,
    /// `ListEvent/ownPosted(_:)`) that no page has placed in the server's order yet: shown on top
    /// when made, and moved among the rows that waited above by the stream's order when those
    /// are shown — a guess. They are never where newer pages are asked above (``topRow``) nor
    /// taken as proof that a page reached the rows, so what others posted meanwhile is neither
    /// skipped nor loaded at once; a refresh or gap that brings one puts it where the server has
    /// it. Each with the stream's arrival count (`WaitingRows/arrivals`) when it was made, or
    /// when its stream copy came: the waiting rows that arrived by then are older than it.
    package var ownUnplaced: [RowID: Int] = [:]
    /// Rows pending removals took, with their places, until the server answers each
    /// (`ListEvent/rowsTaken(_:by:)`); a reset keeps them (a refusal puts them back still).
    package var taken = TakenRows()

    /// An empty list that has not loaded anything yet.
    package init(prefetchDistance: Int = 5, refreshStyle: RefreshStyle = .newer) {
        self.prefetchDistance = max(0, prefetchDistance)
        self.refreshStyle = refreshStyle
    }

    /// The position of the row with `id`, if present. O(1).
    package func index(of id: RowID) -> Int? { rows.index(of: id) }

    /// Whether the machine is waiting for a response.
    package var isLoading: Bool { inFlight != nil }

    /// Whether the server said there is nothing older.
    package var reachedEnd: Bool { older == .end }

    /// The failure of `intent`, if it failed and was not retried yet.
    package func failure(of intent: Intent) -> FeedFailure? {
        switch intent {
        case .loadOlder: olderFailure
        case .refresh: refreshFailure
        case .reload: reloadFailure
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
    package var failedIntents: [Intent] {
        var intents: [Intent] = []
        if olderFailure != nil { intents.append(.loadOlder) }
        if refreshFailure != nil { intents.append(.refresh) }
        if reloadFailure != nil { intents.append(.reload) }
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
    /// a loading gap exactly when its request is in flight, the waiting rows sound
    /// (`WaitingRows/checkInvariants()`) and none of their posts shown, their marks no later
    /// than the next token.
    package func checkInvariants() -> [String] {
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
        // One row per post: a row found by its post's id too (one's own, confirmed) is the only row of that post.
        for row in rows {
            if let alias = row.alias, rows.index(of: alias) != rows.index(of: row.id) { broken.append("\(alias) shown twice (also as \(row.id))") }
        }
        for id in ownUnplaced.keys where !rows.contains(id) { broken.append("\(id) is one's own unplaced post but not a row") }
        if refreshStyle == .newer, topRowIndex > 0, rows.indices.contains(topRowIndex), rows[topRowIndex].gap != nil {
            broken.append("gap \(rows[topRowIndex].id) right below one's own posts on top")
        }
        for id in taken.held where rows.contains(id) { broken.append("\(id) is held while taken but a row") }
        broken += waitingRows.checkInvariants()
        for row in waiting where row.post != nil && rows.contains(row.id) { broken.append("\(row.id) both waits and is shown") }
        if waitingRows.mayMissSince > nextToken { broken.append("may miss since token \(waitingRows.mayMissSince), not asked yet") }
        if let asked = waitingRows.missedSince?.token, asked > nextToken { broken.append("missed since token \(asked), not asked yet") }
        return broken
    }
}
