extension FeedListViewModel {
    /// What fronts render: the machine's state (rows and status are read from it, not copied)
    /// and how the rows changed since the previous snapshot.
    public struct Snapshot: Equatable, Sendable {
        /// The pagination state the rows and status come from (the machine: core only).
        package var state: ListState
        /// How ``rows`` differs from the previous snapshot's rows. The first snapshot a subscriber
        /// receives is a replay of the current one: render its rows; apply the changes of the
        /// snapshots after it.
        public package(set) var changes: Changeset<ListRow>
        /// The rows the change removed, as they were (a changeset names them by old index only).
        public package(set) var removed: [ListRow] = []
        /// Rows restored from an earlier run that this change confirmed (a server answer brought
        /// them, or a newer copy of their post): they are no longer in ``unconfirmed``.
        public package(set) var confirmed: [RowID] = []

        /// The rows, newest first, unique by id, with ``RowList/index(of:)`` in O(1).
        public var rows: RowList { state.rows }
        /// The status line.
        public var status: ListStatus { ListStatus(state) }
        /// Rows waiting above the rows, newest first (what a stream or a catch-up brought, or
        /// the saved rows newer than the reading position); ``FeedListViewModel/showWaiting()``
        /// puts them on top.
        public var waiting: RowList { state.waiting }
        /// Rows (and waiting rows) restored from an earlier run that no server answer has
        /// brought again yet: a front may mark them as saved copies.
        public var unconfirmed: Set<RowID> { state.unconfirmed }
        /// The reading position: the newest post row displayed so far (it only moves forward).
        @_spi(FeedService) public var position: ReadingPosition? { state.position }

        /// A snapshot of `state` after `changes` (for tests of fronts).
        package init(state: ListState, changes: Changeset<ListRow>, removed: [ListRow] = [], confirmed: [RowID] = []) {
            self.state = state
            self.changes = changes
            self.removed = removed
            self.confirmed = confirmed
        }
    }
}
