/// What can happen to a list, named for what happened (not for what to do about it).
public enum ListEvent: Hashable, Sendable {
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
    /// The user pulled to refresh.
    case refreshRequested
    /// Start over: clear the rows, cancel what is in flight, load the first page.
    case reset
    /// The user asked to retry: every request of this list that failed and was not retried yet
    /// runs again (an older page, a refresh, gaps), the last failure first.
    case retryRequested
    /// The row with this id is about to be displayed (drives prefetching).
    case rowWillDisplay(RowID)
}

/// A request a list wants running. The token tells its response apart from any earlier
/// request's.
public struct ListRequest: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// An older page after `cursor` (`nil`: the first page).
        case page(after: PageCursor?)
        /// Items newer than the top item.
        case refresh(above: ItemID)
        /// The items missing in `gap`.
        case gap(Gap)
        /// The first page again, replacing every row (lists that cannot ask for "newer than").
        case reload
    }

    public var token: Int
    public var kind: Kind

    public init(token: Int, kind: Kind) {
        self.token = token
        self.kind = kind
    }
}
