/// A change of one post's shared state, as every row and detail that shows the post must show it.
public struct PostChange: Hashable, Sendable {
    /// The original post's id (the store's key).
    public var originalID: PostID
    /// The latest copy of the original post.
    public var post: Post
    /// Its displayed interaction state.
    public var interaction: PostInteraction

    public init(originalID: PostID, post: Post, interaction: PostInteraction) {
        self.originalID = originalID
        self.post = post
        self.interaction = interaction
    }
}

/// The one source of truth for posts, shared by every list and detail of a session: the latest
/// copy of each post and its interaction state.
///
/// - **One entry per original.** Posts are keyed by their *original* id (`reblog?.id ?? id`), so
///   a reblog entry and the original share state; each entry id also resolves to its original.
/// - **Interactions converge.** The store is a configuration of the convergence engine
///   (`Convergence`) whose machine, one per post, is an `InteractionState`: at most one request
///   per post and kind in flight, extra taps only move the desired value, refusals roll back
///   with a reason (see `InteractionState/reduce(_:)`).
/// - **An outbox.** A request that fails for lack of a connection is not rolled back: the kind
///   stays pending and is sent again after a backoff on the store's clock (the engine's waits),
///   at ``FeedSession/retry()``, and at the next start through ``outbox`` /
///   ``restore(outbox:)`` (see `PostStore+Outbox.swift`).
/// - **Freshness.** Fetches take an epoch with `beginFetch()` when they start and report what they
///   bring with `ingest(_:fetchedAt:)`; a copy fetched before the store last learnt a post's state
///   is ignored for that post, so a stale page never flips a toggle back.
/// - **Rows are told, not searched.** Lists and details show posts through a holder: the store
///   knows which rows of which holder show each post and tells exactly those when it changes — a
///   change reaches r rows in O(r), whatever the size of the lists.
/// - **Bounded memory.** A post no holder shows and with nothing pending (no request in flight,
///   nothing in the outbox) joins a cache of ``cacheCapacity`` recently shown posts; the oldest
///   beyond it are forgotten.
/// - **Deletes win over older fetches.** A post deleted (a stream said so) is remembered with the
///   epoch it was deleted at; a copy of it fetched by a fetch that began before that is stale
///   (`wasDeleted(_:fetchedAt:)`), so a page on its way when the delete came never brings it
///   back. The last ``tombstoneCapacity`` deletes are remembered.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
public final class PostStore {
    /// What the store tells a holder about a post it shows.
    enum HolderEvent {
        /// The post's copy or shared state changed; `rows` are the holder's rows that show it.
        case changed(PostChange, rows: [RowID])
        /// The entry was deleted: `rows` are the holder's rows that showed it (every row of an
        /// original — its boosts and notifications too —, only its own rows for a boost), and
        /// `detail` whether the holder shows the deleted original as its detail. `pending` names
        /// the post of a delete the user asked for and the server has not confirmed: a holder
        /// keeps what it took away until ``undeleted(_:)`` or ``deleteSettled(_:)`` says.
        case deleted(rows: [RowID], detail: Bool, pending: PostID?)
        /// The server refused the pending delete of this post: what was taken away comes back.
        case undeleted(PostID)
        /// The server confirmed the pending delete of this post: what was kept can go.
        case deleteSettled(PostID)
        /// The user muted, blocked or unfollowed the account: `rows` are the holder's rows of its
        /// posts and boosts (see ``AccountHiding`` for which rows each removes where). While
        /// `pending`, a holder keeps what it took away until ``accountShown(_:)`` or
        /// ``accountHidingSettled(_:)`` says.
        case accountHidden(AccountID, handle: String?, rows: [RowID], hiding: AccountHiding, pending: Bool)
        /// The server refused the pending hiding of the account: what was taken away comes back.
        case accountShown(AccountID)
        /// The server confirmed the hiding of the account: what was kept can go.
        case accountHidingSettled(AccountID)
        /// The server confirmed an unmute or unblock of the account: a list that kept any of its
        /// posts away loads them again (its rows and pages may lack them for good otherwise).
        case accountUnhidden(AccountID)
        /// A domain was blocked: the rows of its accounts' posts this holder shows (their
        /// boosts, boosts of their posts) leave; a notifications list also drops what is only
        /// from them. While `pending`, kept until ``domainShown`` or ``domainHidingSettled``.
        case domainHidden(String, rows: [RowID], pending: Bool)
        /// The server refused the pending block of the domain: what was taken away comes back.
        case domainShown(String)
        /// The server confirmed the block of the domain: what was kept can go.
        case domainHidingSettled(String)
        /// The post `rows` quote changed (its copy or shared state): their quotes show it.
        case quoteChanged(PostChange, rows: [RowID])
        /// The post `rows` quote was deleted: their quotes say so (the rows stay).
        case quoteDeleted(PostID, rows: [RowID])
    }

    /// One list or detail showing posts. The store tells it when a post it shows changes or is
    /// deleted, with the rows that show it. Releasing the holder releases everything it showed.
    @MainActor
    final class Holder {
        fileprivate let id: Int
        fileprivate weak var store: PostStore?
        /// Originals shown, with how many rows (or the detail) show each.
        fileprivate var shown: [PostID: Int] = [:]
        /// For each row shown through ``show(_:)`` that quotes a post, one entry per time it was
        /// shown: the post it quoted then, so ``hide(_:)`` and ``moveQuote(of:)`` undo exactly
        /// that. Rows that quote nothing take no room (most rows).
        private var quotesOfRows: [RowID: [PostID]] = [:]

        fileprivate init(id: Int, store: PostStore) {
            self.id = id
            self.store = store
        }

        /// Starts showing the post `id` names (an entry or original id the store knows) in `row`
        /// (`nil` for a detail). Returns `false` for a post the store does not know.
        @discardableResult
        func show(_ id: PostID, row: RowID?) -> Bool {
            store?.show(id, row: row, by: self) ?? false
        }

        /// Stops showing the post `id` names in `row`.
        func hide(_ id: PostID, row: RowID?) {
            store?.hide(id, row: row, by: self)
        }

        /// Starts showing the post `id` names as the quote inside `row` (a row, or the detail's
        /// own id): its changes and its delete reach `row` as ``HolderEvent/quoteChanged(_:rows:)``
        /// and ``HolderEvent/quoteDeleted(_:rows:)`` — hiding and deleting the quoted post never
        /// takes the quoting row away. Returns `false` for a post the store does not know.
        @discardableResult
        func showQuote(_ id: PostID, in row: RowID) -> Bool {
            store?.showQuote(id, in: row, by: self) ?? false
        }

        /// Stops showing the post `id` names as the quote inside `row`.
        func hideQuote(_ id: PostID, in row: RowID) {
            store?.hideQuote(id, in: row, by: self)
        }

        /// Starts showing what `row` shows: its post and the post that one quotes.
        func show(_ row: ListRow) {
            guard let post = row.shownPost else { return }
            show(post.originalID, row: row.id)
            guard let quoted = post.quotedID else { return }
            showQuote(quoted, in: row.id)
            quotesOfRows[row.id, default: []].append(quoted)
        }

        /// Stops showing what `row` shows (the quote it was shown with, whatever it quotes now).
        func hide(_ row: ListRow) {
            guard let post = row.shownPost else { return }
            hide(post.originalID, row: row.id)
            guard var quotes = quotesOfRows[row.id], let last = quotes.popLast() else { return }
            quotesOfRows[row.id] = quotes.isEmpty ? nil : quotes
            hideQuote(last, in: row.id)
        }

        /// `row`, changed in place, now quotes what it shows: the quote it was shown with is
        /// hidden and the one it quotes now shown (a quote approved, withdrawn or deleted since).
        /// Returns whether it changed.
        @discardableResult
        func moveQuote(of row: ListRow) -> Bool {
            let now = row.shownPost?.quotedID
            let quotes = quotesOfRows[row.id] ?? []
            guard quotes.contains(where: { $0 != now }) || (quotes.isEmpty && now != nil) else { return false }
            for old in quotes { hideQuote(old, in: row.id) }
            guard let now else {
                quotesOfRows[row.id] = nil
                return true
            }
            // A row that quoted nothing when shown was shown once as far as this knows.
            for _ in 0..<max(1, quotes.count) { showQuote(now, in: row.id) }
            quotesOfRows[row.id] = Array(repeating: now, count: max(1, quotes.count))
            return true
        }

        /// The rows of this holder that show the post `id` names. O(holders of the post).
        func rows(showing id: PostID) -> [RowID] {
            store?.rows(showing: id, in: self) ?? []
        }

        /// Stops showing everything.
        func hideAll() {
            quotesOfRows.removeAll()
            store?.release(self)
        }

        isolated deinit {
            store?.release(self)
        }
    }

    final class Entry {
        /// The latest copy; `nil` for a post known only from a restored outbox, until a copy of
        /// it or a reply arrives. Such an entry shows nowhere and is forgotten when it settles
        /// without a copy.
        var post: Post?
        var contentEpoch: StoreEpoch
        /// The post's interaction machine as the engine has it: a copy the engine's `changed`
        /// keeps in step (every change of a machine goes through the engine).
        fileprivate(set) var state: InteractionState
        /// Reblog entry ids that resolve to this original, with the account that boosted.
        var wrappers: [PostID: AccountID] = [:]
        /// Who shows it, in the order they started, with the rows that show it (none for a detail).
        var holders: [(id: Int, rows: [RowID], details: Int)] = []
        /// Who shows it as the quote inside their rows (or details), in the order they started.
        var quoting: [(id: Int, rows: [RowID])] = []
        /// Set while the entry waits in the unused queue.
        var unusedStamp: UInt64?
        /// Whether the user revealed it past a filter's warning (shared by every row and detail).
        var revealed = false
        /// Its author muted or blocked (or their domain): quotes of it are not shown. Only
        /// quotes hear of it (``quotedDisplay``): the post's own rows do not show it.
        var authorHidden: Quote.State?

        /// Whether no row or detail shows it, on its own or as a quote.
        var isUnshown: Bool { holders.isEmpty && quoting.isEmpty }

        /// What rows and details show: the interaction state, and the reveal.
        var display: PostInteraction {
            var display = state.display
            display.revealed = revealed
            return display
        }

        /// What a quote of it shows: ``display`` and whether its author is hidden.
        var quotedDisplay: PostInteraction {
            var display = display
            display.authorHidden = authorHidden
            return display
        }

        /// An entry of `post` whose machine is `state`; the store puts `state` in the engine.
        init(post: Post?, contentEpoch: StoreEpoch, state: InteractionState) {
            self.post = post
            self.contentEpoch = contentEpoch
            self.state = state
        }
    }

    /// How many posts that nothing shows are kept, most recently shown first.
    public let cacheCapacity: Int
    /// How many deletes are remembered (the fetches they outdate are the ones running when they came).
    public static let tombstoneCapacity = 1_000
    /// How many forgotten posts are remembered for the fetches that began before they were
    /// forgotten (a copy fetched before they were forgotten starts from what the store learnt).
    public static let forgottenCapacity = 1_000
    /// The last state of posts the cache forgot, with the epoch it was learnt at: a copy of one
    /// that a fetch begun before that brings back starts from it, so what the store learnt
    /// (a favourite's answer, an edit) survives the post being forgotten meanwhile.
    private var recentlyForgotten = RecentMemory<PostID, (learnt: StoreEpoch, post: Post, contentEpoch: StoreEpoch, state: InteractionState)>(
        capacity: PostStore.forgottenCapacity
    )
    /// Deleted ids (an entry's or an original's) with the epoch of their delete.
    private var tombstones = RecentMemory<PostID, StoreEpoch>(capacity: PostStore.tombstoneCapacity)
    /// The holders each pending delete reached (see ``deleting(_:)``).
    private var pendingDeletes: [PostID: [Int]] = [:]
    /// Deletes the user asked for that the server has not answered: quotes of those posts are
    /// left as they are until it does.
    private var deletesOnTheirWay: Set<PostID> = []
    /// Each post shown with an edit the server has not confirmed, as it was before (see `PostStore+Writing.swift`).
    var pendingEdits: [PostID: Post] = [:]
    /// Each post with a vote on its way, as it was before the vote.
    var pendingVotes: [PostID: Post] = [:]
    /// Who hears how each vote on its way went.
    var voteReports: [PostID: @MainActor @Sendable (FeedFailure?) -> Void] = [:]
    /// The votes on their way (see `PostStore+Writing.swift`).
    var votes: Feedback<VoteSent, (VoteSent, VoteAnswer)>?
    /// One's own deletes on their way, and who hears how each went.
    var deletes: Feedback<PostID, (PostID, Result<Post, FeedFailure>)>?
    var deleteReports: [PostID: [@MainActor @Sendable (Result<Post, FeedFailure>) -> Void]] = [:]
    /// What votes are sent to, and counted in.
    let service: any FeedService
    let activity: Activity
    private let observers = HandlerList<PostChange>()
    /// Every post by original id (internal for `PostStore+Outbox.swift`, like the members below).
    var entries: [PostID: Entry] = [:]
    var originalOfEntry: [PostID: PostID] = [:]
    var holders: [Int: @MainActor (HolderEvent) -> Void] = [:]
    /// The entries (originals by their author, boosts by who boosted) of each account, for
    /// what a mute, block or unfollow takes off the lists (see `PostStore+Accounts.swift`).
    var postsOfAccount: [AccountID: Set<PostID>] = [:]
    /// The handle of each account whose posts the store indexed (a profile opened by handle is
    /// told apart by it).
    var accountHandles: [AccountID: String] = [:]
    /// Accounts whose posts lists do not take in, and how (see ``AccountHiding``).
    var hiddenAccounts: [AccountID: AccountHiding] = [:]
    /// Accounts whose notifications the notifications screen does not take in.
    var notificationsHidden: Set<AccountID> = []
    /// Blocked domains (lower-cased): their accounts' posts stay off every list.
    var hiddenDomains: Set<String> = []
    private var nextHolderID = 0
    /// Posts with something in the outbox (a kind pending), and who hears of its changes.
    var outboxPosts: Set<PostID> = []
    let outboxObservers = HandlerList<[OutboxEntry]>()
    private var unusedQueue: [(id: PostID, stamp: UInt64)] = []
    private var unusedHead = 0
    private var unusedCount = 0
    private var unusedStamp: UInt64 = 0
    /// The posts' interaction machines and their requests and re-sends (set at the end of
    /// `init`, so its handlers can hold the store weakly). Re-sends wait on ``retryClock``,
    /// counted in the session's activity as waiting, so ``FeedSession/settle()`` is not held up
    /// by a backoff of up to a minute; the request a backoff ends in counts as work.
    var engine: Convergence<PostID, InteractionState>!
    /// The copy holders were last told of a post whose copy changed before its machine took the
    /// event (a fetched copy, a reply): the machine's change tells them once, with it.
    private var copyBefore: (id: PostID, post: Post?)?
    /// What deferred re-sends and ``FeedSession/finish(waitingAtMost:)`` wait on.
    let retryClock: any Clock<Duration>

    /// A store that sends interaction requests to `service`, counted in `activity`, waits on
    /// `retryClock` before sending again what failed for lack of a connection, and keeps up to
    /// `cacheCapacity` posts that nothing shows; what the server did with each change goes to `outcomes`.
    package init(
        service: any FeedService, activity: Activity, cacheCapacity: Int = 1_000, retryClock: any Clock<Duration> = ContinuousClock(),
        outcomes: Outcomes? = nil
    ) {
        self.service = service
        self.activity = activity
        self.cacheCapacity = max(0, cacheCapacity)
        self.retryClock = retryClock
        votes = Self.voteLoop(service: service, activity: activity, store: { [weak self] in self })
        deletes = Self.deleteLoop(service: service, activity: activity, store: { [weak self] in self })
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, request in try await service.set(request.kind, to: request.value, postID: id) },
            received: { [weak self] id, request, post in self?.received(post, for: request, of: id) },
            changed: { [weak self] id, before, after in
                guard let after else { return }
                self?.machineChanged(id, before: before, after: after)
            },
            outcomes: outcomes, outcome: { id, report in report.outcome.outcome { .interaction(report.kind, $0, post: id) } }
        )
    }

    // MARK: - Reading

    /// The latest copy of the original post that `id` names (an entry or an original id).
    public func post(_ id: PostID) -> Post? {
        entry(id)?.post
    }

    /// The original id for an entry or original id the store knows.
    public func originalID(of id: PostID) -> PostID? {
        entries[id]?.post != nil ? id : originalOfEntry[id]
    }

    /// The displayed interaction state of the post `id` names, if the store knows it.
    public func interaction(_ id: PostID) -> PostInteraction? {
        guard let entry = entry(id), entry.post != nil else { return nil }
        return entry.display
    }

    /// The change a holder of the post `id` names would be told now: its latest copy and state.
    public func current(_ id: PostID) -> PostChange? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return nil }
        return PostChange(originalID: originalID, post: post, interaction: entry.display)
    }

    /// The latest copy of the post `id` names as a quote of it shows it: ``current(_:)`` and
    /// whether its author is hidden (``PostInteraction/authorHidden``). `nil` when unknown.
    package func currentQuoted(_ id: PostID) -> PostChange? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return nil }
        return PostChange(originalID: originalID, post: post, interaction: entry.quotedDisplay)
    }

    /// Calls `handler` on the main actor after every change of any post's content or displayed
    /// state, in the order the changes happen. Lasts as long as the returned token.
    public func observe(_ handler: @escaping @MainActor @Sendable (PostChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether any post's last interaction failed and was not retried, or waits in the outbox
    /// to be sent again: what ``FeedSession/retry()`` would send now.
    public var hasFailedInteractions: Bool { engine.hasDeferred }

    /// The posts known now. For memory tests.
    package var count: Int { entries.count }

    /// The full machine state of the post `id` names (a restored post with no copy yet too).
    /// For diagnostics and tests.
    package func state(_ id: PostID) -> InteractionState? {
        entry(id)?.state
    }

    /// The deferred re-sends waiting for their backoff now. For tests.
    package var resendsWaiting: Int { engine.resendsWaiting }

    /// How many holders show the post `id` names. For lifetime tests.
    package func holderCount(_ id: PostID) -> Int {
        entry(id)?.holders.count ?? 0
    }

    /// Interaction requests sent since the store was made.
    package var requestsSent: Int { engine.requestsSent }

    // MARK: - Holders

    /// A holder whose `onChange` hears of every change of a post it shows, with the rows that
    /// show it. The store does not keep the holder alive.
    func makeHolder(onChange: @escaping @MainActor (HolderEvent) -> Void) -> Holder {
        nextHolderID += 1
        holders[nextHolderID] = onChange
        return Holder(id: nextHolderID, store: self)
    }

    private func show(_ id: PostID, row: RowID?, by holder: Holder) -> Bool {
        // Rows name their original id: one lookup, not two.
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }), let originalID = entry.post?.id else { return false }
        if let index = entry.holders.firstIndex(where: { $0.id == holder.id }) {
            if let row { entry.holders[index].rows.append(row) } else { entry.holders[index].details += 1 }
        } else {
            entry.holders.append((holder.id, row.map { [$0] } ?? [], row == nil ? 1 : 0))
        }
        holder.shown[originalID, default: 0] += 1
        if entry.unusedStamp != nil {
            entry.unusedStamp = nil
            unusedCount -= 1
        }
        return true
    }

    private func hide(_ id: PostID, row: RowID?, by holder: Holder) {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }),
            let index = entry.holders.firstIndex(where: { $0.id == holder.id }), let originalID = entry.post?.id
        else { return }
        if let row {
            guard let position = entry.holders[index].rows.firstIndex(of: row) else { return }
            entry.holders[index].rows.remove(at: position)
        } else {
            guard entry.holders[index].details > 0 else { return }
            entry.holders[index].details -= 1
        }
        if entry.holders[index].rows.isEmpty, entry.holders[index].details == 0 { entry.holders.remove(at: index) }
        if let count = holder.shown[originalID] { holder.shown[originalID] = count > 1 ? count - 1 : nil }
        if entry.isUnshown { becameUnused(originalID, entry) }
        evictIfNeeded()
    }

    private func showQuote(_ id: PostID, in row: RowID, by holder: Holder) -> Bool {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }), let originalID = entry.post?.id else { return false }
        if let index = entry.quoting.firstIndex(where: { $0.id == holder.id }) {
            entry.quoting[index].rows.append(row)
        } else {
            entry.quoting.append((holder.id, [row]))
        }
        holder.shown[originalID, default: 0] += 1
        if entry.unusedStamp != nil {
            entry.unusedStamp = nil
            unusedCount -= 1
        }
        return true
    }

    private func hideQuote(_ id: PostID, in row: RowID, by holder: Holder) {
        guard let entry = entries[id] ?? originalOfEntry[id].flatMap({ entries[$0] }),
            let index = entry.quoting.firstIndex(where: { $0.id == holder.id }), let originalID = entry.post?.id,
            let position = entry.quoting[index].rows.firstIndex(of: row)
        else { return }
        entry.quoting[index].rows.remove(at: position)
        if entry.quoting[index].rows.isEmpty { entry.quoting.remove(at: index) }
        if let count = holder.shown[originalID] { holder.shown[originalID] = count > 1 ? count - 1 : nil }
        if entry.isUnshown { becameUnused(originalID, entry) }
        evictIfNeeded()
    }

    private func rows(showing id: PostID, in holder: Holder) -> [RowID] {
        entry(id)?.holders.first { $0.id == holder.id }?.rows ?? []
    }

    private func release(_ holder: Holder) {
        holders[holder.id] = nil
        for originalID in holder.shown.keys {
            guard let entry = entries[originalID] else { continue }
            entry.holders.removeAll { $0.id == holder.id }
            entry.quoting.removeAll { $0.id == holder.id }
            if entry.isUnshown { becameUnused(originalID, entry) }
        }
        holder.shown.removeAll()
        evictIfNeeded()
    }

    // MARK: - Input

    /// Marks the start of a fetch; pass the result to ``ingest(_:fetchedAt:)`` with what it brings.
    package func beginFetch() -> StoreEpoch {
        engine.beginFetch()
    }

    /// Records server copies of posts fetched by a fetch that started at `fetchedAt`: new posts
    /// get an entry; known posts get fresher content and confirmed state, except for kinds with a
    /// request in flight or learnt after that fetch started. Holders of a changed post are told.
    ///
    /// - Complexity: O(k + r) for k posts shown by r rows.
    package func ingest(_ posts: some Sequence<Post>, fetchedAt: StoreEpoch) {
        for post in posts {
            // The post it quotes is a post of the store too, fetched by the same fetch.
            if let quoted = post.content.quote?.post, !wasDeleted(quoted, fetchedAt: fetchedAt) { ingest(one: quoted, fetchedAt: fetchedAt) }
            ingest(one: post, fetchedAt: fetchedAt)
        }
    }

    private func ingest(one post: Post, fetchedAt: StoreEpoch) {
        let original = post.content
        if let entry = entries[original.id] {
            if post.reblog != nil { link(post, to: original.id, entry) }
            let before = (entry.post, entry.display)
            if fetchedAt > entry.contentEpoch {
                if entry.post == nil { index(original) }
                entry.post = keepingEdit(original, over: entry.post)
                entry.contentEpoch = fetchedAt
            }
            // It may end a deferral (and its wait) or an outbox entry.
            handle({ .copyReceived(original, fetchedAt: fetchedAt, at: $0) }, entry: entry, id: original.id, before: before)
        } else {
            let entry = Entry(post: original, contentEpoch: fetchedAt, state: InteractionState(serverCopy: original, fetchedAt: fetchedAt))
            entry.authorHidden = authorHiding(of: original)
            if let kept = recentlyForgotten.remove(original.id), kept.learnt >= fetchedAt {
                // Fetched before the store last learnt this post, which it forgot since: what
                // it learnt wins, as it would have had it kept the post.
                if kept.contentEpoch >= fetchedAt {
                    entry.post = kept.post
                    entry.contentEpoch = kept.contentEpoch
                }
                entry.state = kept.state
                entry.state.reduce(.copyReceived(original, fetchedAt: fetchedAt, at: engine.beginFetch()))
            }
            entries[original.id] = entry
            engine.insert(entry.state, for: original.id)
            index(original)
            if post.reblog != nil { link(post, to: original.id, entry) }
            becameUnused(original.id, entry)
        }
    }

    /// Records that the entry `id` was deleted (an original: with every boost of it) and tells
    /// every holder that shows it, as it tells them of a change: a list, the rows that showed it
    /// (an original's boosts and notifications too; a boost's own rows only — an un-boost leaves
    /// the original where it is shown); a detail of the original, that it was deleted. Copies of
    /// it from fetches that began before now are stale from now on.
    ///
    /// - Complexity: O(rows of the post), amortised.
    package func deleted(_ id: PostID) {
        delete(id, pending: false)
    }

    /// As ``deleted(_:)``, for a delete the user asked for and the server has not confirmed yet:
    /// every row and detail of the post goes at once, and each holder keeps what it took away,
    /// for ``undelete(_:)`` (the server refused) or ``deleteConfirmed(_:)`` (it did not).
    package func deleting(_ id: PostID) {
        delete(id, pending: true)
    }

    /// The server refused the pending delete of `id`: copies fetched meanwhile are no longer
    /// stale, and every holder the delete reached puts back what it took away.
    package func undelete(_ id: PostID) {
        _ = tombstones.remove(id)
        deletesOnTheirWay.remove(id)
        for holder in pendingDeletes.removeValue(forKey: id) ?? [] { holders[holder]?(.undeleted(id)) }
    }

    /// The server confirmed the pending delete of `id`: holders drop what they kept, and quotes
    /// of it say it was deleted.
    package func deleteConfirmed(_ id: PostID) {
        for holder in pendingDeletes.removeValue(forKey: id) ?? [] { holders[holder]?(.deleteSettled(id)) }
        deletesOnTheirWay.remove(id)
        if let entry = entries[id] { quoteDeleted(id, entry) }
    }

    /// Tells every holder quoting the original `id` that it was deleted.
    private func quoteDeleted(_ id: PostID, _ entry: Entry) {
        for holder in entry.quoting { holders[holder.id]?(.quoteDeleted(id, rows: holder.rows)) }
    }

    private func delete(_ id: PostID, pending: Bool) {
        let epoch = engine.beginFetch()
        if pending { deletesOnTheirWay.insert(id) } else { deletesOnTheirWay.remove(id) }
        tombstones.write(epoch, for: id)
        if let originalID = originalID(of: id), let entry = entries[originalID] {
            let isOriginal = originalID == id
            // A copy: holders hide rows (and the entry's holders change) while they are told.
            for holder in entry.holders {
                let rows = isOriginal ? holder.rows : holder.rows.filter { $0 == .post(id) }
                let detail = isOriginal && holder.details > 0
                guard !rows.isEmpty || detail else { continue }
                if pending { pendingDeletes[id, default: []].append(holder.id) }
                holders[holder.id]?(.deleted(rows: rows, detail: detail, pending: pending ? id : nil))
            }
            // Quotes of it say it was deleted once the server said so (an own post's delete
            // that the server refuses leaves them as they were).
            if isOriginal, !pending { quoteDeleted(originalID, entry) }
            if !isOriginal, originalOfEntry[id] == originalID {
                originalOfEntry[id] = nil
                if let booster = entries[originalID]?.wrappers.removeValue(forKey: id) { unindex(id, of: booster) }
            }
        }
    }

    /// Whether `post` (an entry, or the original it boosts) was deleted after the fetch that
    /// brought it began at `fetchedAt`: then it is a stale copy of a deleted post, to be dropped.
    /// A fetch that began after the delete is the server's word and is believed. O(1).
    package func wasDeleted(_ post: Post, fetchedAt: StoreEpoch) -> Bool {
        guard !tombstones.isEmpty else { return false }
        if let at = tombstones[post.id], at > fetchedAt { return true }
        if let original = post.reblog?.id, let at = tombstones[original], at > fetchedAt { return true }
        return false
    }

    /// Whether quotes of the post `id` say it was deleted: a delete the server confirmed (or a
    /// stream reported), not one on its way. O(1).
    package func isQuoteDeleted(_ id: PostID) -> Bool {
        isDeleted(id) && !deletesOnTheirWay.contains(id)
    }

    /// Whether the entry `id` was deleted (a delete on its way included) as far as the store
    /// remembers: a post's id is never reused, so such a post is not shown again. O(1).
    package func isDeleted(_ id: PostID) -> Bool {
        tombstones[id] != nil
    }

    /// Toggles `kind` of the post `id` names. Returns `false` for a post the store does not know
    /// (nothing happens then). Fronts toggle through a list's or a detail's view model.
    @discardableResult
    package func toggle(_ kind: InteractionKind, _ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], entry.post != nil else { return false }
        handle({ .toggled(kind, at: $0) }, entry: entry, id: originalID)
        return true
    }

    /// Sets `kind` of the post `id` names to `value`: a toggle when the value shown differs,
    /// nothing at all when it is already `value` (a script run twice does not undo itself).
    /// Returns `false` for a post the store does not know.
    @discardableResult
    package func set(_ kind: InteractionKind, _ value: Bool, _ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], entry.post != nil else { return false }
        guard entry.state[kind].desired != value else { return true }
        handle({ .toggled(kind, at: $0) }, entry: entry, id: originalID)
        return true
    }

    /// What ``FeedSession/retry()`` would send now: every kind waiting in the outbox (the server
    /// could not be reached for it), with the value wanted. A refusal is not sent again (the
    /// server would refuse it again): only another toggle asks for it. Ordered by post id (its
    /// raw value), then kind. A front reads it to say what a retry sends.
    public var retryableInteractions: [OutboxEntry] {
        engine.deferredKeys.sorted { $0.rawValue < $1.rawValue }.flatMap { id -> [OutboxEntry] in
            guard let state = entries[id]?.state else { return [] }
            return InteractionKind.allCases.filter { state[$0].resend != nil }.map { OutboxEntry(postID: id, kind: $0, value: state[$0].desired) }
        }
    }

    /// Reveals the post `id` names (its original) past a filter's warning, on every row and
    /// detail that shows it. Returns `false` for a post the store does not know; revealing
    /// twice changes nothing. A reveal lasts while the store keeps the post.
    @discardableResult
    package func reveal(_ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], entry.post != nil else { return false }
        guard !entry.revealed else { return true }
        let before = (entry.post, entry.display)
        entry.revealed = true
        changed(originalID, entry, before: before)
        return true
    }

    /// Sends every deferred interaction (queued for lack of a connection) at once. A refusal is
    /// not sent again. Returns whether there was any.
    @discardableResult
    func retryFailedInteractions() -> Bool {
        engine.retry()
    }

    // MARK: - Effects

    func entry(_ id: PostID) -> Entry? {
        if let entry = entries[id] { return entry }
        return originalOfEntry[id].flatMap { entries[$0] }
    }

    /// Makes the boost `wrapper` resolve to its original's entry, and counts it among the
    /// posts of the account that boosted.
    private func link(_ wrapper: Post, to original: PostID, _ entry: Entry) {
        guard wrapper.id != original else { return }
        originalOfEntry[wrapper.id] = original
        let booster = AccountID(wrapper.author.id)
        if entry.wrappers.updateValue(booster, forKey: wrapper.id) == nil { index(wrapper.id, of: booster, handle: wrapper.author.handle) }
    }

    /// Runs `event` (made at the engine's next epoch) on the post's machine through the engine.
    /// `before` is what holders were last told, when the caller changed the entry's copy first:
    /// they are told once, whether or not the machine changed.
    func handle(_ event: (StoreEpoch) -> InteractionEvent, entry: Entry, id: PostID, before: (Post?, PostInteraction)? = nil) {
        if let before { copyBefore = (id, before.0) }
        engine.update(id) { state, epoch in
            state.reduce(event(epoch))
            return []
        }
        // The machine did not change (`machineChanged` was not called): the copy may have.
        if let held = copyBefore, held.id == id {
            copyBefore = nil
            changed(id, entry, before: (held.post, entry.display))
        }
    }

    /// A reply's copy, before the machine takes the reply: as fresh as the request (sent at its
    /// token) — content learnt since (an edit a stream brought while it ran) is newer.
    private func received(_ post: Post, for request: InteractionRequest, of id: PostID) {
        guard let entry = entries[id] else { return }
        // What holders were last told, before the reply's copy replaces the content: a fresher
        // copy is a change to tell even while a follow-up request keeps the interaction pending.
        copyBefore = (id, entry.post)
        let original = post.content
        if original.id == id, request.token > entry.contentEpoch {
            if entry.post == nil { index(original) }
            entry.post = keepingEdit(original, over: entry.post)
            entry.contentEpoch = request.token
        }
        if post.reblog != nil { link(post, to: original.id, entry) }
    }

    /// The engine changed the post's machine: keeps the entry's copy, the outbox and the cache
    /// in step and tells who shows the post.
    private func machineChanged(_ id: PostID, before: InteractionState?, after: InteractionState) {
        guard let entry = entries[id] else { return }
        let post = copyBefore?.id == id ? copyBefore?.post : entry.post
        if copyBefore?.id == id { copyBefore = nil }
        let shown = (post, entry.display)
        entry.state = after
        let wasPending = before?.isPending ?? false
        // The outbox's observers first: a front that saves there has saved an entry before any
        // row or detail shows it as queued.
        if wasPending || after.isPending { outboxChanged(id, from: before?.outbox(postID: id) ?? [], to: after.outbox(postID: id)) }
        changed(id, entry, before: shown)
        guard wasPending, !after.isPending else { return }
        if entry.post == nil {
            // Restored, settled, and never seen: nothing can show it.
            forget(id, entry)
        } else if entry.isUnshown, entry.unusedStamp == nil {
            // Kept out of the cache while pending: it joins it now.
            becameUnused(id, entry)
        }
        evictIfNeeded()
    }

    /// Records a change of the post's part of the outbox and tells the outbox's observers.
    private func outboxChanged(_ id: PostID, from old: [OutboxEntry], to new: [OutboxEntry]) {
        guard old != new else { return }
        if new.isEmpty { outboxPosts.remove(id) } else { outboxPosts.insert(id) }
        if !outboxObservers.isEmpty { outboxObservers.notify(outbox) }
    }

    /// Tells every holder of the post and every observer, when what they show changed.
    func changed(_ id: PostID, _ entry: Entry, before: (Post?, PostInteraction)) {
        let display = entry.display
        guard let post = entry.post, display != before.1 || post != before.0 else { return }
        let change = PostChange(originalID: id, post: post, interaction: display)
        for holder in entry.holders {
            holders[holder.id]?(.changed(change, rows: holder.rows))
        }
        tellQuoting(id, entry, post)
        observers.notify(change)
    }

    /// Tells the rows that quote the post what the quote shows now.
    func tellQuoting(_ id: PostID, _ entry: Entry, _ post: Post) {
        guard !entry.quoting.isEmpty else { return }
        let change = PostChange(originalID: id, post: post, interaction: entry.quotedDisplay)
        for holder in entry.quoting {
            holders[holder.id]?(.quoteChanged(change, rows: holder.rows))
        }
    }

    // MARK: - Memory

    /// `copy`, but with the text, warning and edit date of one's own edit on its way when
    /// `shown` carries one: a copy fetched meanwhile (a page, a stream's notification) was made
    /// before the server had the edit, and must not undo it on screen until the edit is answered.
    func keepingEdit(_ copy: Post, over shown: Post?) -> Post {
        guard let shown, pendingEdits[copy.id] != nil else { return copy }
        var kept = copy
        kept.text = shown.text
        kept.contentWarning = shown.contentWarning
        kept.editedAt = shown.editedAt
        return kept
    }

    /// Takes the entry `id` out without remembering it (a local copy nothing needs any more).
    func discardEntry(_ id: PostID) {
        guard let entry = entries[id] else { return }
        unindex(id, entry)
        if entry.unusedStamp != nil {
            entry.unusedStamp = nil
            unusedCount -= 1
        }
        entries[id] = nil
        engine.forget(id)
    }

    private func forget(_ id: PostID, _ entry: Entry) {
        entries[id] = nil
        engine.forget(id)
        unindex(id, entry)
        if let post = entry.post { remember(id, post: post, entry: entry) }
        for wrapper in entry.wrappers.keys where originalOfEntry[wrapper] == id { originalOfEntry[wrapper] = nil }
        outboxPosts.remove(id)
    }

    /// Takes the entry and its boosts out of the accounts' post index.
    private func unindex(_ id: PostID, _ entry: Entry) {
        if let author = entry.post?.author.id { unindex(id, of: AccountID(author)) }
        for (wrapper, booster) in entry.wrappers { unindex(wrapper, of: booster) }
    }

    /// Counts an original among its author's posts.
    private func index(_ original: Post) {
        index(original.id, of: AccountID(original.author.id), handle: original.author.handle)
    }

    private func index(_ id: PostID, of account: AccountID, handle: String) {
        postsOfAccount[account, default: []].insert(id)
        accountHandles[account] = handle
    }

    /// Takes `id` out of the account's posts; an account with none left leaves the index (and
    /// its handle with it), so the index holds only the accounts of posts the store keeps.
    private func unindex(_ id: PostID, of account: AccountID) {
        postsOfAccount[account]?.remove(id)
        if postsOfAccount[account]?.isEmpty == true {
            postsOfAccount[account] = nil
            accountHandles[account] = nil
        }
    }

    /// Keeps the last state of a forgotten post for ``forgottenCapacity`` forgettings.
    ///
    /// - Complexity: amortised O(1).
    private func remember(_ id: PostID, post: Post, entry: Entry) {
        let learnt = InteractionKind.allCases.map { entry.state[$0].knownSince }.max() ?? 0
        recentlyForgotten.write((max(learnt, entry.contentEpoch), post, entry.contentEpoch, entry.state), for: id)
    }

    private func becameUnused(_ id: PostID, _ entry: Entry) {
        guard entry.unusedStamp == nil else { return }
        unusedStamp += 1
        entry.unusedStamp = unusedStamp
        unusedQueue.append((id, unusedStamp))
        unusedCount += 1
        // Posts shown right after they arrive leave stale queue entries behind: drop them once
        // they outnumber the live ones, so the queue stays O(unused posts).
        let queued = unusedQueue.count - unusedHead
        if queued > 1_024, queued > 4 * unusedCount {
            unusedQueue = unusedQueue[unusedHead...].filter { entries[$0.id]?.unusedStamp == $0.stamp }
            unusedHead = 0
        }
    }

    /// Forgets the posts unused longest while more than ``cacheCapacity`` are unused; a post with
    /// something pending (a request in flight, an outbox entry) is kept: it rejoins the queue
    /// when that settles.
    private func evictIfNeeded() {
        while unusedCount > cacheCapacity, unusedHead < unusedQueue.count {
            let (id, stamp) = unusedQueue[unusedHead]
            unusedHead += 1
            guard let entry = entries[id], entry.unusedStamp == stamp else { continue }
            entry.unusedStamp = nil
            unusedCount -= 1
            guard !entry.state.isPending, entry.isUnshown else { continue }
            forget(id, entry)
        }
        if unusedHead > 1_024, unusedHead * 2 > unusedQueue.count {
            unusedQueue.removeFirst(unusedHead)
            unusedHead = 0
        }
    }
}
