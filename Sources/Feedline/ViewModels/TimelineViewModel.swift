/// The timeline screen: a paginated list of rows with prefetching, refresh, gaps and retry,
/// whose post rows show the shared interaction state of ``PostStore``.
///
/// Inputs are the ``TimelineEvent``s (with shorthands such as ``loadMore()``); outputs are
/// ``snapshot`` — the rows, the changeset from the previous snapshot, and the status line.
/// The view model runs the pagination machine (``TimelineState``): every input is reduced, then
/// the request the state asks for is started, kept or cancelled. Page requests never capture the
/// view model strongly; a response that arrives after the view model is gone is dropped.
@MainActor
public final class TimelineViewModel {
    /// What fronts render.
    public struct Snapshot: Equatable, Sendable {
        /// The rows, newest first, unique by id.
        public var rows: [TimelineRow]
        /// How `rows` differs from the previous snapshot's rows. The first snapshot a subscriber
        /// receives is a replay of the current one: render its rows; apply the changes of the
        /// snapshots after it.
        public var changes: Changeset<TimelineRow>
        public var status: TimelineStatus
    }

    /// The pagination state (read-only; change it with events).
    public private(set) var state: TimelineState
    /// The store whose interaction state the rows show.
    public let store: PostStore
    private let service: any FeedService
    private let activity: Activity
    private let clock: WallClock
    private let relay: Relay<Snapshot>
    private var running: (request: TimelineRequest, task: Task<Void, Never>)?
    private var rowsByOriginal: [PostID: [RowID]] = [:]
    private var storeSubscription: Subscription?

    /// A timeline of `service`'s posts whose interaction state lives in `store`. Nothing loads
    /// until ``appeared()`` (or another input).
    public init(service: any FeedService, store: PostStore, activity: Activity, clock: WallClock, prefetchDistance: Int = 5) {
        self.service = service
        self.store = store
        self.activity = activity
        self.clock = clock
        let state = TimelineState(prefetchDistance: prefetchDistance)
        self.state = state
        relay = Relay(Snapshot(rows: [], changes: Changeset(oldCount: 0, newCount: 0), status: TimelineStatus(state)))
        storeSubscription = store.observe { [weak self] change in
            self?.interactionChanged(change)
        }
    }

    deinit {
        running?.task.cancel()
    }

    // MARK: - Output

    /// The rows, their changeset and the status, published after every change (on the main actor).
    public var snapshot: ReadOnlyRelay<Snapshot> { relay.readOnly }

    /// The current rows.
    public var rows: [TimelineRow] { relay.value.rows }

    /// The current status line.
    public var status: TimelineStatus { relay.value.status }

    /// A view model for the post row with this entry id, reading and writing the same shared
    /// state as every other row and detail of that post; `nil` when no such row is shown.
    public func rowViewModel(_ id: PostID) -> PostRowViewModel? {
        guard let index = state.index(of: .post(id)), let post = state.rows[index].post else { return nil }
        return PostRowViewModel(post: post, store: store, clock: clock)
    }

    // MARK: - Input

    /// Reduces `event`, updates the rows, starts/keeps/cancels the request the state asks for,
    /// and publishes the new snapshot.
    public func send(_ event: TimelineEvent) {
        let before = TimelineStatus(state)
        let entryChanges = state.reduce(event)
        react()
        let changes = displayedChanges(entryChanges)
        let status = TimelineStatus(state)
        if !changes.isEmpty || status != before {
            publish(changes, status: status)
        }
    }

    /// The timeline became visible: loads the first page if nothing is there.
    public func appeared() { send(.appeared) }
    /// The row with this id is about to be displayed (prefetches near the end).
    public func rowWillDisplay(_ id: RowID) { send(.rowWillDisplay(id)) }
    /// Loads the next older page (or retries a failed one with the same cursor).
    public func loadMore() { send(.loadMoreRequested) }
    /// Loads posts newer than the top one.
    public func refresh() { send(.refreshRequested) }
    /// Retries the request that failed last.
    public func retry() { send(.retryRequested) }
    /// Loads the posts missing where the gap row `id` stands.
    public func openGap(_ id: RowID) { send(.gapOpened(id)) }
    /// Starts over: clears the rows, cancels what is in flight, loads the first page.
    public func reset() { send(.reset) }

    // MARK: - Effects

    /// RxFeedback's `react`: keep the running request while the state asks for the same one,
    /// cancel it when the state asks for another (or none), start what is new.
    private func react() {
        let wanted = state.request
        if running?.request == wanted { return }
        running?.task.cancel()
        running = nil
        guard let wanted else { return }
        let fetchedAt = store.beginFetch()
        let task = activity.run { [service, store, weak self] in
            let event: TimelineEvent
            do {
                switch wanted.kind {
                case .page(let cursor):
                    let page = try await service.timelinePage(after: cursor)
                    try Task.checkCancellation()
                    store.ingest(page.posts, fetchedAt: fetchedAt)
                    event = .pageLoaded(token: wanted.token, page: page)
                case .refresh(let top):
                    let page = try await service.newerPosts(than: top, olderThan: nil)
                    try Task.checkCancellation()
                    store.ingest(page.posts, fetchedAt: fetchedAt)
                    event = .newerLoaded(token: wanted.token, page: page)
                case .gap(let gap):
                    let page = try await service.newerPosts(than: gap.below, olderThan: gap.above)
                    try Task.checkCancellation()
                    store.ingest(page.posts, fetchedAt: fetchedAt)
                    event = .newerLoaded(token: wanted.token, page: page)
                }
            } catch {
                event = .pageFailed(token: wanted.token, message: FeedError.message(for: error))
            }
            self?.send(event)
        }
        running = (wanted, task)
    }

    // MARK: - Rows

    /// Publishes `changes` applied to the current rows, in place: the relay's row array is
    /// mutated where it lies, so a page costs O(page), not a copy of every row.
    private func publish(_ changes: Changeset<TimelineRow>, status: TimelineStatus) {
        relay.update { snapshot in
            changes.apply(to: &snapshot.rows)
            snapshot.changes = changes
            snapshot.status = status
        }
    }

    /// The changeset of displayed rows for the machine's changeset (rows are read, not copied).
    private func displayedChanges(_ changes: Changeset<TimelineEntry>) -> Changeset<TimelineRow> {
        guard !changes.isEmpty else { return Changeset(oldCount: changes.oldCount, newCount: changes.newCount) }
        let rows = relay.value.rows
        for index in changes.deletions { forget(rows[index]) }
        var displayed = Changeset<TimelineRow>(oldCount: changes.oldCount, newCount: changes.newCount)
        displayed.deletions = changes.deletions
        displayed.insertions = changes.insertions.map { insertion in
            let row = display(insertion.element)
            remember(row)
            return .init(index: insertion.index, element: row)
        }
        displayed.moves = changes.moves.map { .init(from: $0.from, to: $0.to) }
        for update in changes.updates {
            let row = display(update.element)
            let old = rows[update.oldIndex]
            if old.id != row.id { forget(old); remember(row) }
            if old != row {
                displayed.updates.append(.init(oldIndex: update.oldIndex, newIndex: update.newIndex, element: row))
            }
        }
        return displayed
    }

    private func display(_ entry: TimelineEntry) -> TimelineRow {
        switch entry {
        case .post(let post):
            .post(PostRow(post: post, interaction: store.interaction(post.id) ?? PostInteraction(serverCopy: post)))
        case .gap(let gap):
            .gap(gap)
        }
    }

    private func remember(_ row: TimelineRow) {
        guard let post = row.post else { return }
        rowsByOriginal[post.originalID, default: []].append(row.id)
    }

    private func forget(_ row: TimelineRow) {
        guard let post = row.post else { return }
        rowsByOriginal[post.originalID]?.removeAll { $0 == row.id }
        if rowsByOriginal[post.originalID]?.isEmpty == true { rowsByOriginal[post.originalID] = nil }
    }

    /// Shows a changed interaction on every row of that post.
    private func interactionChanged(_ change: PostChange) {
        guard let ids = rowsByOriginal[change.originalID] else { return }
        var changes: Changeset<TimelineRow>
        do {
            let rows = relay.value.rows
            changes = Changeset(oldCount: rows.count, newCount: rows.count)
            for id in ids {
                guard let index = state.index(of: id), var row = rows[index].post, row.interaction != change.interaction else { continue }
                row.interaction = change.interaction
                changes.updates.append(.init(oldIndex: index, newIndex: index, element: .post(row)))
            }
        }
        guard !changes.isEmpty else { return }
        changes.updates.sort { $0.newIndex < $1.newIndex }
        publish(changes, status: TimelineStatus(state))
    }
}
