/// What can happen to a list, named for what happened (not for what to do about it).
package enum ListEvent: Hashable, Sendable {
    /// The list became visible; loads the first page when there is nothing yet.
    case appeared
    /// The user opened the gap row with this id.
    case gapOpened(RowID)
    /// The user asked for more items at the bottom (also retries a failed older page).
    case loadMoreRequested
    /// The request with `token` failed.
    case pageFailed(token: Int, failure: FeedFailure)
    /// An older page (or the first page, or a reload) arrived for the request with `token`.
    case pageLoaded(token: Int, page: Page<ListRow>)
    /// Newer items arrived for the refresh or gap request with `token`.
    case newerLoaded(token: Int, page: NewerPage<ListRow>)
    /// The shared state of a post changed; `rows` are the rows of this list that show it.
    case postChanged(PostChange, rows: [RowID])
    /// The post that `rows` of this list quote changed (its latest copy, its shared state).
    case quoteChanged(PostChange, rows: [RowID])
    /// The post with this id, which `rows` of this list quote, was deleted: their quotes say so.
    case quoteDeleted(PostID, rows: [RowID])
    /// The user pulled to refresh.
    case refreshRequested
    /// The user asked to load the list again: its first page replaces the rows once it comes
    /// (they stay until then, and stay if it fails); older pages continue below it. A list
    /// that refreshes by loading its first page again (`ListState/RefreshStyle/reload`) refreshes.
    case reloadRequested
    /// Start over: clear the rows, cancel what is in flight, load the first page.
    case reset
    /// The user asked to retry: every request of this list that failed and was not retried yet
    /// runs again (an older page, a refresh, gaps), the last failure first.
    case retryRequested
    /// The row with this id is about to be displayed (drives prefetching).
    case rowWillDisplay(RowID)
    /// Rows pushed by a stream, newest first: they wait above the rows (`ListState/waiting`);
    /// a row already shown is updated in place instead (a notification group that grew waits to
    /// move up).
    case streamed([ListRow])
    /// The user asked to see the rows waiting above; `current` are those rows with the store's
    /// latest copies (the view model reads them). They go on top as a refresh's would, with a
    /// gap row below them when posts may be missing between them and the rows.
    case waitingShown(current: [ListRow])
    /// The stream reconnected (or a poll is due): ask for what is newer than everything known
    /// and keep it waiting above.
    case catchUpRequested
    /// The stream dropped: what it sends from the reconnect on may not follow what waits now,
    /// and answers that come meanwhile may hold posts it missed.
    case streamInterrupted
    /// Rows saved by an earlier run (``SavedList``), before anything loaded: `rows` from the
    /// reading position down, `waiting` the saved rows newer than it (they wait above, as
    /// streamed ones do), `older` where older pages continue (`nil`: the end). Ignored once the
    /// list has rows or a request. A list that refreshes by "newer than" then asks for what is
    /// newer than its first screen (`ListState/confirmDepth` rows): the answer confirms
    /// those rows and what is newer waits above.
    ///
    /// `confirmed` names rows whose copies came from the server just now (a post fetched by id
    /// to start from): they are not marked as saved copies.
    case restored(rows: [ListRow], waiting: [ListRow], older: PageCursor?, confirmed: Set<RowID> = [])
    /// A reading position kept from an earlier run or another device (a server's marker):
    /// it becomes the list's position when the list has none or it is newer (written later);
    /// the rows do not move.
    case positionRestored(ReadingPosition)
    /// These rows' posts were deleted: they leave the rows and the waiting rows.
    case rowsRemoved([RowID])
    /// The relationship with an account changed: its account row shows it.
    case accountChanged(AccountID, RelationshipDisplay)
    /// Your report of an account changed (`nil`: rolled back): its account row shows it.
    case accountReported(AccountID, ToggleDisplay?)
    /// A domain's block changed: its domain row shows it.
    case domainChanged(String, ToggleDisplay)
    /// Whether an announcement is read changed: its row shows it.
    case announcementRead(String, ToggleDisplay)
    /// Whether you follow a hashtag changed: its hashtag row shows it.
    case tagChanged(String, following: Bool)
    /// A conversation changed: its row shows it in place — or, `toTop`, it has a new post and
    /// moves to the top (onto a list with rows that did not show it).
    case conversationChanged(ConversationRow, toTop: Bool)
    /// Your lists changed (the lists screen's rows are the store's lists): once the list has
    /// loaded, these rows replace its rows. Must be the only event of its edit.
    case userListsChanged([ListRow])
    /// Your filters changed (made, changed, deleted, answered): the filters screen's rows, all of them.
    case filtersChanged([ListRow])
    /// Your scheduled posts changed (the scheduled screen's rows are the store's): once the
    /// list has loaded, these rows replace its rows. Must be the only event of its edit.
    case scheduledChanged([ListRow])
    /// Your requests of filtered notifications changed (the filtered-notifications screen's rows
    /// are the store's): once the list has loaded, these rows replace its rows. Must be the only
    /// event of its edit.
    case notificationRequestsChanged([ListRow])
    /// The signed-in user's own post, just confirmed by the server, to show at once (see
    /// `ListState/ownPosted(_:_:)`).
    case ownPosted(ListRow)
    /// One's own post on its way, shown at once (under `parent` in a thread).
    case ownSending(ListRow, parent: PostID?)
    /// The server confirmed one's own post shown as `local`: the row becomes it.
    case ownConfirmed(local: PostID, ListRow)
    /// One's own post shown as `local` will not be posted: its row goes.
    case ownWithdrawn(local: PostID)
    /// Rows back where they were (each at its index if it is not a row already).
    case rowsReinserted([ReinsertedRow])
    /// A pending removal (`cause`: a mute, block or unfollow, a domain block, a delete, a
    /// conversation's removal, an account taken off a list) took these rows: they leave the
    /// rows and the waiting rows, and those of the rows are kept with their places
    /// (`ListState/taken`) until the server answers.
    case rowsTaken([RowID], by: TakenRows.Cause)
    /// The server took the removal `cause`: the rows it took are gone for good.
    case removalConfirmed(TakenRows.Cause)
    /// The server refused the removal `cause`: the rows it took go back where they were, each
    /// as `current` has it now (as taken when `current` lacks it) — but for those in
    /// `stillHidden`, which another cause (a mute, block or delete) still keeps away.
    case removalRefused(TakenRows.Cause, current: [ListRow], stillHidden: Set<RowID>)
    /// Of the rows `cause` took, those `current` has may show again: they go back where they
    /// were, as `current` has them; the others stay taken (a hide filter changed, see
    /// `TakenRows/Cause/filter(_:)`).
    case rowsPutBack(TakenRows.Cause, current: [ListRow])
}

/// A request a list wants running. The token tells its response apart from any earlier
/// request's.
package struct ListRequest: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// An older page after `cursor` (`nil`: the first page).
        case page(after: PageCursor?)
        /// Items newer than the top item — and older than `olderThan` when set: the rest of a
        /// refresh whose newest page showed nothing (a filter hid it, or its posts were deleted
        /// while it came) but said more was missing below it.
        case refresh(above: ItemID, olderThan: ItemID? = nil)
        /// The items missing in `gap`.
        case gap(Gap)
        /// The first page again, replacing every row (lists that cannot ask for "newer than").
        case reload
        /// Items newer than everything known (waiting rows included), to wait above the rows.
        ///
        /// Older than `olderThan` when set: the rest of a catch-up whose newest page showed
        /// nothing but said more was missing below it.
        case catchUp(above: ItemID, olderThan: ItemID? = nil)
        /// The items between `above` and `olderThan` again (`olderThan` `nil`: up to the newest),
        /// to confirm restored rows from `first` down, where they stand: rows the answer brings
        /// are updated in place and confirmed; nothing is inserted.
        case confirm(first: RowID, above: ItemID, olderThan: ItemID?)
    }

    package var token: Int
    package var kind: Kind

    /// The cursor of an older page (`nil`: the first page, or not a page request) — what the
    /// lists that only page forwards (accounts, search, tags, …) ask their service with.
    package var pageCursor: PageCursor? {
        if case .page(let after) = kind { after } else { nil }
    }

    package init(token: Int, kind: Kind) {
        self.token = token
        self.kind = kind
    }
}

/// A row put back where it was, after a delete the server refused.
package struct ReinsertedRow: Hashable, Sendable {
    /// Its index when it was taken away.
    package var index: Int
    package var row: ListRow

    package init(index: Int, row: ListRow) {
        self.index = index
        self.row = row
    }
}
