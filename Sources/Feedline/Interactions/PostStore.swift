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
/// - **One's own writing converges too.** A delete, an edit and a vote show at once and keep what
///   to roll back to: one change per post (per poll) on its way, confirmed or rolled back with the
///   server's sentence (`PostStore+Deletes.swift`, `+Writing.swift`, `+Votes.swift`).
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class PostStore {
    /// How many posts that nothing shows are kept, most recently shown first.
    package let cacheCapacity: Int
    /// How many deletes are remembered (the fetches they outdate are the ones running when they came).
    package static let tombstoneCapacity = 1_000
    /// How many forgotten posts are remembered for the fetches that began before they were
    /// forgotten (a copy fetched before they were forgotten starts from what the store learnt).
    package static let forgottenCapacity = 1_000
    /// The last state of posts the cache forgot, with the epoch it was learnt at: a copy of one
    /// that a fetch begun before that brings back starts from it, so what the store learnt
    /// (a favourite's answer, an edit) survives the post being forgotten meanwhile.
    var recentlyForgotten = RecentMemory<PostID, (learnt: StoreEpoch, post: Post, contentEpoch: StoreEpoch, state: InteractionState)>(
        capacity: PostStore.forgottenCapacity
    )
    /// Deleted ids (an entry's or an original's) with the epoch of their delete.
    var tombstones = RecentMemory<PostID, StoreEpoch>(capacity: PostStore.tombstoneCapacity)
    /// The holders each delete of one's own on its way reached (see ``deleting(_:)``); a key
    /// for every such delete, reached none or some: quotes of those posts are left as they are
    /// until the server answers.
    var pendingDeletes: [PostID: [Int]] = [:]
    /// One's own edits the server has not answered, one ``PendingChange`` of the text per post
    /// (see `PostStore+Writing.swift`); its epochs are the store's.
    var edits: [PostID: PendingChange<PostText>] = [:]
    /// One's own votes, one ``PollVote`` per poll (see `PostStore+Votes.swift`); how each went
    /// is an ``Outcome``. Its epochs are its own: only its machines read them.
    ///
    /// Made on first use, as ``ownDeletes`` is: making a `Convergence` over new types at start
    /// looked up their conformances, each a scan of every conformance record in the binary, for
    /// sessions that never vote or delete (Docs/BENCHMARKS.md, "Start-up, issue 33's sixth round").
    /// Nothing else hears of an engine until it is asked, so when it is made changes nothing.
    lazy var votes: Convergence<PollVote.Key, PollVote> = makeVotes()
    /// One's own deletes, one ``PostDeletion`` per post (see `PostStore+Deletes.swift`); how
    /// each went is an ``Outcome`` (and the session's redraft hears it here, for the draft it
    /// makes). Its epochs are its own: only its machines read them.
    lazy var ownDeletes: Convergence<PostID, PostDeletion> = makeOwnDeletes()
    /// The translations asked of the server, one per post (see `PostStore+Translations.swift`);
    /// made on first use, as the engines above are.
    lazy var translations: Feedback<PostID, (PostID, Result<PostTranslation, FeedFailure>)> = makeTranslations()
    /// What the lazy engines above are made with.
    private let service: any FeedService
    private let activity: Activity
    var deleteReports: [PostID: [@MainActor @Sendable (Result<Post, FeedFailure>) -> Void]] = [:]
    /// Where the person hears what the server did with each change (edits included).
    let outcomes: Outcomes?
    private let observers = HandlerList<PostChange>()
    /// Who hears of your posts the server confirmed (see `observeOwnPosted(_:)`).
    let ownPostedObservers = HandlerList<Post>()
    /// Every post by original id (internal for `PostStore+Outbox.swift`, like the members below).
    var entries: [PostID: Entry] = [:]
    var originalOfEntry: [PostID: PostID] = [:]
    var holders: [Int: @MainActor (HolderEvent) -> Void] = [:]
    /// The entries of each account, for what a mute, block or unfollow takes off the lists
    /// (see `PostStore+Accounts.swift`).
    var postsOfAccount = AccountPostIndex()
    /// Whose posts lists do not take in: accounts and domains (see `PostStore+Accounts.swift`).
    var hidings = PostHidings()
    /// Each filter this session made, changed or deleted (`nil`), by id: later copies of posts
    /// are matched against it too (see `PostStore+Filters.swift`).
    var filterDefinitions: [String: PostFilter?] = [:]
    /// Filters made here, by the local key they were shown under: the server's id of each.
    var filterAliases: [String: String] = [:]
    /// Your account as your profile shows it now (an edit on its way included): every copy of
    /// your posts shows its name (see `PostStore+Writing.swift`).
    var ownAuthor: Author?
    /// What tells whether a filter has expired (the session's clock).
    var filterClock: WallClock = .system
    var nextHolderID = 0
    /// Posts with something in the outbox (a kind pending), and who hears of its changes.
    var outboxPosts: Set<PostID> = []
    let outboxObservers = HandlerList<[OutboxEntry]>()
    /// The posts nothing shows, oldest first: what the cache forgets first.
    var unused = UnusedPosts()
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
        self.cacheCapacity = max(0, cacheCapacity)
        self.retryClock = retryClock
        self.outcomes = outcomes
        self.service = service
        self.activity = activity
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, request in try await service.set(request.kind, to: request.value, postID: id) },
            received: { [weak self] id, request, post in self?.received(post, for: request, of: id) },
            changed: { [weak self] id, before, after in
                guard let after else { return }
                self?.machineChanged(id, before: before, after: after)
            },
            outcomes: outcomes, outcome: { id, report, _ in report.outcome.outcome { .interaction(report.kind, $0, post: id) } },
            // Every entry holds its post's machine: a copy of a post nobody touched (every page
            // and stream update) leaves the engine without one.
            keepsMadeAtRest: false
        )
    }

    /// The loop of ``translations``.
    private func makeTranslations() -> Feedback<PostID, (PostID, Result<PostTranslation, FeedFailure>)> {
        let service = service
        return Feedback(
            activity: activity,
            effect: { id in await Self.translation(of: id, service: service) },
            handle: { [weak self] id, result in self?.translated(id, result) }
        )
    }

    /// The engine of ``votes``.
    private func makeVotes() -> Convergence<PollVote.Key, PollVote> {
        let service = service
        return Convergence(
            activity: activity, retryClock: retryClock,
            send: { [weak self] key, request in
                do {
                    return .counted(try await service.vote(poll: key.poll, of: key.post, choices: request.value))
                } catch {
                    let failure = FeedFailure(error)
                    // Put back, not sent again by itself: the person sees the vote did not count.
                    guard !failure.isTransient else { throw FeedFailure(message: failure.message, isTransient: false) }
                    // "Already voted", "ended": the server's poll is the truth.
                    let fetchedAt = await self?.beginFetch() ?? 0
                    return .refused(failure, fresh: try? await service.post(key.post), fetchedAt: fetchedAt)
                }
            },
            changed: { [weak self] key, before, after in self?.voteChanged(key, before: before, after: after) },
            outcomes: outcomes, outcome: { key, report, _ in report.outcome { .vote(post: key.post, choices: $0) } }
        )
    }

    /// The engine of ``ownDeletes``.
    private func makeOwnDeletes() -> Convergence<PostID, PostDeletion> {
        let service = service
        return Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, _ in
                do {
                    return try await service.delete(id)
                } catch {
                    // Put back whatever the failure: a delete is not sent again by itself.
                    throw FeedFailure(message: FeedFailure(error).message, isTransient: false)
                }
            },
            changed: { [weak self] id, before, after in self?.deletionChanged(id, before: before, after: after) },
            outcomes: outcomes, outcome: { id, report, _ in report.outcome { _ in .deletion(post: id) } }
        )
    }

    // MARK: - Reading

    /// The latest copy of the original post that `id` names (an entry or an original id).
    package func post(_ id: PostID) -> Post? {
        entry(id)?.post
    }

    /// The original id for an entry or original id the store knows.
    package func originalID(of id: PostID) -> PostID? {
        entries[id]?.post != nil ? id : originalOfEntry[id]
    }

    /// The displayed interaction state of the post `id` names, if the store knows it.
    package func interaction(_ id: PostID) -> PostInteraction? {
        guard let entry = entry(id), entry.post != nil else { return nil }
        return entry.display
    }

    /// The change a holder of the post `id` names would be told now: its latest copy and state.
    package func current(_ id: PostID) -> PostChange? {
        // Rows name their original: one look-up, a second only for an entry id (a boost's).
        if let entry = entries[id], let post = entry.post {
            return PostChange(originalID: id, post: post, interaction: entry.display, ownAuthor: ownAuthor)
        }
        guard let originalID = originalOfEntry[id], let entry = entries[originalID], let post = entry.post else { return nil }
        return PostChange(originalID: originalID, post: post, interaction: entry.display, ownAuthor: ownAuthor)
    }

    /// The latest copy of the post `id` names as a quote of it shows it: ``current(_:)`` and
    /// whether its author is hidden (``PostInteraction/authorHidden``). `nil` when unknown.
    package func currentQuoted(_ id: PostID) -> PostChange? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], let post = entry.post else { return nil }
        return PostChange(originalID: originalID, post: post, interaction: entry.quotedDisplay)
    }

    /// Calls `handler` on the main actor after every change of any post's content or displayed
    /// state, in the order the changes happen. Lasts as long as the returned token.
    package func observe(_ handler: @escaping @MainActor @Sendable (PostChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether any post's last interaction failed and was not retried, or waits in the outbox
    /// to be sent again: what ``FeedSession/retry()`` would send now.
    package var hasFailedInteractions: Bool { engine.hasDeferred }

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
        let original = keepingEdit(refiltered(post.content), over: nil)
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
            entry.authorHidden = hidings.authorHiding(of: original)
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
            index(original)
            if post.reblog != nil { link(post, to: original.id, entry) }
            becameUnused(original.id, entry)
        }
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
    package var retryableInteractions: [OutboxEntry] {
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

    /// Runs `event` (made at the engine's next epoch) on the post's machine through the engine,
    /// which learns of the machine from the entry the first time (a post nobody touched costs the
    /// engine nothing: most of a timeline's posts).
    /// `before` is what holders were last told, when the caller changed the entry's copy first:
    /// they are told once, whether or not the machine changed.
    func handle(_ event: (StoreEpoch) -> InteractionEvent, entry: Entry, id: PostID, before: (Post?, PostInteraction)? = nil) {
        if let before { copyBefore = (id, before.0) }
        engine.update(id, orMake: { entry.state }) { state, epoch in
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
        // A translation is of the text it was made from: an edit takes it off (asked again, the
        // server translates the text as it is now).
        if case .translated = entry.translation, let post = entry.post, let old = before.0, PostText(post) != PostText(old) {
            entry.translation = .original
        }
        let display = entry.display
        guard let post = entry.post, display != before.1 || post != before.0 else { return }
        let change = PostChange(originalID: id, post: post, interaction: display, ownAuthor: ownAuthor)
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

}
