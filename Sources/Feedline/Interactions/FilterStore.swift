import Foundation

/// Why the store would not start a change of your filters (nothing happened), with a sentence.
package enum FilterProblem: Error, Hashable, Sendable {
    /// A filter's title is empty (or only spaces).
    case emptyTitle
    /// A filter needs at least one keyword (the fronts make keyword filters only).
    case noKeywords
    /// A keyword is empty (or only spaces).
    case blankKeyword
    /// A filter needs at least one context.
    case noContext
    /// No filter has this id.
    case unknown(String)
    /// The filter waits for the server to make it: nothing can be done with it yet.
    case provisional(String)

    package var message: String {
        switch self {
        case .emptyTitle: "A filter needs a title."
        case .noKeywords: "A filter needs a keyword (--keyword WORD)."
        case .blankKeyword: "A filter's keyword cannot be blank."
        case .noContext: "A filter needs a place to apply (--context home,notifications,public,thread,account)."
        case .unknown(let id): "There is no filter \(id)."
        case .provisional(let title): "The filter \(title) is still being made; try again when it is."
        }
    }

    /// The problem as the session throws it: its ``message``, not transient.
    package var failure: FeedFailure { FeedFailure(message: message, isTransient: false) }
}

/// Your server filters as every screen shows them: the filters screen (its rows, a pending one
/// as pending), and every list of posts (a hide filter takes the posts it matches off, a warn
/// filter puts its warning on them — see `PostStore+Filters.swift`).
///
/// A configuration of the convergence engine as an ordered server list (`OrderedServerList`):
/// each filter is a `PendingChange` of the filter itself (`nil`: no filter), keyed by its id —
/// or by a local key (``localPrefix``) for a filter being made. Made, changed or deleted at once on every
/// screen; one change per filter in flight (one asked meanwhile is sent after its answer);
/// rolled back with the server's sentence on refusal; queued and sent again after a backoff
/// when the server cannot be reached (``FeedSession/retry()`` sends it at once).
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class FilterStore: OneEngineStore {
    /// The prefix of the local key of a filter being made.
    nonisolated package static let localPrefix = "new-"

    private let observers = HandlerList<[ListRow]>()
    private let posts: PostStore
    private let clock: WallClock
    /// The filters in the order shown (the server's, then those made since), each as the server
    /// confirmed it and as wanted.
    private var filters: OrderedServerList<PostFilter>!
    package var engine: Convergence<String, PendingChange<PostFilter?>>! { filters.engine }
    private var nextLocal = 0

    /// A store that sends changes of filters to `service`, counted in `activity`, re-sends those
    /// that failed for lack of a connection on `retryClock`, tells `posts` of every filter
    /// shown (expiry read on `clock`), and says what the server did in `outcomes`.
    package init(
        service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, clock: WallClock,
        outcomes: Outcomes? = nil
    ) {
        self.posts = posts
        self.clock = clock
        posts.filterClock = clock
        filters = OrderedServerList(
            activity: activity, retryClock: retryClock, isLocal: { $0.hasPrefix(Self.localPrefix) }, id: \.id,
            send: { [weak self] id, request in
                let now = clock.now()
                guard var filter = request.value else {
                    try await service.deleteFilter(id)
                    return nil
                }
                let expiresIn = filter.expiresAt.map { max(1, Int($0.timeIntervalSince(now).rounded())) }
                guard !id.hasPrefix(Self.localPrefix) else {
                    filter.id = ""
                    return try await service.createFilter(filter, expiresIn: expiresIn)
                }
                let old = await self?.confirmed(id) ?? filter
                return try await service.updateFilter(filter, replacing: old, expiresIn: expiresIn)
            },
            outcomes: outcomes,
            outcome: { id, report, before in
                // The server's filter has its own ids (and its keywords'): the same filter, done.
                if case .notApplied(let asked, now: let saved) = report, Self.same(asked, saved) {
                    return Outcome.done(.filter(id, title: saved?.title, was: before?.confirmed?.title))
                }
                return report.outcome { .filter(id, title: $0?.title, was: before?.confirmed?.title) }
            },
            answered: { [weak self] answer in self?.answered(answer) }
        )
    }

    // MARK: - Reading

    /// Every filter as shown now, in order, as the filters screen's rows.
    package var rows: [ListRow] { filters.order.compactMap(row) }

    /// The filter shown under `id` (its id, or the local key of one being made), or `nil`.
    package func filter(_ id: String) -> PostFilter? { filters.value(id) }

    /// The row of the filter `id`: pending while the server has not confirmed it, with the last
    /// refusal.
    package func row(_ id: String) -> ListRow? {
        guard let change = engine[id], let filter = change.wanted else { return nil }
        let failure = change.refusal.map { refusal in
            refusal.wanted == nil
                ? "Could not delete the filter \(filter.title): \(refusal.message)"
                : "Could not save the filter \(refusal.wanted?.title ?? filter.title): \(refusal.message)"
        }
        return .filter(filter, state: ToggleDisplay(isOn: true, pending: change.isPending, failure: failure))
    }

    /// Calls `handler` with the filters screen's rows after every change. Lasts as long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable ([ListRow]) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Every change the server has not confirmed, as sentences, in the order asked.
    package var unsent: [String] {
        engine.unsent.compactMap { id in
            guard let change = engine[id] else { return nil }
            switch (change.confirmed, change.wanted) {
            case (nil, let made?): return "create the filter \(made.title)"
            case (let filter?, nil): return "delete the filter \(filter.title)"
            case (let filter?, _?): return "change the filter \(filter.title)"
            case (nil, nil): return nil
            }
        }
    }

    private func confirmed(_ id: String) -> PostFilter? { engine[id]?.confirmed ?? nil }

    // MARK: - Input

    /// Marks the start of a fetch of the filters; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch { engine.beginFetch() }

    /// Records the filters a fetch begun at `fetchedAt` brought (all of them, in the server's
    /// order): filters learnt before it began and missing from it are gone; what was changed
    /// since stands. A filter made, changed or deleted elsewhere (another app, a session left)
    /// applies on every screen at once, as one changed here does: the posts already shown
    /// carry the server's filters as they were when they came.
    package func ingest(_ fetched: [PostFilter], fetchedAt: StoreEpoch) {
        let before = rows
        let shownBefore = Dictionary(filters.order.map { ($0, filter($0)) }, uniquingKeysWith: { first, _ in first })
        filters.ingest(fetched.filter { !$0.id.isEmpty }.map { ($0.id, $0) }, fetchedAt: fetchedAt)
        for id in Set(shownBefore.keys).union(filters.order) where (shownBefore[id] ?? nil) != filter(id) { applied(id) }
        if rows != before { notify() }
    }

    /// Makes `filter` (its id ignored): shown at once under a local key, on the filters screen
    /// as pending and on every list it applies to; replaced by the server's filter. Returns the
    /// local key.
    @discardableResult
    package func create(_ filter: PostFilter) throws(FilterProblem) -> String {
        let filter = try Self.checked(filter)
        nextLocal += 1
        let key = Self.localPrefix + String(nextLocal)
        var made = filter
        made.id = key
        filters.create(made, as: key)
        applied(key)
        notify()
        return key
    }

    /// Changes the filter `id` to `filter` (keywords with an id kept, those without added, the
    /// others deleted): shown at once; rolled back with the reason on refusal.
    package func update(_ id: String, to filter: PostFilter) throws(FilterProblem) {
        guard let shown = self.filter(id) else { throw .unknown(id) }
        guard !id.hasPrefix(Self.localPrefix) else { throw .provisional(shown.title) }
        var changed = try Self.checked(filter)
        changed.id = id
        change(id, to: changed)
    }

    /// Deletes the filter `id`: off the filters screen at once, and its posts back where they
    /// belong; back on refusal.
    package func delete(_ id: String) throws(FilterProblem) {
        guard let shown = filter(id) else { throw .unknown(id) }
        guard !id.hasPrefix(Self.localPrefix) else { throw .provisional(shown.title) }
        change(id, to: nil)
    }

    private func change(_ id: String, to filter: PostFilter?) {
        filters.want(filter, for: id)
        applied(id)
        notify()
    }

    // MARK: - Answers

    /// An answer changed a filter: the posts follow what it shows (a filter the server made,
    /// under its id now, among them).
    private func answered(_ answer: OrderedServerList<PostFilter>.Answer) {
        if let made = answer.made {
            posts.filterMade(answer.key, as: made.value.id)
            applied(made.value.id)
        }
        if (answer.before?.wanted ?? nil) != (answer.after?.wanted ?? nil) || engine[answer.key] == nil { applied(answer.key) }
        notify()
    }

    /// Tells the posts what the filter `id` is as shown now (`nil`: none).
    private func applied(_ id: String) {
        posts.filterChanged(id, to: filter(id))
    }

    private func notify() {
        observers.notify(rows)
    }

    // MARK: - Rules

    /// `filter` trimmed, or why it cannot be made.
    nonisolated package static func checked(_ filter: PostFilter) throws(FilterProblem) -> PostFilter {
        var filter = filter
        filter.title = filter.title.trimmingBlanks(newlines: true)
        guard !filter.title.isEmpty else { throw .emptyTitle }
        guard !filter.keywords.isEmpty else { throw .noKeywords }
        for index in filter.keywords.indices {
            filter.keywords[index].keyword = filter.keywords[index].keyword.trimmingBlanks(newlines: true)
            if filter.keywords[index].keyword.isEmpty { throw .blankKeyword }
        }
        guard !filter.contexts.isEmpty else { throw .noContext }
        return filter
    }

    /// Whether the server's answer `saved` is the filter `asked` (ids and expiry aside: the
    /// server gives ids and counts the expiry from when it got the request).
    nonisolated static func same(_ asked: PostFilter?, _ saved: PostFilter?) -> Bool {
        guard let asked, let saved else { return asked == nil && saved == nil }
        func words(_ filter: PostFilter) -> [String] { filter.keywords.map { "\($0.wholeWord) \($0.keyword)" }.sorted() }
        return asked.title == saved.title && asked.contexts == saved.contexts && asked.action == saved.action && words(asked) == words(saved)
    }
}
