/// Everything a front needs, wired once: the service, the shared post store, the navigator with
/// its root list, and the activity every effect is counted in.
///
/// Fronts (the REPL, the JSON-lines driver, an app) make one session, render
/// `navigator.top`, turn input into view-model calls, and — when they run scripts — call
/// ``settle()`` before reading the next command.
@MainActor
public final class FeedSession {
    @_spi(FeedService) public let service: any FeedService
    public let clock: WallClock
    /// The one activity every effect of the session counts in (see ``settle()``).
    package let activity: Activity
    /// The one copy of every post and its interaction state, shared by every screen (a front
    /// reads rows, ``post(_:)`` and the outbox through the session).
    package let store: PostStore
    /// How you relate to each account, shared by every screen (a front reads it through
    /// ``relationship(_:)``).
    package let relationships: RelationshipStore
    /// The accounts you reported this session, shared by every screen (a front reads them
    /// through ``reportMark(of:)``), and what each report sends.
    package let reports: ReportStore
    let reportForms: ReportForms
    /// The domains you blocked, shared by every screen (a front reads them through
    /// ``domainBlock(_:)``).
    package let domainBlocks: DomainBlockStore
    /// The hashtags you follow, shared by every screen (a front reads them through
    /// ``tagFollow(_:)``).
    package let tags: TagStore
    /// Your direct conversations, shared by every screen (a front reads their rows,
    /// ``ConversationRow``, and ``isConversationPending(_:)`` and ``conversationFailure(_:)``).
    package let conversations: ConversationStore
    /// Your lists and who is on them, shared by every screen (a front reads them through
    /// ``userLists``, ``userList(_:)`` and ``listMembership(list:account:)``).
    package let lists: UserListStore
    /// Your server filters, on the filters screen and every list of posts.
    package let filters: FilterStore
    /// The notifications you dismissed, shared by every notifications screen (a front asks
    /// through ``dismissNotification(_:)`` and ``clearNotifications()``).
    package let notifications: NotificationDismissals
    /// The instance's announcements and which you read, shared by every announcements screen (a
    /// front reads them through ``announcementRead(_:)``).
    package let announcements: AnnouncementStore
    /// Your scheduled posts, shared by every screen (a front reads them through
    /// `scheduledPosts`).
    package let scheduled: ScheduledStore
    /// Your notification policy, shared by every screen (a front reads it through
    /// `notificationPolicy`).
    package let notificationPolicies: NotificationPolicyStore
    /// Your requests of filtered notifications, shared by every screen (a front reads them
    /// through `notificationRequest(_:)`).
    package let notificationRequests: NotificationRequestStore
    /// Your own profile as every screen shows it (a front edits it through
    /// ``editProfile(_:)``).
    package let ownProfile: OwnProfileStore
    /// Every store of changes that converge with the server, in one list: what the session asks
    /// of each alike (``hasFailures``, ``retry()``, ``finish(waitingAtMost:)``) it asks of these.
    package var convergingStores: [any ConvergingStore] {
        [
            relationships, reports, domainBlocks, tags, conversations, lists, filters, notifications, announcements, scheduled,
            notificationPolicies, notificationRequests, ownProfile,
        ]
    }
    public let navigator: Navigator
    /// Every draft and submission, and the loop that sends them (see ``Drafts``).
    public let drafts: Drafts
    /// What the server suggests for words typed into a draft: accounts, hashtags, custom emoji
    /// (see ``ComposeSuggestions``).
    public let suggestions: ComposeSuggestions
    /// How live updates arrive (``StreamState/off`` until a transport says otherwise).
    public var streamState: ReadOnlyRelay<StreamState> { streamRelay.readOnly }
    let streamRelay = Relay(StreamState.off)
    /// What every store tells of the changes asked (see ``observeOutcomes(_:)``).
    package let outcomes: Outcomes

    /// A session on `service` whose root list shows `root`; relative times come from `clock`;
    /// rows within `prefetchDistance` of the end load the next page. Effects run their
    /// nonisolated work (service calls) on `executor` when one is given (see
    /// `MainQueueTaskExecutor`), else on the global pool. The store keeps up to
    /// `cacheCapacity` posts that no screen shows; interactions queued for lack of a connection
    /// wait on `retryClock` before they are sent again (see ``finish(waitingAtMost:)``), as
    /// queued submissions do. Drafts take their ids from `draftIDs` and each submission its
    /// idempotency key from `idempotencyKeys` (random UUIDs when `nil`; a script passes counters
    /// so that it replays byte for byte).
    @_spi(FeedService)
    public init(
        service: any FeedService, clock: WallClock = .system, root: Feed = .home, prefetchDistance: Int = 5,
        executor: (any TaskExecutor)? = nil, cacheCapacity: Int = 1_000, retryClock: any Clock<Duration> = ContinuousClock(),
        draftIDs: (@MainActor () -> DraftID)? = nil, idempotencyKeys: (@MainActor () -> String)? = nil
    ) {
        let activity = Activity(executor: executor)
        let outcomes = Outcomes()
        let store = PostStore(service: service, activity: activity, cacheCapacity: cacheCapacity, retryClock: retryClock, outcomes: outcomes)
        let relationships = RelationshipStore(service: service, posts: store, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let reportForms = ReportForms()
        let reports = ReportStore(service: service, forms: reportForms, posts: store, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let domainBlocks = DomainBlockStore(service: service, posts: store, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let tags = TagStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let conversations = ConversationStore(service: service, posts: store, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let lists = UserListStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let filters = FilterStore(service: service, posts: store, activity: activity, retryClock: retryClock, clock: clock, outcomes: outcomes)
        let notifications = NotificationDismissals(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let announcements = AnnouncementStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let scheduled = ScheduledStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let notificationPolicies = NotificationPolicyStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let notificationRequests = NotificationRequestStore(service: service, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let ownProfile = OwnProfileStore(service: service, posts: store, activity: activity, retryClock: retryClock, outcomes: outcomes)
        let makeList: @MainActor (ListSource) -> FeedListViewModel = { source in
            var profile: ProfileViewModel?
            if case .feed(.account(let id)) = source {
                profile = ProfileViewModel(account: id, service: service, relationships: relationships, ownProfile: ownProfile, activity: activity)
            }
            var tagHeader: TagHeaderViewModel?
            if case .feed(.tag(let name)) = source {
                tagHeader = TagHeaderViewModel(name: name, service: service, tags: tags, activity: activity)
            }
            return FeedListViewModel(
                source: source, service: service, store: store, activity: activity, prefetchDistance: prefetchDistance, profile: profile,
                relationships: relationships, reports: reports, domainBlocks: domainBlocks, tags: tags, tagHeader: tagHeader,
                conversations: conversations, lists: lists, filters: filters, notifications: notifications,
                announcements: announcements, scheduled: scheduled, notificationRequests: notificationRequests
            )
        }
        self.outcomes = outcomes
        self.relationships = relationships
        self.reports = reports
        self.reportForms = reportForms
        self.domainBlocks = domainBlocks
        self.tags = tags
        self.conversations = conversations
        self.lists = lists
        self.filters = filters
        self.notifications = notifications
        self.announcements = announcements
        self.scheduled = scheduled
        self.notificationPolicies = notificationPolicies
        self.notificationRequests = notificationRequests
        self.ownProfile = ownProfile
        self.service = service
        self.clock = clock
        self.activity = activity
        self.store = store
        navigator = Navigator(root: makeList(.feed(root)), makeList: makeList) { id in
            PostDetailViewModel(id: id, service: service, store: store, activity: activity, clock: clock)
        }
        drafts = Drafts(
            service: service, store: store, activity: activity, clock: clock, retryClock: retryClock, makeDraftID: draftIDs, makeKey: idempotencyKeys,
            outcomes: outcomes
        )
        suggestions = ComposeSuggestions(service: service, activity: activity)
        drafts.scheduledPosts = scheduled
    }

    /// A session on `server` (a sandbox or a Mastodon server from `FeedlineMastodon`) whose root
    /// list shows `root`; relative times come from `clock`; rows within `prefetchDistance` of the
    /// end load the next page. Effects run their nonisolated work (service calls) on `executor`
    /// when one is given, else on the global pool. The store keeps up to `cacheCapacity` posts
    /// that no screen shows; changes queued for lack of a connection wait on `retryClock` before
    /// they are sent again (see ``finish(waitingAtMost:)``). Drafts take their ids from
    /// `draftIDs` and each submission its idempotency key from `idempotencyKeys` (random UUIDs
    /// when `nil`). The same session a service implementer makes with the SPI initializer
    /// `init(service:…)` on the server's service.
    public convenience init(
        server: some FeedServer, clock: WallClock = .system, root: Feed = .home, prefetchDistance: Int = 5,
        executor: (any TaskExecutor)? = nil, cacheCapacity: Int = 1_000, retryClock: any Clock<Duration> = ContinuousClock(),
        draftIDs: (@MainActor () -> DraftID)? = nil, idempotencyKeys: (@MainActor () -> String)? = nil
    ) {
        self.init(
            service: server.feedService, clock: clock, root: root, prefetchDistance: prefetchDistance, executor: executor,
            cacheCapacity: cacheCapacity, retryClock: retryClock, draftIDs: draftIDs, idempotencyKeys: idempotencyKeys
        )
    }

    /// The list at the bottom of the stack.
    public var root: FeedListViewModel { navigator.root }

    /// Whether anything failed that ``retry()`` would run again: a page, refresh or gap of any
    /// list on the stack, a load of any detail, a change waiting for a connection (an interaction,
    /// a relationship…). A refusal is not: the server would refuse it again.
    public var hasFailures: Bool {
        store.hasFailedInteractions || convergingStores.contains(where: \.hasFailures)
            || drafts.all.contains(where: { if case .queued = $0.phase { true } else { false } })
            || navigator.screens.contains { screen in
            switch screen {
            case .list(let list): !list.state.failedIntents.isEmpty || list.profile?.current.failure != nil
            case .post(let detail): detail.current.failure != nil
            }
        }
    }

    /// Toggles `kind` of the post `id` names (an entry or its original) — optimistic,
    /// converging, and seen at once on every row and detail of it — without a front having to
    /// find a row that shows it. Returns `false` (and does nothing) when the store does not know
    /// the post (no screen has shown it and the cache forgot it).
    @discardableResult
    public func toggle(_ kind: InteractionKind, post id: PostID) -> Bool {
        store.toggle(kind, id)
    }

    /// Sets `kind` of the post `id` names to `value`: as ``toggle(_:post:)`` when the value shown
    /// differs, nothing when it already is `value` — so a script or a client that says what it
    /// wants can repeat itself safely. Returns `false` when the store does not know the post.
    @discardableResult
    public func set(_ kind: InteractionKind, _ value: Bool, post id: PostID) -> Bool {
        store.set(kind, value, id)
    }

    /// Why setting `kind` of the post `id` names to `value` would be refused, said before
    /// anything is sent or shown (``InteractionKind/refusal(_:of:by:thread:)``): a pin of
    /// someone else's post or of a direct message, a mute of a conversation the user takes no
    /// part in. A front asks before it sets or toggles, after ``Drafts/load(then:)`` made the
    /// signed-in account known. `nil` when it may be sent — also while the post or the account is
    /// not known (the server decides then, and a refusal rolls back with its sentence). The
    /// conversation is what is known here: the post's ancestors the store has, and every post of
    /// each open post screen's or thread screen's thread that shows it.
    ///
    /// - Complexity: O(ancestors + the posts of the screens on the stack that show its thread).
    public func interactionRefusal(_ kind: InteractionKind, _ value: Bool, post id: PostID) -> FeedFailure? {
        guard value, let post = store.post(id) else { return nil }
        var thread: [Post] = []
        var parent = post.inReplyToID
        while let next = parent, thread.count < 200, let ancestor = store.post(next) {
            thread.append(ancestor)
            parent = ancestor.inReplyToID
        }
        if kind == .muteThread {
            for screen in navigator.screens {
                switch screen {
                case .post(let detail) where detail.current.post?.id == post.id:
                    thread += (detail.current.context?.ancestors ?? []) + (detail.current.context?.descendants ?? [])
                case .list(let list):
                    guard case .thread = list.source, !list.rows(showing: post.id).isEmpty else { continue }
                    thread += list.rows.compactMap { $0.post?.post }
                case .post: continue
                }
            }
        }
        return kind.refusal(value, of: post, by: drafts.account, thread: thread).map { FeedFailure(message: $0, isTransient: false) }
    }

    /// Whether a screen on the stack shows the post `id` names (a row of it, a boost of it, a
    /// notification about it, or its detail), as the store knows without a search.
    public func shows(post id: PostID) -> Bool {
        store.holderCount(id) > 0
    }

    /// Reveals the post `id` names past its filters' warnings (``PostRow/warning``) on every row
    /// and detail of it, without a front having to find one that shows it. Returns `false` (and
    /// does nothing) when no filter of it warns or it was revealed already, or the store does not
    /// know it.
    @discardableResult
    public func reveal(post id: PostID) -> Bool {
        guard let post = store.post(id), post.filters.contains(where: { $0.action != .hide }), store.interaction(id)?.revealed != true else {
            return false
        }
        return store.reveal(id)
    }

    /// Retries everything that is still failed, wherever it is: every list on the stack runs its
    /// failed requests again (an older page *and* a refresh that failed after it, gaps), every
    /// detail its failed loads, and every change that waits for a connection (a favourite,
    /// boost or bookmark in the outbox, a relationship, a domain block, a hashtag follow, a
    /// conversation, a notification dismissed, a post) is sent again at once. A refusal is not: the server would refuse it
    /// again (changing it again sends it). A front with one Retry button never strands a
    /// failure. Returns whether anything was retried.
    @discardableResult
    public func retry() -> Bool {
        var retried = store.retryFailedInteractions()
        for changes in convergingStores where changes.retryFailed() { retried = true }
        if drafts.retry() > 0 { retried = true }
        for screen in navigator.screens {
            if case .list(let list) = screen, list.profile?.current.failure != nil {
                list.profile?.retry()
                retried = true
            }
            if case .list(let list) = screen, list.tagHeader?.current.failure != nil {
                list.tagHeader?.retry()
                retried = true
            }
            switch screen {
            case .list(let list) where !list.state.failedIntents.isEmpty:
                list.retry()
                retried = true
            case .post(let detail) where detail.current.failure != nil:
                detail.retry()
                retried = true
            default: break
            }
        }
        return retried
    }

    /// Returns once no page load, detail load or interaction request is running (at once when
    /// none is). Effects started meanwhile are waited for too.
    public func settle() async {
        await activity.idle()
    }
}
