import Foundation

/// Why the store would not start a change of the lists (nothing happened), with a sentence.
public enum UserListProblem: Error, Hashable, Sendable {
    /// A list's title is empty (or only spaces).
    case emptyTitle
    /// Another list shows this title already (lists are named by title, so titles stay unique).
    case duplicate(String)
    /// No list has this id.
    case unknown(String)
    /// The list waits for the server to make it: nothing can be done with it yet.
    case provisional(String)

    public var message: String {
        switch self {
        case .emptyTitle: "A list needs a name."
        case .duplicate(let title): "You have a list named \(title) already."
        case .unknown(let id): "There is no list \(id)."
        case .provisional(let title): "The list \(title) is still being made; try again when it is."
        }
    }
}

/// The signed-in user's lists and who is on them, as every screen shows them: the lists screen,
/// a list's timeline (its title), the screens of a list's accounts.
///
/// - Create shows the list at once with a provisional id (``UserList/isProvisional``); the
///   server's list replaces it where it stands, a refusal removes it and says why.
/// - Rename shows the new title at once; one request per list in flight (a rename meanwhile
///   waits for the answer and is sent after it); a refusal brings the confirmed title back,
///   with the reason on the row; a lost connection keeps the title and sends it again after a
///   backoff. Each list's title is a `PendingChange` run by the convergence engine.
/// - Delete takes the list off at once; a refusal puts it back where it was.
/// - Membership (add or remove an account) is one optimistic toggle per (list, account) —
///   `KeyedToggles`: one request per key in flight, re-sent after a lost connection, rolled
///   back with the reason on refusal.
/// - Fetches take an epoch (`beginFetch()`): what was learnt after a fetch began is not
///   undone by it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
public final class UserListStore {
    private struct Entry {
        /// The list as the server last confirmed it (its title: see ``titles`` once renamed).
        var confirmed: UserList
        var knownSince: StoreEpoch
        /// The provisional id a list made here was first shown with (its rows keep it).
        var shownAs: String?
    }

    private enum Operation: Hashable, Sendable {
        case create(token: Int, provisional: String, title: String)
        case delete(token: Int, id: String)

        /// When it was asked: tokens only grow.
        var token: Int {
            switch self {
            case .create(let token, _, _), .delete(let token, _): token
            }
        }
    }

    private enum Reply: Sendable {
        case made(Operation, UserList?)
        case failed(Operation, FeedFailure)
    }

    private let observers = HandlerList<UserListsChange>()
    private let memberObservers = HandlerList<ListMembershipChange>()
    private var order: [String] = []
    private var entries: [String: Entry] = [:]
    /// Lists taken off while their deletion waits: as they were, and where.
    private var deleting: [String: (entry: Entry, index: Int, operation: Operation)] = [:]
    private var creating: [String: Operation] = [:]
    /// Lists whose delete the server confirmed, with the epoch it did: a fetch begun before
    /// that does not bring them back.
    private var gone: [String: StoreEpoch] = [:]
    /// The title of each list renamed here: shown at once, one rename per list in flight,
    /// rolled back with the server's sentence (set at the end of `init`, so its handlers can
    /// hold the store weakly). Its epoch is the store's.
    private var titles: Convergence<String, PendingChange<String>>!
    /// What the last answer to a rename did, for the change the engine tells next.
    private var renameOutcome: UserListOutcome?
    /// Set while the store changes titles itself and tells the observers once, after.
    private var quiet = false
    private var nextToken = 0
    private var nextProvisional = 0
    private var loaded = false
    private var operations: Feedback<Operation, Reply>?
    /// A fetch of the lists asked by `load()`, by token; its answer and the epoch it began at.
    private var fetches: Feedback<Int, (Result<[UserList], FeedFailure>, StoreEpoch)>?
    private var fetching: Int?
    /// Why the last `load()` failed, until the lists load.
    public private(set) var loadFailure: String?
    private var members: KeyedToggles?
    /// Who each account is, for the rows of a list's accounts that a membership brings back.
    private var profiles: [AccountID: Profile] = [:]
    private let waiters = DeadlineWaiters()
    private let retryClock: any Clock<Duration>

    /// A store that sends changes of lists to `service`, counted in `activity`, and re-sends
    /// membership changes that failed for lack of a connection on `retryClock`.
    package init(service: any FeedService, activity: Activity, retryClock: any Clock<Duration>) {
        self.retryClock = retryClock
        operations = Feedback(
            activity: activity,
            effect: { operation in
                do {
                    switch operation {
                    case .create(_, _, let title): return .made(operation, try await service.createList(title: title))
                    case .delete(_, let id):
                        try await service.deleteList(id)
                        return .made(operation, nil)
                    }
                } catch {
                    return .failed(operation, FeedFailure(error))
                }
            },
            handle: { [weak self] reply in self?.settle(reply) }
        )
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
            notify: { [weak self] key in self?.notifyMember(key) }
        )
        titles = Convergence(
            activity: activity, retryClock: retryClock, send: { id, request in try await service.renameList(id, to: request.value).title },
            changed: { [weak self] id, _, after in self?.titleChanged(id, after) },
            report: { [weak self] id, outcome in self?.renameAnswered(id, outcome) }
        )
    }

    // MARK: - Reading

    /// Every list as shown now, in order (the server's, then lists made since).
    public var lists: [UserListRow] {
        order.compactMap { id in entries[id].map { row(id, $0) } }
    }

    /// Whether a fetch of the lists has told the store what they are.
    public var isLoaded: Bool { loaded }

    /// The list with this id as shown, or `nil`.
    public func list(_ id: String) -> UserListRow? { entries[id].map { row(id, $0) } }

    /// The list whose title is `title` (exactly, or else in any case), or `nil`.
    public func list(named title: String) -> UserListRow? {
        let rows = lists
        if let exact = rows.first(where: { $0.title == title }) { return exact }
        if let folded = rows.first(where: { $0.title.lowercased() == title.lowercased() }) { return folded }
        return nil
    }

    /// The title of the list with this id as shown, when the store knows it.
    public func title(of id: String) -> String? { list(id)?.title }

    /// Whether `account` is on the list as shown, or `nil` when nothing told the store.
    public func membership(list: String, account: AccountID) -> ListMembershipDisplay? {
        members?.state(Self.key(list, account)).map { ListMembershipDisplay(member: $0.isOn, pending: $0.pending, failure: $0.failure) }
    }

    /// Who the account is, as a page of a list's accounts or a membership change said.
    public func profile(_ account: AccountID) -> Profile? { profiles[account] }

    /// Calls `handler` on the main actor after every change of the lists, in order. Lasts as
    /// long as the token.
    public func observe(_ handler: @escaping @MainActor @Sendable (UserListsChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Calls `handler` on the main actor after every change of a membership, in order.
    public func observeMembers(_ handler: @escaping @MainActor @Sendable (ListMembershipChange) -> Void) -> Subscription {
        memberObservers.add(handler)
    }

    /// Whether a membership change failed and was not retried, or waits to be sent again.
    public var hasFailures: Bool { (members?.hasFailures ?? false) || titles.hasDeferred }

    /// Every change the server has not confirmed, as sentences ("create the list Birders",
    /// "add @kemi to the list Birders").
    public var unsent: [String] {
        var sentences: [String] = []
        for operation in pendingOperations {
            switch operation {
            case .create(_, _, let title): sentences.append("create the list \(title)")
            case .delete(_, let id): sentences.append("delete the list \(confirmedTitle(id) ?? id)")
            }
        }
        for id in titles.unsent {
            if let title = titles[id] { sentences.append("rename the list \(title.confirmed) to \(title.wanted)") }
        }
        for (key, value) in members?.unsent ?? [] { sentences.append(describeMembership(key, value)) }
        return sentences
    }

    /// Returns once no change is in flight (at once when none is), or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        async let toggles: Void = { await self.members?.waitForRequests(atMost: limit) }()
        async let renames: Void = { await self.titles.waitForRequests(atMost: limit) }()
        if !pendingOperations.isEmpty { await waiters.wait(atMost: limit, on: retryClock) }
        await toggles
        await renames
    }

    /// How many list changes (not memberships) are in flight. For tests.
    package var operationsInFlight: Int { (operations?.requests.count ?? 0) + titles.requestsInFlight.count }

    /// The membership requests in flight, as (key, value). For tests.
    package var membershipRequestsInFlight: [(String, Bool)] { members?.requestsInFlight ?? [] }

    // MARK: - Input: the lists

    /// Marks the start of a fetch of the lists or a list's accounts; pass its answer to
    /// ``ingest(_:fetchedAt:)`` or ``ingestMembers(list:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        _ = members?.beginFetch()
        return titles.beginFetch()
    }

    /// Records the lists a fetch begun at `fetchedAt` brought (all of them, in the server's
    /// order): lists learnt before it began and missing from it are gone; what was learnt
    /// since (a list made, renamed or deleted meanwhile) stands.
    package func ingest(_ fetched: [UserList], fetchedAt: StoreEpoch) {
        let before = lists
        let wasLoaded = loaded
        loaded = true
        quiet = true
        defer { quiet = false }
        var fetchedOrder: [String] = []
        for list in fetched where !list.isProvisional {
            if let deletedAt = gone[list.id], deletedAt >= fetchedAt { continue }
            titles.update(list.id) { title, _ in title.receive(list.title, fetchedAt: fetchedAt).map { [$0] } ?? [] }
            let renaming = titles[list.id]?.isPending == true
            if var stashed = deleting[list.id] {
                if !renaming, stashed.entry.knownSince < fetchedAt { stashed.entry.confirmed = list }
                deleting[list.id] = stashed
                continue
            }
            if var entry = entries[list.id] {
                if entry.knownSince < fetchedAt, !renaming {
                    entry.confirmed = list
                    entry.knownSince = fetchedAt
                }
                entries[list.id] = entry
                fetchedOrder.append(list.id)
            } else if !fetchedOrder.contains(list.id) {
                entries[list.id] = Entry(confirmed: list, knownSince: fetchedAt)
                fetchedOrder.append(list.id)
            }
        }
        let fetchedIDs = Set(fetchedOrder)
        var kept: [String] = []
        for id in order where !fetchedIDs.contains(id) {
            guard let entry = entries[id] else { continue }
            // Made or learnt since the fetch began, or waiting: it stands; otherwise it is gone.
            if entry.confirmed.isProvisional || entry.knownSince >= fetchedAt || titles[id]?.isPending == true {
                kept.append(id)
            } else {
                entries[id] = nil
                titles.forget(id)
            }
        }
        order = fetchedOrder + kept
        if lists != before || !wasLoaded { notify(nil) }
    }

    /// Makes a list titled `title` (trimmed): shown at once with a provisional id, replaced by
    /// the server's list. Returns the provisional list.
    @discardableResult
    package func create(title: String) throws(UserListProblem) -> UserList {
        let title = Self.trimmed(title)
        guard !title.isEmpty else { throw .emptyTitle }
        if let shown = list(named: title) { throw .duplicate(shown.title) }
        nextProvisional += 1
        nextToken += 1
        let id = UserList.provisionalPrefix + String(nextProvisional)
        let list = UserList(id: id, title: title)
        entries[id] = Entry(confirmed: list, knownSince: titles.beginFetch())
        order.append(id)
        creating[id] = .create(token: nextToken, provisional: id, title: title)
        notify(nil)
        match()
        return list
    }

    /// Renames the list `id` to `title` (trimmed): shown at once; rolled back with the reason
    /// on refusal. Returns `false` when it shows that title already (nothing to do).
    @discardableResult
    package func rename(_ id: String, to title: String) throws(UserListProblem) -> Bool {
        let title = Self.trimmed(title)
        guard let entry = entries[id] else { throw .unknown(id) }
        guard !entry.confirmed.isProvisional else { throw .provisional(row(id, entry).title) }
        guard !title.isEmpty else { throw .emptyTitle }
        if row(id, entry).title == title { return false }
        if let other = list(named: title), other.id != id, other.title.lowercased() == title.lowercased() { throw .duplicate(other.title) }
        quiet = true
        titles.update(id, orMake: { PendingChange(confirmed: entry.confirmed.title, knownSince: entry.knownSince) }) { change, epoch in
            change.want(title, at: epoch)
            return []
        }
        quiet = false
        notify(nil)
        return true
    }

    /// Deletes the list `id`: off every lists screen at once; back where it was on refusal.
    package func delete(_ id: String) throws(UserListProblem) {
        guard let entry = entries[id], let index = order.firstIndex(of: id) else { throw .unknown(id) }
        guard !entry.confirmed.isProvisional else { throw .provisional(row(id, entry).title) }
        nextToken += 1
        order.remove(at: index)
        entries[id] = nil
        deleting[id] = (entry, index, .delete(token: nextToken, id: id))
        notify(nil)
        match()
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
            notify(nil)
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
        if let entry = entries[list], entry.confirmed.isProvisional { throw .provisional(row(list, entry).title) }
        if list.hasPrefix(UserList.provisionalPrefix) { throw .unknown(list) }
        profiles[profile.accountID] = profile
        members?.set(Self.key(list, profile.accountID), value)
    }

    /// Wants again every membership change that rolled back, and sends every deferred one.
    @discardableResult
    package func retryFailed() -> Bool {
        let memberships = members?.retryFailed() ?? false
        let renames = titles.retry()
        return memberships || renames
    }

    // MARK: - Effects

    /// Every list change on its way, in the order they were asked (by token): what `unsent`
    /// says is the same every run.
    private var pendingOperations: [Operation] {
        (Array(creating.values) + deleting.values.map(\.operation)).sorted { $0.token < $1.token }
    }

    private func match() {
        operations?.react(to: pendingOperations)
        if !waiters.isEmpty, pendingOperations.isEmpty { waiters.resumeAll() }
    }

    private func settle(_ reply: Reply) {
        let epoch = titles.beginFetch()
        var outcome: UserListOutcome?
        switch reply {
        case .made(.create(_, let provisional, _), let made?):
            guard let index = order.firstIndex(of: provisional) else { break }
            creating[provisional] = nil
            entries[provisional] = nil
            if order.contains(made.id) {
                // A fetch brought it first: it shows as the server's already.
                order.remove(at: index)
                entries[made.id]?.confirmed = made
                entries[made.id]?.knownSince = epoch
            } else {
                order[index] = made.id
                entries[made.id] = Entry(confirmed: made, knownSince: epoch, shownAs: provisional)
            }
            outcome = UserListOutcome(kind: .created, list: made, provisionalID: provisional)
        case .failed(.create(_, let provisional, let title), let failure):
            creating[provisional] = nil
            entries[provisional] = nil
            order.removeAll { $0 == provisional }
            outcome = UserListOutcome(kind: .created, list: UserList(id: provisional, title: title), failure: failure.message, provisionalID: provisional)
        case .failed(.delete(_, let id), let failure):
            guard let stashed = deleting.removeValue(forKey: id) else { break }
            var entry = stashed.entry
            entry.knownSince = epoch
            entries[id] = entry
            order.insert(id, at: min(stashed.index, order.count))
            outcome = UserListOutcome(kind: .deleted, list: row(id, entry).list, failure: failure.message)
        case .made(.delete(_, let id), _):
            guard let stashed = deleting.removeValue(forKey: id) else { break }
            gone[id] = epoch
            outcome = UserListOutcome(kind: .deleted, list: row(id, stashed.entry).list)
            titles.forget(id)
        case .made(.create, nil):
            break
        }
        notify(outcome)
        match()
    }

    /// The list `id` as shown: its title as wanted, pending while a change of it waits, and the
    /// last refusal of a rename.
    private func row(_ id: String, _ entry: Entry) -> UserListRow {
        var list = entry.confirmed
        let title = titles[id]
        if let title { list.title = title.wanted }
        let failure = title?.refusal.map { "Could not rename the list \(title?.confirmed ?? list.title) to \($0.wanted): \($0.message)" }
        return UserListRow(list: list, pending: title?.isPending == true || entry.confirmed.isProvisional, failure: failure, shownAs: entry.shownAs)
    }

    /// What an answer to a rename did, for the person: told with the change that follows.
    private func renameAnswered(_ id: String, _ outcome: ChangeOutcome<String>) {
        // A list deleted meanwhile has nothing to say about its title.
        guard entries[id] != nil || deleting[id] != nil else { return }
        switch outcome {
        case .done(let title), .notApplied(_, now: let title):
            renameOutcome = UserListOutcome(kind: .renamed, list: UserList(id: id, title: title))
        case .refused(let title, let message):
            // A rename asked meanwhile goes next: the refusal was of a title no longer wanted.
            guard titles[id]?.isPending != true else { return }
            renameOutcome = UserListOutcome(kind: .renamed, list: UserList(id: id, title: title), failure: message)
        case .queued:
            break
        }
    }

    /// A list's title changed in the engine: what the server confirmed is the list's, and the
    /// observers hear it (with what the answer did) unless the store tells them itself.
    private func titleChanged(_ id: String, _ title: PendingChange<String>?) {
        let outcome = renameOutcome
        renameOutcome = nil
        guard let title else { return }
        if var entry = entries[id], title.knownSince > entry.knownSince {
            entry.confirmed.title = title.confirmed
            entry.knownSince = title.knownSince
            entries[id] = entry
        } else if var stashed = deleting[id], title.knownSince > stashed.entry.knownSince {
            stashed.entry.confirmed.title = title.confirmed
            stashed.entry.knownSince = title.knownSince
            deleting[id] = stashed
        } else if entries[id] == nil, deleting[id] == nil, !title.isPending {
            // The list is gone: its title with it.
            titles.forget(id)
        }
        if !quiet { notify(outcome) }
    }

    private func notify(_ outcome: UserListOutcome?) {
        observers.notify(UserListsChange(lists: lists, outcome: outcome))
    }

    private func notifyMember(_ key: String) {
        guard let (list, account) = Self.split(key), let display = membership(list: list, account: account) else { return }
        memberObservers.notify(ListMembershipChange(list: list, account: account, display: display))
    }

    private func confirmedTitle(_ id: String) -> String? {
        titles[id]?.confirmed ?? entries[id]?.confirmed.title ?? deleting[id]?.entry.confirmed.title
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
        title.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
