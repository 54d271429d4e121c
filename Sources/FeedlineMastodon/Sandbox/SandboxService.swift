@_spi(FeedService) import Feedline
import Foundation
import Synchronization

/// An offline Mastodon server over statuses held in memory: the default ``Feedline/FeedService``.
///
/// It answers like Mastodon's timeline, status and notification endpoints:
/// - **Feeds**: home (the fixture timeline), local, public, hashtags, an account's posts,
///   bookmarks, favourites and the trending posts, all derived from the fixtures and kept as the
///   user acts; the hashtags the user follows and the trending hashtags
///   (`SandboxService+Tags.swift`).
/// - **Pages** are newest first (by `created_at`, ties by id), ``pageSize`` at a time; a page's
///   cursor is the id of its last post (Mastodon's `max_id`), and the last page has no cursor.
///   The trending posts are ranked instead, and paged by offset.
/// - **Newer posts** (`since_id` + `max_id`) are the newest posts strictly between the two, at most
///   a page of them; `hasMore` is exactly whether older posts of that range were left out.
/// - **Favourite / unfavourite / reblog / unreblog** accept an original's id or the id of a boost
///   of it, act on the original and are idempotent. Favouriting returns the original; reblogging
///   returns the user's boost (a new *wrapper* status whose `reblog` is the original, the same
///   wrapper again when already boosted); unfavouriting and unreblogging return the original,
///   unchanged when there was nothing to undo. Counts move with the flags; with
///   ``SandboxScenario/laggingCounts`` the replies to the two undo requests carry the count from
///   before the change, as Mastodon's sometimes do. The user's boosts are not added to the
///   timeline (Mastodon leaves a boost out of a home feed that already shows the post).
/// - **A post** by id is any entry, original or boost the sandbox knows; **context** is built from
///   `in_reply_to_id` around the original.
/// - Unknown ids fail with ``SandboxError/notFound(_:)`` ("Record not found").
/// - **Accounts**: every author, booster and notifying account is in a directory with its
///   profile, and the user's relationship with each is kept and changed as Mastodon does
///   (see ``SandboxAccounts`` and `SandboxService+Accounts.swift`), as are the domains the user
///   blocks (`SandboxService+DomainBlocks.swift`).
///
/// Every request first draws its latency and fault from the ``SandboxScenario`` (under the lock,
/// so the draws follow the order requests arrive), then sleeps on the injected clock (never when
/// the latency is zero), then fails or acts on the data. Cancellation during the sleep ends the
/// request without effect. Calls may run concurrently from any task: all state sits behind one
/// ``Locked`` value, held only for in-memory work.
public final class SandboxService: FeedServer {
    /// The page size when neither the caller nor the scenario gives one: Mastodon's default.
    public static let defaultPageSize = 20
    /// The largest page Mastodon serves.
    public static let maximumPageSize = 40

    /// Posts per page, 1…40.
    public let pageSize: Int
    private let clock: any Clock<Duration>

    /// Waits `duration` on the sandbox's clock (virtual in scripts and tests).
    func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
    let wallClock: WallClock
    private let state: Locked<State>

    struct State: Sendable {
        var store: SandboxStore
        /// The notifications; empty until ``loadNotifications()`` while ``deferredNotifications`` is set.
        var notifications: SandboxNotifications
        /// The fixture's notifications file, not decoded yet (see ``DeferredNotifications``).
        var deferredNotifications: DeferredNotifications?
        /// Why the deferred notifications could not be decoded: every notifications request says so.
        var notificationsProblem: SandboxError?
        var scenario: SandboxScenario
        var pendingArrivals: [SandboxScenario.Arrival]
        var pendingReactions: [SandboxScenario.Reaction]
        /// Stream items not delivered yet, in the order they come.
        var pendingStream: [SandboxScenario.StreamItem]
        /// Whether the stream is connected (what happens while it is not is missed).
        var streamConnected = true
        var pagesServed = 0
        var faultCounts: [Int]
        var delayCounts: [Int]
        var latencyGenerator: SplitMix64
        var faultGenerator: SplitMix64
        /// Idempotency keys of posts made, with the post's id and when (see `publish`).
        var idempotencyKeys: [String: (id: String, at: Date)] = [:]
        /// Every account the sandbox knows, with profiles and the user's relationships.
        var accounts: SandboxAccounts
        /// The reports filed, in order (`SandboxService+Reports.swift`).
        var reports: [AccountReport] = []
        /// The announcements dismissed here (`SandboxService+Announcements.swift`).
        var announcementsRead: Set<String> = []
        /// The hashtags the user follows (`SandboxService+Tags.swift`).
        var tags: SandboxTags
        /// The user's direct conversations (`SandboxService+Conversations.swift`).
        var conversations: SandboxConversations
        /// The user's lists (`SandboxService+Lists.swift`).
        var lists: SandboxLists
        /// The user's server filters (`SandboxService+Filters.swift`).
        var filters: SandboxFilters
        /// The user's scheduled posts (`SandboxService+Scheduled.swift`).
        var scheduled: SandboxScheduled
        /// The user's notification policy (`SandboxService+NotificationPolicy.swift`).
        var notificationPolicy: NotificationPolicy
        /// The user's requests of filtered notifications (`SandboxService+NotificationRequests.swift`).
        var notificationRequests: SandboxNotificationRequests
    }

    fileprivate struct Plan {
        var wait: Duration
        var failure: SandboxScenario.Failure?
    }

    /// A sandbox serving `statuses` (in any order) under `scenario`.
    ///
    /// - Parameters:
    ///   - pageSize: posts per page; `nil` takes the scenario's, else ``defaultPageSize``.
    ///   - clock: what latency sleeps on (a test clock or `VirtualClock` in tests and scripts).
    ///   - wallClock: the date of the boosts the user makes.
    ///   - accounts: profiles and relationships beyond what the statuses say (a fixture's
    ///     `accounts` file).
    /// - Throws: ``SandboxError/invalidPageSize(_:)``, ``SandboxError/invalidScenario(_:)``, or
    ///   ``SandboxError/duplicateStatus(_:)`` when two statuses (arrivals included) share an id.
    public convenience init(
        statuses: [Mastodon.Status],
        elsewhere: [Mastodon.Status] = [],
        notifications: [Mastodon.Notification] = [],
        scenario: SandboxScenario = SandboxScenario(),
        accounts: [SandboxAccountDetails] = [],
        pageSize: Int? = nil,
        clock: any Clock<Duration>,
        wallClock: WallClock = .system
    ) throws(SandboxError) {
        try self.init(
            statuses: statuses, elsewhere: elsewhere, notifications: notifications, deferredNotifications: nil, scenario: scenario,
            accounts: accounts, pageSize: pageSize, clock: clock, wallClock: wallClock
        )
    }

    /// As the public initializer; `deferredNotifications` (when set) holds the notifications,
    /// decoded on first use, whose accounts join the directory now.
    private init(
        statuses: [Mastodon.Status],
        elsewhere: [Mastodon.Status],
        notifications: [Mastodon.Notification],
        deferredNotifications: DeferredNotifications?,
        scenario: SandboxScenario,
        accounts: [SandboxAccountDetails],
        pageSize: Int?,
        clock: any Clock<Duration>,
        wallClock: WallClock
    ) throws(SandboxError) {
        if let problem = scenario.problem { throw .invalidScenario(problem) }
        let size = pageSize ?? scenario.pageSize ?? Self.defaultPageSize
        guard (1...Self.maximumPageSize).contains(size) else { throw .invalidPageSize(size) }
        let streamed = scenario.stream.flatMap { item -> [Mastodon.Status] in
            if case .update(let statuses) = item.kind { return statuses }
            return []
        }
        let later = scenario.arrivals.flatMap(\.statuses) + streamed
        var ids = Set<String>()
        for status in statuses + elsewhere + later where !ids.insert(status.id).inserted {
            throw .duplicateStatus(status.id)
        }
        let domain = scenario.account.url.flatMap { URL(string: $0)?.host }
        var store = try SandboxStore(
            entries: statuses, elsewhere: elsewhere, reserving: Set(later.map(\.id)), domain: domain, signedIn: scenario.account.id
        )
        func check(_ reaction: SandboxScenario.Reaction, _ field: String) throws(SandboxError) {
            if store.account(named: reaction.account) == nil {
                throw .invalidScenario("\(field).account: no author @\(reaction.account) in the fixtures")
            }
            if let id = reaction.postID {
                guard let status = store.rendered(id) else { throw .invalidScenario("\(field).post: no post \(id) in the fixtures") }
                if status.reblog != nil || status.account.id != scenario.account.id {
                    throw .invalidScenario("\(field).post: \(id) is not a post by @\(scenario.account.acct), the signed-in account")
                }
            }
        }
        for (index, reaction) in scenario.reactions.enumerated() { try check(reaction, "reactions[\(index)]") }
        let known = ids
        for (index, item) in scenario.stream.enumerated() {
            switch item.kind {
            case .notification(let reaction): try check(reaction, "stream[\(index)]")
            case .edit(let id, _, _), .delete(let id):
                if !known.contains(id) { throw .invalidScenario("stream[\(index)].post: no post \(id) in the fixtures") }
            case .update, .disconnect, .reconnect: break
            }
        }
        let everyStatus = statuses + elsewhere + later + notifications.compactMap(\.status)
        // The deferred file's accounts the directory would not hold otherwise, in the places a
        // decoded file's would take (they come last either way), so the directory is the same.
        var authors = everyStatus.flatMap { [$0.account] + ($0.reblog.map { [$0.original.account] } ?? []) } + notifications.map(\.account)
        if let deferredNotifications {
            do {
                authors += try deferredNotifications.accounts(unknownTo: Set(authors.map(\.id) + [scenario.account.id]))
            } catch {
                throw .brokenFixture(error.errorDescription ?? "The fixture file \(deferredNotifications.file) could not be read.")
            }
        }
        let directory = try SandboxAccounts(
            authors: authors, signedIn: scenario.account, domain: domain, details: accounts, domainBlocks: scenario.domainBlocks
        )
        let lists = try SandboxLists(scenario.lists, directory: directory, store: store, now: wallClock.now())
        lists.tell(&store)
        self.pageSize = size
        self.clock = clock
        self.wallClock = wallClock
        state = Locked(
            State(
                store: store,
                notifications: SandboxNotifications(notifications),
                deferredNotifications: deferredNotifications,
                scenario: scenario,
                pendingArrivals: scenario.arrivals,
                pendingReactions: scenario.reactions,
                pendingStream: scenario.stream.enumerated().sorted { ($0.element.afterCommands, $0.offset) < ($1.element.afterCommands, $1.offset) }.map(\.element),
                faultCounts: Array(repeating: 0, count: scenario.faults.count),
                delayCounts: Array(repeating: 0, count: scenario.delays.count),
                latencyGenerator: SplitMix64(seed: scenario.latencySeed),
                faultGenerator: SplitMix64(seed: scenario.randomFaults?.seed ?? 0),
                accounts: directory,
                tags: SandboxTags(followed: scenario.followedTags),
                conversations: SandboxConversations(scenario.conversations, store: store),
                lists: lists,
                filters: SandboxFilters(scenario.filters),
                scheduled: SandboxScheduled(scenario.scheduled.map { ScheduledPost($0) }),
                notificationPolicy: scenario.notificationPolicy.map { NotificationPolicy($0) } ?? SandboxScenario.defaultNotificationPolicy,
                notificationRequests: SandboxNotificationRequests(scenario.notificationRequests)
            )
        )
    }

    /// A sandbox serving a loaded fixture directory under its scenario.
    public convenience init(
        fixture: SandboxFixture,
        pageSize: Int? = nil,
        clock: any Clock<Duration>,
        wallClock: WallClock = .system
    ) throws(SandboxError) {
        try self.init(
            statuses: fixture.statuses, elsewhere: fixture.elsewhere, notifications: fixture.notifications,
            deferredNotifications: fixture.deferredNotifications, scenario: fixture.scenario, accounts: fixture.accounts,
            pageSize: pageSize, clock: clock, wallClock: wallClock
        )
    }

    // MARK: - FeedService

    /// A page of `feed` (see ``SandboxStore/feed(_:)`` for what each feed holds), newest first:
    /// ``pageSize`` entries after the one the cursor names. Answering a page may release
    /// held-back arrivals, which later requests then see.
    ///
    /// The trending posts are ranked, not ordered by date: their cursor is the offset of the next
    /// page (opaque to callers), as Mastodon's `trends/statuses` pages them. Their first page
    /// ranks them with the statuses and counts of then; the pages after it keep that ranking.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor that names no entry of the feed
    ///   and is not an id either (a numeric id the feed does not hold bounds by id order), or
    ///   for the trending posts is no offset; ``SandboxError/unknownList(_:)`` for a list it does not have, or a
    ///   scheduled fault.
    @_spi(FeedService) public func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        try await perform(.page, cursor: cursor) { state, pageSize throws(SandboxError) in
            // The first page of the trending posts ranks them anew; the pages after it read that ranking.
            if feed == .trending, cursor == nil { state.store.forgetTrending() }
            let (ids, positions) = try state.store.feed(try state.resolved(feed))
            var start = 0
            if feed == .trending {
                // Ranked, not ordered by id: paged by offset, as Mastodon's trends are.
                start = try Self.offset(of: cursor)
            } else if let cursor {
                // Like Mastodon's `max_id`, a cursor naming a post the feed does not hold (one a
                // stream brought in an earlier run, saved with the rows) still bounds by id order.
                guard let after = Self.start(after: cursor.rawValue, positions: positions, in: ids) else { throw .unknownCursor(cursor.rawValue) }
                start = after
            }
            let slice = ids[min(start, ids.count)..<min(start + pageSize, ids.count)]
            var posts = slice.compactMap { state.store.post($0) }
            let next =
                feed == .trending
                ? Self.cursor(after: start, size: pageSize, total: ids.count)
                : start + pageSize < ids.count ? slice.last.map { PageCursor($0) } : nil
            // A profile's first page: its pinned posts on top (Mastodon's `pinned=true`, most
            // recently pinned first), each once.
            var onTop = 0
            if case .account = feed, cursor == nil {
                let pinned = state.store.pins.filter { positions[$0] != nil && !state.store.isDeleted($0) }.compactMap { state.store.post($0) }
                let ids = Set(pinned.map(\.id))
                posts = pinned + posts.filter { !ids.contains($0.id) }
                onTop = pinned.count
            }
            state.pagesServed += 1
            try state.releaseArrivals()
            return Page(posts: posts, next: next, onTop: onTop)
        }
    }

    /// The newest entries of `feed` strictly newer than `lower` and strictly older than `upper`,
    /// at most a page; `hasMore` is `true` exactly when the range holds more.
    ///
    /// The trending posts are ranked, so nothing is "newer" there: that is an empty answer,
    /// without a request (a front reloads the list instead; the core never asks).
    ///
    /// - Throws: ``SandboxError/notFound(_:)`` when `lower` or `upper` is not an entry of the feed.
    @_spi(FeedService) public func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        if feed == .trending { return NewerPage(posts: [], hasMore: false) }
        return try await perform(.newer, postID: lower) { state, pageSize throws(SandboxError) in
            let (ids, positions) = try state.store.feed(try state.resolved(feed))
            // A bound the feed does not hold (a post deleted, or one a stream brought in an
            // earlier run) still bounds by id order, as Mastodon's since_id and max_id do.
            guard let end = positions[lower.rawValue] ?? Self.place(of: lower.rawValue, in: ids) else { throw .notFound(lower) }
            var start = 0
            if let upper {
                guard let after = Self.start(after: upper.rawValue, positions: positions, in: ids) else { throw .notFound(upper) }
                start = after
            }
            guard start < end else { return NewerPage(posts: [], hasMore: false) }
            let slice = ids[start..<min(end, start + pageSize)]
            return NewerPage(posts: slice.compactMap { state.store.post($0) }, hasMore: end - start > pageSize)
        }
    }

    /// The index in `ids` (newest first; `positions` maps each to its index) of the first entry
    /// older than `id`: the one after it when the feed holds it, else where it would stand
    /// (``place(of:in:)``); `nil` when neither can be said.
    static func start(after id: String, positions: [String: Int], in ids: [String]) -> Int? {
        if let position = positions[id] { return position + 1 }
        return place(of: id, in: ids)
    }

    /// Where an id the feed does not hold would stand in `ids` (newest first): the index of the
    /// first id older than it, comparing numeric ids as numbers (snowflakes grow with time);
    /// `nil` when either is not a number.
    static func place(of id: String, in ids: [String]) -> Int? {
        guard !id.isEmpty, id.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        func older(_ other: String) -> Bool? {
            guard !other.isEmpty, other.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return other.count != id.count ? other.count < id.count : other < id
        }
        for (index, other) in ids.enumerated() {
            guard let isOlder = older(other) else { return nil }
            if isOlder { return index }
        }
        return ids.count
    }

    /// A page of the user's notifications of `kinds` (every kind when empty), grouped as
    /// Mastodon 4.3 groups them.
    @_spi(FeedService) public func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        try await perform(.notifications, cursor: cursor) { state, pageSize throws(SandboxError) in
            try state.loadNotifications()
            let page = try state.notifications.page(of: kinds, after: cursor, size: pageSize, store: state.store)
            state.pagesServed += 1
            try state.releaseArrivals()
            return page
        }
    }

    /// The notification groups of `kinds` (every kind when empty) with notifications strictly
    /// between `lower` and `upper`.
    @_spi(FeedService) public func newerNotifications(
        of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?
    ) async throws -> NewerPage<NotificationGroup> {
        try await perform(.notifications) { state, pageSize throws(SandboxError) in
            try state.loadNotifications()
            return state.notifications.newer(of: kinds, than: lower, olderThan: upper, size: pageSize, store: state.store)
        }
    }

    /// Dismisses the notifications of the group `key`.
    ///
    /// - Throws: `SandboxError.refused` when no notification of the user has that group key.
    @_spi(FeedService) public func dismissNotificationGroup(_ key: String) async throws {
        try await perform(.notificationDismiss) { state, _ throws(SandboxError) in
            try state.loadNotifications()
            guard state.notifications.dismiss(group: key) else { throw .refused("There is no notification group \(key): it may have been dismissed.") }
        }
    }

    /// Dismisses every notification of the user.
    @_spi(FeedService) public func clearNotifications() async throws {
        try await perform(.notificationDismiss) { state, _ throws(SandboxError) in
            try state.loadNotifications()
            state.notifications.clear()
        }
    }

    /// The post with this id: a timeline entry, an original, or a boost the user made.
    public func post(_ id: PostID) async throws -> Post {
        try await perform(.post, postID: id) { state, _ throws(SandboxError) in
            guard let post = state.store.post(id.rawValue) else { throw .notFound(id) }
            return post
        }
    }

    /// The thread around the original that `id` shows: ancestors root first, descendants depth
    /// first with replies to the same post oldest first.
    @_spi(FeedService) public func context(of id: PostID) async throws -> PostContext {
        try await perform(.context, postID: id) { state, _ throws(SandboxError) in
            let thread = try state.store.thread(of: id.rawValue)
            return PostContext(
                ancestors: thread.ancestors.map { state.store.post($0.id) ?? Post($0) },
                descendants: thread.descendants.map { state.store.post($0.id) ?? Post($0) }
            )
        }
    }

    /// Sets favourite, boost or bookmark of the original that `postID` shows.
    ///
    /// Favourites and bookmarks return the original; boosting returns the user's boost (whose
    /// `reblog` is the original), unboosting the original. Idempotent; counts move with the flags;
    /// with ``SandboxScenario/laggingCounts`` the replies to unfavourite and unboost carry the
    /// count from before the change.
    public func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        switch kind {
        case .favourite: try await applyFavourite(value, postID: postID)
        case .reblog: try await applyReblog(value, postID: postID)
        case .bookmark: try await applyBookmark(value, postID: postID)
        case .pin: try await applyPin(value, postID: postID)
        case .muteThread: try await applyMute(value, postID: postID)
        }
    }

    /// The most posts an account pins (Mastodon's `StatusPinValidator::PIN_LIMIT`).
    public static let pinLimit = 5

    /// Pins or unpins the status `postID` names, as Mastodon does: one's own post only, not a
    /// boost, not a direct message, at most ``pinLimit`` — each refused with Mastodon's sentence
    /// (HTTP 422, `Validation failed: …`). Idempotent; unpinning what is not pinned is fine.
    private func applyPin(_ pinned: Bool, postID: PostID) async throws -> Post {
        try await perform(pinned ? .pin : .unpin, postID: postID) { state, _ throws(SandboxError) in
            guard let entry = state.store.statuses[postID.rawValue], !state.store.isDeleted(postID.rawValue) else { throw .notFound(postID) }
            var status = entry
            if pinned {
                var problems: [String] = []
                if entry.reblog != nil { problems.append("A boost cannot be pinned") }
                if entry.account.id != state.scenario.account.id { problems.append("Someone else's post cannot be pinned") }
                if entry.visibility == .direct { problems.append("Posts that are only visible to mentioned users cannot be pinned") }
                if entry.pinned != true, state.store.pins.count(where: { state.store.statuses[$0]?.account.id == state.scenario.account.id }) >= Self.pinLimit {
                    problems.append("You have already pinned the maximum number of posts")
                }
                if !problems.isEmpty { throw .refused("Validation failed: " + problems.joined(separator: ", ")) }
            } else if entry.reblog != nil {
                status = try state.store.original(of: postID.rawValue)
            }
            guard (status.pinned ?? false) != pinned else { return state.store.converted(status) }
            status.pinned = pinned
            state.store.replace(status)
            return state.store.converted(status)
        }
    }

    /// Mutes or unmutes the conversation of the status `postID` names: Mastodon then sends no
    /// notification about its posts (``SandboxService/State/react(_:)``), while those already
    /// sent stay. Idempotent.
    private func applyMute(_ muted: Bool, postID: PostID) async throws -> Post {
        try await perform(muted ? .muteThread : .unmuteThread, postID: postID) { state, _ throws(SandboxError) in
            let original = try state.store.original(of: postID.rawValue)
            state.store.setMuted(muted, conversationOf: original.id)
            return state.store.converted(try state.store.original(of: original.id))
        }
    }

    /// The account a handle names (`user`, `user@host`, with or without `@`), among the authors
    /// of every status the sandbox knows; a local account also by its full handle, on the
    /// sandbox's domain (the host of the signed-in account's `url`) or its own profile's host.
    public func account(named handle: String) async throws -> Author {
        try await perform(.account) { state, _ throws(SandboxError) in
            guard let account = state.store.account(named: handle) else { throw .unknownAccount(handle) }
            return Author(account)
        }
    }

    private func applyFavourite(_ favourited: Bool, postID: PostID) async throws -> Post {
        try await perform(favourited ? .favourite : .unfavourite, postID: postID) { state, _ throws(SandboxError) in
            var original = try state.store.original(of: postID.rawValue)
            let before = original
            guard (original.favourited ?? false) != favourited else { return state.store.converted(original) }
            original.favourited = favourited
            original.favouritesCount = max(0, original.favouritesCount + (favourited ? 1 : -1))
            state.store.replace(original)
            var reply = state.store.converted(original)
            if !favourited, state.scenario.laggingCounts { reply.favouritesCount = before.favouritesCount }
            return reply
        }
    }

    private func applyBookmark(_ bookmarked: Bool, postID: PostID) async throws -> Post {
        try await perform(bookmarked ? .bookmark : .unbookmark, postID: postID) { state, _ throws(SandboxError) in
            var original = try state.store.original(of: postID.rawValue)
            guard (original.bookmarked ?? false) != bookmarked else { return state.store.converted(original) }
            original.bookmarked = bookmarked
            state.store.replace(original)
            return state.store.converted(original)
        }
    }

    private func applyReblog(_ reblogged: Bool, postID: PostID) async throws -> Post {
        let now = wallClock.now()
        return try await perform(reblogged ? .reblog : .unreblog, postID: postID) { state, _ throws(SandboxError) in
            var original = try state.store.original(of: postID.rawValue)
            let before = original
            if reblogged {
                if let boostID = state.store.boost(of: original.id), let boost = state.store.post(boostID) {
                    return boost
                }
                if original.reblogged != true {
                    original.reblogsCount += 1
                }
                original.reblogged = true
                state.store.replace(original)
                let boostID = state.store.addBoost(of: original, by: state.scenario.account, at: now)
                guard let boost = state.store.post(boostID) else { throw .notFound(PostID(boostID)) }
                return boost
            }
            guard original.reblogged == true else { return state.store.converted(original) }
            original.reblogged = false
            original.reblogsCount = max(0, original.reblogsCount - 1)
            state.store.replace(original)
            state.store.removeBoost(of: original.id)
            var reply = state.store.converted(original)
            if state.scenario.laggingCounts { reply.reblogsCount = before.reblogsCount }
            return reply
        }
    }

    // MARK: - Requests

    /// Plans the request under the lock, waits its latency on the clock, then fails as planned
    /// or runs `body` under the lock.
    /// Whether the fixture's notifications file is still waiting to be decoded (a test hook:
    /// true from the start until the first request that needs the notifications).
    package var notificationsAwaitDecoding: Bool {
        state.withLock { $0.deferredNotifications != nil }
    }

    /// Runs `body` on the sandbox's state under its lock.
    func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    /// As `perform`, for writes: the faults that happen after the server acted
    /// (``SandboxScenario/Failure/lostAnswer``) or that a write's checks raise
    /// (``SandboxScenario/Failure/validationFailed``) reach `body`, which acts on them.
    func perform<Result: Sendable>(
        _ request: SandboxScenario.Request,
        postID: PostID? = nil,
        _ body: @Sendable (inout State, SandboxScenario.Failure?, Int) throws(SandboxError) -> Result
    ) async throws -> Result {
        let plan = state.withLock { $0.plan(request, cursor: nil, postID: postID) }
        if plan.wait > .zero {
            try await clock.sleep(for: plan.wait)
        }
        try Task.checkCancellation()
        if let failure = plan.failure, failure != .lostAnswer, failure != .validationFailed {
            throw SandboxError.fault(failure, request: request)
        }
        let pageSize = pageSize
        return try state.withLock { state throws(SandboxError) in try body(&state, plan.failure, pageSize) }
    }

    private func perform<Result: Sendable>(
        _ request: SandboxScenario.Request,
        cursor: PageCursor? = nil,
        postID: PostID? = nil,
        _ body: @Sendable (inout State, Int) throws(SandboxError) -> Result
    ) async throws -> Result {
        let plan = state.withLock { $0.plan(request, cursor: cursor, postID: postID) }
        if plan.wait > .zero {
            try await clock.sleep(for: plan.wait)
        }
        try Task.checkCancellation()
        if let failure = plan.failure { throw SandboxError.fault(failure, request: request) }
        let pageSize = pageSize
        return try state.withLock { state throws(SandboxError) in try body(&state, pageSize) }
    }
}

extension SandboxService.State {
    /// Counts the request against every rule and draws its latency and random fault.
    fileprivate mutating func plan(_ request: SandboxScenario.Request, cursor: PageCursor?, postID: PostID?) -> SandboxService.Plan {
        let range = scenario.latency(for: request).milliseconds
        var wait = Duration.milliseconds(range.count > 1 ? latencyGenerator.next(in: range) : range.lowerBound)
        for (index, delay) in scenario.delays.enumerated() where delay.match.matches(request, cursor: cursor, postID: postID) {
            delayCounts[index] += 1
            if delay.match.covers(delayCounts[index]) { wait += delay.extra }
        }
        var failure: SandboxScenario.Failure?
        for (index, fault) in scenario.faults.enumerated() where fault.match.matches(request, cursor: cursor, postID: postID) {
            faultCounts[index] += 1
            if failure == nil, fault.match.covers(faultCounts[index]) { failure = fault.failure }
        }
        if let random = scenario.randomFaults, random.requests.contains(request) {
            let draw = faultGenerator.nextUnit()
            if failure == nil, draw < random.probability { failure = random.failure }
        }
        return SandboxService.Plan(wait: wait, failure: failure)
    }

    /// Decodes the deferred notifications file, once: afterwards ``notifications`` holds them.
    ///
    /// - Throws: ``SandboxError/brokenFixture(_:)`` when the file cannot be decoded, now and on
    ///   every call after.
    mutating func loadNotifications() throws(SandboxError) {
        if let deferred = deferredNotifications {
            deferredNotifications = nil
            do {
                // Added notifications (reactions) load the file first, so nothing is here yet.
                notifications = SandboxNotifications(try deferred.decode())
            } catch {
                notificationsProblem = .brokenFixture(error.errorDescription ?? "The fixture file \(deferred.file) could not be read.")
            }
        }
        if let notificationsProblem { throw notificationsProblem }
    }

    /// Adds the arrivals whose time has come to the timeline, and lets the reactions whose time
    /// has come happen: the post's count goes up, a notification arrives.
    fileprivate mutating func releaseArrivals() throws(SandboxError) {
        let due = pendingArrivals.filter { $0.afterPages <= pagesServed }
        if !due.isEmpty {
            pendingArrivals.removeAll { $0.afterPages <= pagesServed }
            try store.insert(due.flatMap(\.statuses))
        }
        let reactions = pendingReactions.filter { $0.afterPages <= pagesServed }
        guard !reactions.isEmpty else { return }
        pendingReactions.removeAll { $0.afterPages <= pagesServed }
        for reaction in reactions { react(reaction) }
    }

    /// Lets `reaction` happen: the post's count goes up and the notification arrives. Returns
    /// the notification as a group of one (what a stream sends).
    @discardableResult
    mutating func react(_ reaction: SandboxScenario.Reaction) -> NotificationGroup? {
        // Checked when the service was made: the account and the post exist.
        guard let account = store.account(named: reaction.account) else { return nil }
        var status = reaction.postID.flatMap { store.rendered($0) }
        switch reaction.kind {
        case .favourite: status?.favouritesCount += 1
        case .reblog: status?.reblogsCount += 1
        case .follow:
            status = nil
            accounts.followedUser(by: account.id)
        }
        if let status { store.replace(status) }
        // Mastodon notifies nothing about the posts of a muted conversation.
        if let status, store.isMuted(status.id) { return nil }
        // A broken deferred file leaves the list empty: its notifications requests fail, saying why.
        try? loadNotifications()
        return notifications.add(type: reaction.kind.rawValue, account: account, status: status, at: reaction.date)
    }
}

/// The sandbox answers every call a session makes (the service protocols are SPI).
@_spi(FeedService) extension SandboxService: FeedService {}
