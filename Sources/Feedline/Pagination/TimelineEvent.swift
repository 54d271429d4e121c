/// What can happen to a timeline, named for what happened (not for what to do about it).
public enum TimelineEvent: Hashable, Sendable {
    /// The timeline became visible; loads the first page when there is nothing yet.
    case appeared
    /// The user opened the gap row with this id.
    case gapOpened(RowID)
    /// The user asked for more posts at the bottom (also retries a failed older page).
    case loadMoreRequested
    /// The request with `token` failed with a user-facing `message`.
    case pageFailed(token: Int, message: String)
    /// An older page (or the first page) arrived for the request with `token`.
    case pageLoaded(token: Int, page: Page)
    /// Newer posts arrived for the refresh or gap request with `token`.
    case newerLoaded(token: Int, page: NewerPage)
    /// The user pulled to refresh.
    case refreshRequested
    /// Start over: clear the rows, cancel what is in flight, load the first page.
    case reset
    /// The user asked to retry what failed last.
    case retryRequested
    /// The row with this id is about to be displayed (drives prefetching).
    case rowWillDisplay(RowID)
}

/// A request the timeline wants running. The token tells its response apart from any
/// earlier request's.
public struct TimelineRequest: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// An older page after `cursor` (`nil`: the first page).
        case page(after: PageCursor?)
        /// Posts newer than the top post.
        case refresh(above: PostID)
        /// The posts missing in `gap`.
        case gap(Gap)
    }

    public var token: Int
    public var kind: Kind

    public init(token: Int, kind: Kind) {
        self.token = token
        self.kind = kind
    }
}
