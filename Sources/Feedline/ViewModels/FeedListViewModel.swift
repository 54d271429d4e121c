/// A list screen: the posts of a ``Feed``, the thread around a post, or the notifications — a
/// paginated list of rows with prefetching, refresh, gaps and retry, whose posts show the shared
/// state of the session's post store.
///
/// Inputs are methods (``appeared()``, ``loadMore()``, ``toggle(_:row:)`` …); the output is
/// ``snapshot`` — the rows, the changeset from the previous snapshot, and the status line — set
/// on the main actor, at most once per input.
///
/// The view model runs the pagination machine (`ListState`): every input is reduced, then the
/// request the state asks for is started, kept or cancelled by its `Feedback` loop. A response
/// is handled in one place: its posts go into the store, then the machine reduces it, together
/// with the changes the store reported for rows of this list — one snapshot. Requests never hold
/// the view model; a response that arrives after it is gone is dropped. Releasing the view model
/// releases everything its rows showed in the store.
@MainActor
public final class FeedListViewModel {
    /// What this list shows.
    public let source: ListSource
    /// Where the user's server filters apply to this list's posts (``PostFilter``).
    var filterContext: FilterContext? { source.filterContext }
    /// The store whose posts the rows show.
    package let store: PostStore
    /// The header of a profile (a list of `Feed.account`), `nil` for every other list.
    public let profile: ProfileViewModel?
    /// The header of a hashtag's timeline (`Feed.tag`): the hashtag and whether you follow it;
    /// `nil` for every other list.
    public let tagHeader: TagHeaderViewModel?
    private let relay: Relay<Snapshot>
    private let positionRelay = Relay<ReadingPosition?>(nil)
    /// What the post store knows this list shows (the row sources tell it of own posts confirmed).
    private(set) var holder: PostStore.Holder?
    /// Store changes for rows of this list reported while a response is being applied: they join
    /// its changeset.
    private var collected: [ListEvent]?
    /// Inputs waiting while another is applied (a subscriber may send from its handler), each
    /// applied as one change.
    private var batches: [[ListEvent]] = []
    private var applying = false
    /// The rows the post store takes off this list and puts back (deletes, mutes, blocks,
    /// domain blocks), and the accounts whose posts it kept away.
    let removals: PostRemovals
    /// The loads' loop (set at the end of `init`, so its handler can hold the view model weakly).
    private var loads: Feedback<ListRequest, Loaded>?
    /// What this list's family loads, receives and watches (picked from ``source`` once).
    private let rowSource: any RowSource
    /// The subscriptions of ``rowSource`` to the stores its rows show.
    private var watching: [Subscription] = []
    /// How this list makes rows from what the session's stores show now.
    let make: RowMaker

    /// A list of `source` from `service` whose posts live in `store`. Nothing loads until
    /// ``appeared()`` (or another input). Rows within `prefetchDistance` of the end load the next
    /// page when displayed.
    package init(
        source: ListSource, service: any FeedService, store: PostStore, activity: Activity, prefetchDistance: Int = 5,
        profile: ProfileViewModel? = nil, relationships: RelationshipStore? = nil, reports: ReportStore? = nil, domainBlocks: DomainBlockStore? = nil,
        tags: TagStore? = nil, tagHeader: TagHeaderViewModel? = nil, conversations: ConversationStore? = nil, lists: UserListStore? = nil,
        filters: FilterStore? = nil, notifications: NotificationDismissals? = nil, announcements: AnnouncementStore? = nil,
        scheduled: ScheduledStore? = nil, notificationRequests: NotificationRequestStore? = nil
    ) {
        self.tagHeader = tagHeader
        self.source = source
        self.store = store
        self.profile = profile
        let stores = ListStores(
            posts: store, relationships: source.showsAccounts ? relationships : nil, reports: source.showsAccounts ? reports : nil, domainBlocks: source == .domainBlocks ? domainBlocks : nil,
            tags: source.showsTags ? tags : nil, conversations: source == .conversations ? conversations : nil,
            lists: source.showsUserLists ? lists : nil, filters: source == .filters ? filters : nil, notifications: source.notificationKinds != nil ? notifications : nil,
            announcements: source == .announcements ? announcements : nil, scheduled: source == .scheduled ? scheduled : nil,
            notificationRequests: source == .notificationRequests || source.notificationKinds != nil ? notificationRequests : nil
        )
        make = RowMaker(
            store: store, filterContext: source.filterContext, relationships: stores.relationships, reports: stores.reports, conversations: stores.conversations
        )
        removals = PostRemovals(conversations: stores.conversations)
        rowSource = source.rowSource(service, stores)
        let state = ListState(prefetchDistance: prefetchDistance, refreshStyle: rowSource.refreshStyle)
        relay = Relay(Snapshot(state: state, changes: Changeset(oldCount: 0, newCount: 0)))
        holder = store.makeHolder { [weak self] event in
            guard let self else { return }
            self.removals.heard(event, in: self)
        }
        loads = Feedback(
            activity: activity,
            prepare: { _ in
                // Each store's epoch as the fetch begins: what changed in it meanwhile wins.
                FetchEpochs(
                    posts: store.beginFetch(), tags: stores.tags?.beginFetch() ?? 0, domains: stores.domainBlocks?.beginFetch() ?? 0,
                    conversations: stores.conversations?.beginFetch() ?? 0, lists: stores.lists?.beginFetch() ?? 0,
                    filters: stores.filters?.beginFetch() ?? 0, announcements: stores.announcements?.beginFetch() ?? 0,
                    notifications: stores.notifications?.beginFetch() ?? 0, scheduled: stores.scheduled?.beginFetch() ?? 0,
                    notificationRequests: source == .notificationRequests ? stores.notificationRequests?.beginFetch() ?? 0 : 0,
                    relationships: stores.relationships?.beginFetch()
                )
            },
            effect: { [weak profile, load = rowSource.loader()] request, epochs in
                let loaded = await load(request, epochs)
                // A profile's rows come after its header: the answer waits (still running, so it
                // is neither asked for again nor counted as done) until the header settled.
                if let profile {
                    profile.startIfNeverLoaded()
                    await profile.waitUntilSettled()
                }
                return loaded
            },
            handle: { [weak self] loaded in self?.receive(loaded) }
        )
        watching = rowSource.watch(self)
    }

    isolated deinit {
        loads?.cancelAll()
    }

    // MARK: - Output

    /// The state, rows, changeset and status, published after every input that changed the rows
    /// or the status, or confirmed restored rows (`ListState/unconfirmed`), on the main actor.
    public var snapshot: ReadOnlyRelay<Snapshot> { relay.readOnly }

    /// The reading position (`ListState/position`), published each time it moves — also when
    /// nothing else changed (displaying a row moves it without a new snapshot). On the main actor.
    @_spi(FeedService) public var position: ReadOnlyRelay<ReadingPosition?> { positionRelay.readOnly }

    /// The current snapshot.
    public var current: Snapshot { relay.value }

    /// The current rows.
    public var rows: RowList { relay.value.state.rows }

    /// The current status line.
    public var status: ListStatus { ListStatus(relay.value.state) }

    /// The pagination state (the machine: core and tests only).
    package var state: ListState { relay.value.state }

    /// The rows waiting above (see ``Snapshot/waiting``).
    public var waiting: RowList { relay.value.state.waiting }

    // MARK: - Input

    /// The list became visible: loads the first page if nothing is there.
    public func appeared() {
        profile?.appeared()
        tagHeader?.appeared()
        send(.appeared)
    }
    /// The row with this id is about to be displayed (prefetches near the end).
    public func rowWillDisplay(_ id: RowID) { send(.rowWillDisplay(id)) }
    /// Loads the next older page (or retries a failed one with the same cursor).
    public func loadMore() { send(.loadMoreRequested) }
    /// Loads what is newer than the top row (or reloads a thread or a bookmarks list).
    public func refresh() { send(.refreshRequested) }
    /// Runs every failed request of this list again (see `ListEvent/retryRequested`).
    public func retry() { send(.retryRequested) }
    /// Loads the items missing where the gap row `id` stands.
    public func openGap(_ id: RowID) { send(.gapOpened(id)) }
    /// Loads the list again from the top: its first page replaces the rows when it comes (until
    /// then, and if it fails, the rows stay), and older pages continue below it — for rows the
    /// list cannot get back by refreshing or paging (an account unmuted after its posts left).
    /// A thread, bookmarks and the other lists that refresh by loading again refresh.
    public func reload() { send(.reloadRequested) }
    /// Starts over: clears the rows, cancels what is in flight, loads the first page.
    public func reset() { send(.reset) }

    /// Puts the rows waiting above (`ListState/waiting`: what a stream brought) on top, in
    /// their latest copies, as a refresh would — with a gap row below them when items may be
    /// missing. Nothing happens when none waits.
    public func showWaiting() {
        send(.waitingShown(current: state.waiting.map(make.refreshed)))
    }

    /// Asks for what is newer than everything this list knows and keeps it waiting above: for
    /// a stream that reconnected, or a poll. Only lists that refresh by "newer than" do.
    public func catchUp() { send(.catchUpRequested) }

    // MARK: - Saved state

    /// Shows what an earlier run saved (``saved(limit:)``), before anything loaded — call it
    /// instead of ``appeared()`` at start. The saved post of the reading position is the first
    /// row; the saved posts newer than it wait above (`ListState/waiting`); then the list
    /// asks for what is newer than its first screen, which confirms those rows and keeps what
    /// is new waiting above. The saved copies go into the store as the oldest copies known, so
    /// anything the server sends replaces them (and a pending toggle is never clobbered).
    /// Does nothing once the list has rows or a request; an empty save loads the first page.
    /// Posts in `fresh` were fetched from the server just now (not saved copies): their rows
    /// are not marked unconfirmed.
    public func restore(_ saved: SavedList, fresh: Set<PostID> = []) {
        guard state.rows.isEmpty, state.inFlight == nil else { return }
        guard let restored = make.restored(saved, fresh: fresh) else {
            appeared()
            return
        }
        send(restored)
    }

    /// Takes a reading position kept from an earlier run or another device (a server's
    /// marker) when it is further on than this list's own (`ListEvent/positionRestored(_:)`):
    /// for a list restored without its rows (the notifications), or a marker that arrived
    /// after the rows were shown. Nothing on screen moves.
    @_spi(FeedService) public func restorePosition(_ position: ReadingPosition) {
        send(.positionRestored(position))
    }

    /// What to save of this list for the next run: the rows waiting above and the rows, newest
    /// first, at most `limit` entries (a gap never first or last), where older pages continue,
    /// and the reading position. O(limit).
    public func saved(limit: Int = SavedList.limit) -> SavedList {
        SavedList(state, limit: limit)
    }

    /// The source as mutes and blocks see it: a profile opened by handle is the profile of the
    /// account it names once its header has loaded (a mute spares it, however it was opened).
    var hidingSource: ListSource {
        if let id = profile?.accountID { return .feed(.account(id)) }
        return source
    }

    /// The rows of this list (waiting ones included) that show the post `id` names — its own
    /// row, its boosts', notifications about it — as the store knows them, without a search.
    /// O(rows of the post).
    public func rows(showing id: PostID) -> [RowID] {
        holder?.rows(showing: id) ?? []
    }

    /// Toggles `kind` (favourite, boost, bookmark) of the post the row `id` shows — optimistic,
    /// converging, and seen at once on every row and detail of that post. Returns `false` (and
    /// does nothing) when the row shows no post.
    @discardableResult
    public func toggle(_ kind: InteractionKind, row id: RowID) -> Bool {
        guard let post = rows[id: id]?.shownPost, !post.isSending, !post.isVersion else { return false }
        return store.toggle(kind, post.id)
    }

    /// Sets `kind` of the post the row `id` shows to `value`: a toggle when it differs, nothing
    /// when it already is. Returns `false` (and does nothing) when the row shows no post.
    @discardableResult
    public func set(_ kind: InteractionKind, _ value: Bool, row id: RowID) -> Bool {
        guard let post = rows[id: id]?.shownPost, !post.isSending, !post.isVersion else { return false }
        return store.set(kind, value, post.id)
    }

    /// Reveals the post the row `id` shows past its filter's warning (``PostRow/warning``) — or,
    /// when only the post it quotes is behind one (``QuoteDisplay/warned(_:_:filter:)``), that
    /// post — on every row and detail of that post. Returns `false` (and does nothing) when the
    /// row shows no post or no warning.
    @discardableResult
    public func reveal(row id: RowID) -> Bool {
        guard let post = rows[id: id]?.shownPost else { return false }
        if post.warning != nil { return store.reveal(post.id) }
        if case .warned(let quoted, _, _)? = post.quote { return store.reveal(quoted.id) }
        return false
    }

    /// Applies `event` (a user input or a response) and starts, keeps or cancels the request
    /// the state asks for.
    package func send(_ event: ListEvent) {
        enqueue([event])
    }

    /// Applies `batch` as one change, after the ones already waiting.
    private func enqueue(_ batch: [ListEvent]) {
        batches.append(batch)
        guard !applying else { return }
        applying = true
        defer { applying = false }
        while !batches.isEmpty { apply(batches.removeFirst()) }
    }

    // MARK: - Effects

    /// Handles a load's result: what it brought into the stores, then its rows into the
    /// machine, with what the stores reported meanwhile for rows already shown — one change.
    /// (A profile's loads answer only once its header settled, ``ProfileViewModel/isSettled``:
    /// fronts show, and a script prints, the header first, the same way every run.)
    private func receive(_ loaded: Loaded) {
        collected = []
        let received: Received
        switch loaded {
        case .answered(_, let receive): received = receive(self)
        case .failed(let request, let failure): received = Received(event: .pageFailed(token: request.token, failure: failure))
        }
        let changes = collected ?? []
        collected = nil
        // The response first (a reload must be an edit's first change), then what the store
        // reported for rows already shown: one changeset, one snapshot.
        enqueue([received.event] + changes + (received.followUp.map { [$0] } ?? []))
        received.then?()
    }

    /// Accepts (`accept`) or rejects the follow request the account row `id` shows: on its way
    /// at once on every screen of the account; once the server took it the row leaves every list
    /// of requests and the relationship shows the answer (``RelationshipDisplay/requestAnswer``).
    /// Returns `false` (and does nothing) for a row that is no account, or whose request is
    /// being answered or was answered.
    @discardableResult
    public func answerRequest(row id: RowID, accept: Bool) -> Bool {
        guard let account = rows[id: id]?.account, let relationships = make.relationships else { return false }
        return relationships.answerRequest(from: account.id, accept: accept)
    }

    /// A store change for rows of this list.
    func postChanged(_ change: PostChange, rows: [RowID]) {
        storeChanged(.postChanged(change, rows: rows))
    }

    /// A store change for rows of this list: sent now, or after the response being applied.
    func storeChanged(_ event: ListEvent) {
        if collected != nil {
            collected?.append(event)
        } else {
            send(event)
        }
    }

    // MARK: - Applying

    /// Reduces `events` as one change: one changeset, the store told which posts rows (and
    /// rows waiting above) now show, one snapshot published (when rows or status changed), then
    /// the requests matched.
    private func apply(_ events: [ListEvent]) {
        // What follows the change is read inside it: a copy of the snapshot costs a retain of each of its parts.
        let (changed, removed, changes, edit, after) = relay.mutate { snapshot in
            let before = ListStatus(snapshot.state)
            let unconfirmedBefore = snapshot.state.unconfirmed
            var edit = RowEdit(oldCount: snapshot.state.rows.count)
            for event in events { snapshot.state.reduce(event, into: &edit) }
            let changes = edit.changeset(in: snapshot.state)
            let removed = edit.removedRows(in: snapshot.state)
            snapshot.changes = changes
            snapshot.removed = removed
            // Unconfirmed rows only ever leave the set: nothing left it when its size held.
            snapshot.confirmed = unconfirmedBefore.count == snapshot.state.unconfirmed.count ? [] : unconfirmedBefore
                .subtracting(snapshot.state.unconfirmed)
                .filter { snapshot.state.rows.contains($0) || snapshot.state.waiting.contains($0) }
                .sorted { $0.description < $1.description }
            // Rows restored from an earlier run being confirmed is a change fronts may show.
            let changed = !changes.isEmpty || ListStatus(snapshot.state) != before || snapshot.state.unconfirmed.count != unconfirmedBefore.count
            return (changed, removed, changes, edit, (held: snapshot.state.taken.held, position: snapshot.state.position, requests: snapshot.state.requests))
        }
        if let holder {
            let quotes = holder.follow(changes, removed: removed, edit, holding: after.held, in: store)
            if !quotes.isEmpty { enqueue(quotes) }
        }
        if changed { relay.publish() }
        if after.position != positionRelay.value { positionRelay.set(after.position) }
        loads?.react(to: after.requests)
    }
}
