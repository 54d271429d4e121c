import Foundation

/// Why the store would not start a change of the lists (nothing happened), with a sentence.
package enum UserListProblem: Error, Hashable, Sendable {
    /// A list's title is empty (or only spaces).
    case emptyTitle
    /// Another list shows this title already (lists are named by title, so titles stay unique).
    case duplicate(String)
    /// No list has this id.
    case unknown(String)
    /// The list waits for the server to make it: nothing can be done with it yet.
    case provisional(String)

    package var message: String {
        switch self {
        case .emptyTitle: "A list needs a name."
        case .duplicate(let title): "You have a list named \(title) already."
        case .unknown(let id): "There is no list \(id)."
        case .provisional(let title): "The list \(title) is still being made; try again when it is."
        }
    }

    /// The problem as the session throws it: its ``message``, not transient (asking again
    /// cannot help).
    package var failure: FeedFailure { FeedFailure(message: message, isTransient: false) }
}

/// The signed-in user's lists and who is on them, as every screen shows them: the lists screen,
/// a list's timeline (its title), the screens of a list's accounts.
///
/// A configuration of the convergence engine as an ordered server list (`OrderedServerList`):
/// each list is a `PendingChange` of the list itself (`nil`: no list) — made, renamed or deleted at once on every screen, one
/// change per list in flight (a change asked meanwhile is sent after its answer), confirmed or
/// rolled back with the server's sentence.
///
/// - Create shows the list at once with a provisional id (``UserListRow/isProvisional``); the
///   server's list replaces it where it stands, a refusal removes it and says why. A create is
///   never sent again by itself (a lost answer may have made the list): a lost connection
///   removes it and says so.
/// - Rename shows the new title at once; a refusal brings the confirmed title back, with the
///   reason on the row.
/// - Delete takes the list off at once; a refusal puts it back where it was, with the reason.
/// - A rename or delete the server could not be reached for stays shown and is sent again after
///   a backoff (``FeedSession/retry()`` sends it at once; ``unsent`` names it).
/// - Membership (add or remove an account) is one optimistic toggle per (list, account) —
///   `KeyedToggles`: one request per key in flight, re-sent after a lost connection, rolled
///   back with the reason on refusal.
/// - Fetches take an epoch (`beginFetch()`): what was learnt after a fetch began is not
///   undone by it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
package final class UserListStore: ConvergingStore {
    private let observers = HandlerList<UserListsChange>()
    private let memberObservers = HandlerList<ListMembershipChange>()
    /// The lists in the order shown (the server's, then lists made since; a list being deleted
    /// keeps its place, where a refusal puts it back), each as the server confirmed it and as
    /// wanted, one change in flight (set at the end of `init`, so its handlers can hold the
    /// store weakly). Its engine's epoch is the store's.
    private var userLists: OrderedServerList<UserList>!
    private var changes: Convergence<String, PendingChange<UserList?>> { userLists.engine }
    /// The provisional id each list made here was first shown with (its rows keep it).
    private var shownAs: [String: String] = [:]
    private var nextToken = 0
    private var nextProvisional = 0
    private var loaded = false
    /// A fetch of the lists asked by `load()`, by token; its answer and the epoch it began at.
    private var fetches: Feedback<Int, (Result<[UserList], FeedFailure>, StoreEpoch)>?
    private var fetching: Int?
    /// Why the last `load()` failed, until the lists load.
    package private(set) var loadFailure: String?
    private var members: KeyedToggles?
    /// Who each account is, for the rows of a list's accounts that a membership brings back.
    private var profiles: [AccountID: Profile] = [:]

    /// A store that sends changes of lists to `service`, counted in `activity`, and re-sends
    /// changes that failed for lack of a connection on `retryClock`; what the server did with each
    /// change goes to `outcomes`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        fetches = Feedback(
            activity: activity,
            prepare: { [weak self] _ in self?.beginFetch() ?? 0 },
            effect: { _, fetchedAt in
                do {
                    return (.success(try await service.lists()), fetchedAt)
                } catch {
                    return (.failure(FeedFailure(error)), fetchedAt)
                }
            },
            handle: { [weak self] answer in self?.fetched(answer.0, fetchedAt: answer.1) }
        )
        members = KeyedToggles(
            activity: activity, retryClock: retryClock,
            send: { key, value in
                guard let (list, account) = Self.split(key) else { return value }
                try await service.setListMembership(list: list, account: account, to: value)
                return value
            },
            describe: { [weak self] key, value in self?.describeMembership(key, value) ?? (value ? "add the account" : "remove the account") },
            changed: { _, _, _ in },
            settled: { _ in },
            notify: { [weak self] key in self?.notifyMember(key) },
            outcomes: outcomes,
            subject: { key, member in Self.split(key).map { .listMembership(list: $0.0, account: $0.1, member: member) } }
        )
        userLists = OrderedServerList(
            activity: activity, retryClock: retryClock, isLocal: { $0.hasPrefix(UserList.provisionalPrefix) }, id: \.id,
            send: { id, request in
                guard let list = request.value else {
                    try await service.deleteList(id)
                    return nil
                }
                guard list.isProvisional else { return try await service.renameList(id, to: list.title) }
                do {
                    return try await service.createList(title: list.title)
                } catch {
                    // Not sent again by itself: a lost answer may have made the list.
                    throw FeedFailure(message: FeedFailure(error).message, isTransient: false)
                }
            },
            outcomes: outcomes,
            outcome: { id, report, before in
                // A list made: the server's list has its own id, so it is not the value asked, yet done.
                if case .notApplied(let asked?, now: let made?) = report, asked.isProvisional, !made.isProvisional {
                    return Outcome.done(.list(id, title: made.title, was: nil))
                }
                return report.outcome { .list(id, title: $0?.title, was: before?.confirmed?.title) }
            },
            answered: { [weak self] answer in self?.answered(answer) }
        )
    }

    // MARK: - Reading

    /// Every list as shown now, in order (the server's, then lists made since).
    package var lists: [UserListRow] {
        userLists.order.compactMap { list($0) }
    }

    /// Whether a fetch of the lists has told the store what they are.
    package var isLoaded: Bool { loaded }

    /// The list with this id as shown, or `nil`.
    package func list(_ id: String) -> UserListRow? {
        guard let change = changes[id], let list = change.wanted else { return nil }
        // The last refusal, on the row.
        let failure = change.refusal.map { refusal in
            guard let renamed = refusal.wanted else { return "Could not delete the list \(list.title): \(refusal.message)" }
            return "Could not rename the list \(change.confirmed?.title ?? list.title) to \(renamed.title): \(refusal.message)"
        }
        return UserListRow(list: list, pending: change.isPending, failure: failure, shownAs: shownAs[id])
    }

    /// The list whose title is `title` (exactly, or else in any case), or `nil`.
    package func list(named title: String) -> UserListRow? {
        let rows = lists
        if let exact = rows.first(where: { $0.title == title }) { return exact }
        if let folded = rows.first(where: { $0.title.lowercased() == title.lowercased() }) { return folded }
        return nil
    }

    /// The title of the list with this id as shown, when the store knows it.
    package func title(of id: String) -> String? { list(id)?.title }

    /// Whether `account` is on the list as shown, or `nil` when nothing told the store.
    package func membership(list: String, account: AccountID) -> ToggleDisplay? {
        members?.state(Self.key(list, account))
    }

    /// Who the account is, as a page of a list's accounts or a membership change said.
    package func profile(_ account: AccountID) -> Profile? { profiles[account] }

    /// Calls `handler` on the main actor after every change of the lists, in order. Lasts as
    /// long as the token.
    package func observe(_ handler: @escaping @MainActor @Sendable (UserListsChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Calls `handler` on the main actor after every change of a membership, in order.
    package func observeMembers(_ handler: @escaping @MainActor @Sendable (ListMembershipChange) -> Void) -> Subscription {
        memberObservers.add(handler)
    }

    /// Whether a change waits to be sent again (the server could not be reached).
    package var hasFailures: Bool { (members?.hasFailures ?? false) || changes.hasDeferred }

    /// Every change the server has not confirmed, as sentences ("create the list Birders",
    /// "add @kemi to the list Birders"): the lists' in the order asked, then the memberships.
    package var unsent: [String] {
        var sentences: [String] = []
        for id in changes.unsent {
            guard let change = changes[id] else { continue }
            switch (change.confirmed, change.wanted) {
            case (nil, let made?): sentences.append("create the list \(made.title)")
            case (let list?, nil): sentences.append("delete the list \(list.title)")
            case (let list?, let renamed?): sentences.append("rename the list \(list.title) to \(renamed.title)")
            case (nil, nil): break
            }
        }
        for (key, value) in members?.unsent ?? [] { sentences.append(describeMembership(key, value)) }
        return sentences
    }

    /// Returns once no change is in flight (at once when none is), or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        async let toggles: Void = { await self.members?.waitForRequests(atMost: limit) }()
        await changes.waitForRequests(atMost: limit)
        await toggles
    }

    /// How many list changes (not memberships) are in flight. For tests.
    package var operationsInFlight: Int { changes.requestsInFlight.count }

    /// The membership requests in flight, as (key, value). For tests.
    package var membershipRequestsInFlight: [(String, Bool)] { members?.requestsInFlight ?? [] }

    // MARK: - Input: the lists

    /// Marks the start of a fetch of the lists or a list's accounts; pass its answer to
    /// ``ingest(_:fetchedAt:)`` or ``ingestMembers(list:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        _ = members?.beginFetch()
        return changes.beginFetch()
    }

    /// Records the lists a fetch begun at `fetchedAt` brought (all of them, in the server's
    /// order): lists learnt before it began and missing from it are gone; what was learnt
    /// since (a list made, renamed or deleted meanwhile) stands.
    package func ingest(_ fetched: [UserList], fetchedAt: StoreEpoch) {
        let before = lists
        let wasLoaded = loaded
        loaded = true
        userLists.ingest(fetched.filter { !$0.isProvisional }.map { ($0.id, $0) }, fetchedAt: fetchedAt)
        if lists != before || !wasLoaded { notify() }
    }

    /// Makes a list titled `title` (trimmed): shown at once with a provisional id, replaced by
    /// the server's list. Returns the provisional list.
    @discardableResult
    package func create(title: String) throws(UserListProblem) -> UserList {
        let title = Self.trimmed(title)
        guard !title.isEmpty else { throw .emptyTitle }
        if let shown = list(named: title) { throw .duplicate(shown.title) }
        nextProvisional += 1
        let list = UserList(id: UserList.provisionalPrefix + String(nextProvisional), title: title)
        userLists.create(list, as: list.id)
        notify()
        return list
    }

    /// Renames the list `id` to `title` (trimmed): shown at once; rolled back with the reason
    /// on refusal. Returns `false` when it shows that title already (nothing to do).
    @discardableResult
    package func rename(_ id: String, to title: String) throws(UserListProblem) -> Bool {
        let title = Self.trimmed(title)
        guard let shown = list(id) else { throw .unknown(id) }
        guard !shown.list.isProvisional else { throw .provisional(shown.title) }
        guard !title.isEmpty else { throw .emptyTitle }
        if shown.title == title { return false }
        if let other = list(named: title), other.id != id, other.title.lowercased() == title.lowercased() { throw .duplicate(other.title) }
        var renamed = shown.list
        renamed.title = title
        change(id, to: renamed)
        return true
    }

    /// Deletes the list `id`: off every lists screen at once; back where it was on refusal.
    package func delete(_ id: String) throws(UserListProblem) {
        guard let shown = list(id) else { throw .unknown(id) }
        guard !shown.list.isProvisional else { throw .provisional(shown.title) }
        change(id, to: nil)
    }

    /// Wants `list` for the list `id`: shown at once, then told.
    private func change(_ id: String, to list: UserList?) {
        userLists.want(list, for: id)
        notify()
    }

    /// Loads the lists when no screen has (for a front that names a list before showing them):
    /// observers hear the lists once they came, or ``loadFailure`` says why not. Nothing
    /// happens while a load runs.
    package func load() {
        guard fetching == nil else { return }
        nextToken += 1
        fetching = nextToken
        fetches?.react(to: [nextToken])
    }

    private func fetched(_ answer: Result<[UserList], FeedFailure>, fetchedAt: StoreEpoch) {
        fetching = nil
        fetches?.react(to: [])
        switch answer {
        case .success(let lists):
            loadFailure = nil
            ingest(lists, fetchedAt: fetchedAt)
        case .failure(let failure):
            loadFailure = failure.message
            notify()
        }
    }

    // MARK: - Input: memberships

    /// Records the accounts a fetch begun at `fetchedAt` found on the list `list`.
    package func ingestMembers(list: String, _ accounts: [Profile], fetchedAt: StoreEpoch) {
        for profile in accounts {
            profiles[profile.accountID] = profile
            members?.ingest(Self.key(list, profile.accountID), true, fetchedAt: fetchedAt)
        }
    }

    /// Adds (`true`) or removes the account `profile` names to or from the list `list`:
    /// optimistic, converging, on every screen of the list's accounts at once. A list the store
    /// has not learnt of (no lists screen loaded yet) is the server's to know.
    package func setMembership(list: String, account profile: Profile, _ value: Bool) throws(UserListProblem) {
        if let shown = self.list(list), shown.list.isProvisional { throw .provisional(shown.title) }
        if list.hasPrefix(UserList.provisionalPrefix) { throw .unknown(list) }
        profiles[profile.accountID] = profile
        members?.set(Self.key(list, profile.accountID), value)
    }

    /// Wants again every membership change that rolled back, and sends every deferred one.
    @discardableResult
    package func retryFailed() -> Bool {
        let memberships = members?.retryFailed() ?? false
        let lists = changes.retry()
        return memberships || lists
    }

    // MARK: - Answers

    /// An answer changed a list: one the server made in its provisional one's place keeps
    /// showing it (its rows keep the provisional id). (What the person hears of it leaves from
    /// the engine as an ``Outcome``, ``Outcome/Subject/list(_:title:was:)``.)
    private func answered(_ answer: OrderedServerList<UserList>.Answer) {
        if let made = answer.made, made.tookPlace { shownAs[made.value.id] = answer.key }
        notify()
    }

    private func notify() {
        observers.notify(UserListsChange(lists: lists))
    }

    private func notifyMember(_ key: String) {
        guard let (list, account) = Self.split(key), let display = membership(list: list, account: account) else { return }
        memberObservers.notify(ListMembershipChange(list: list, account: account, display: display))
    }

    private func confirmedTitle(_ id: String) -> String? {
        changes[id]?.confirmed?.title
    }

    private func describeMembership(_ key: String, _ value: Bool) -> String {
        guard let (list, account) = Self.split(key) else { return value ? "add the account" : "remove the account" }
        let who = profiles[account].map { "@\($0.author.handle)" } ?? "account \(account)"
        let title = self.list(list)?.title ?? confirmedTitle(list) ?? list
        return value ? "add \(who) to the list \(title)" : "remove \(who) from the list \(title)"
    }

    // MARK: - Keys

    nonisolated private static let separator: Character = "\u{1F}"

    nonisolated package static func key(_ list: String, _ account: AccountID) -> String {
        list + String(separator) + account.rawValue
    }

    nonisolated package static func split(_ key: String) -> (String, AccountID)? {
        guard let index = key.firstIndex(of: separator) else { return nil }
        return (String(key[..<index]), AccountID(String(key[key.index(after: index)...])))
    }

    nonisolated package static func trimmed(_ title: String) -> String {
        title.trimmingBlanks(newlines: true)
    }
}
