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
///   with the reason on the row.
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
        /// The list as the server last confirmed it.
        var confirmed: UserList
        /// The title wanted while a rename waits.
        var wanted: String?
        var renaming: Operation?
        var failure: String?
        var knownSince: StoreEpoch
        /// The provisional id a list made here was first shown with (its rows keep it).
        var shownAs: String?

        var row: UserListRow {
            var list = confirmed
            if let wanted { list.title = wanted }
            return UserListRow(list: list, pending: renaming != nil || confirmed.isProvisional, failure: failure, shownAs: shownAs)
        }
    }

    private enum Operation: Hashable, Sendable {
        case create(token: Int, provisional: String, title: String)
        case rename(token: Int, id: String, title: String)
        case delete(token: Int, id: String)

        /// When it was asked: tokens only grow.
        var token: Int {
            switch self {
            case .create(let token, _, _), .rename(let token, _, _), .delete(let token, _): token
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
    private var epoch: StoreEpoch = 0
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
                    case .rename(_, let id, let title): return .made(operation, try await service.renameList(id, to: title))
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
    }

    // MARK: - Reading

    /// Every list as shown now, in order (the server's, then lists made since).
    public var lists: [UserListRow] {
        order.compactMap { entries[$0]?.row }
    }

    /// Whether a fetch of the lists has told the store what they are.
    public var isLoaded: Bool { loaded }

    /// The list with this id as shown, or `nil`.
    public func list(_ id: String) -> UserListRow? { entries[id]?.row }

    /// The list whose title is `title` (exactly, or else in any case), or `nil`.
    public func list(named title: String) -> UserListRow? {
        let rows = lists
        if let exact = rows.first(where: { $0.title == title }) { return exact }
        if let folded = rows.first(where: { $0.title.lowercased() == title.lowercased() }) { return folded }
        return nil
    }

    /// The title of the list with this id as shown, when the store knows it.
    public func title(of id: String) -> String? { entries[id]?.row.title }

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
    public var hasFailures: Bool { members?.hasFailures ?? false }

    /// Every change the server has not confirmed, as sentences ("create the list Birders",
    /// "add @kemi to the list Birders").
    public var unsent: [String] {
        var sentences: [String] = []
        for operation in pendingOperations {
            switch operation {
            case .create(_, _, let title): sentences.append("create the list \(title)")
            case .rename(_, let id, let title): sentences.append("rename the list \(confirmedTitle(id) ?? id) to \(title)")
            case .delete(_, let id): sentences.append("delete the list \(confirmedTitle(id) ?? id)")
            }
        }
        for (key, value) in members?.unsent ?? [] { sentences.append(describeMembership(key, value)) }
        return sentences
    }

    /// Returns once no change is in flight (at once when none is), or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        async let toggles: Void = { await self.members?.waitForRequests(atMost: limit) }()
        if !pendingOperations.isEmpty { await waiters.wait(atMost: limit, on: retryClock) }
        await toggles
    }

    /// How many list changes (not memberships) are in flight. For tests.
    package var operationsInFlight: Int { operations?.requests.count ?? 0 }

    /// The membership requests in flight, as (key, value). For tests.
    package var membershipRequestsInFlight: [(String, Bool)] { members?.requestsInFlight ?? [] }

    // MARK: - Input: the lists

    /// Marks the start of a fetch of the lists or a list's accounts; pass its answer to
    /// ``ingest(_:fetchedAt:)`` or ``ingestMembers(list:_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        _ = members?.beginFetch()
        return epoch
    }

    /// Records the lists a fetch begun at `fetchedAt` brought (all of them, in the server's
    /// order): lists learnt before it began and missing from it are gone; what was learnt
    /// since (a list made, renamed or deleted meanwhile) stands.
    package func ingest(_ fetched: [UserList], fetchedAt: StoreEpoch) {
        let before = lists
        let wasLoaded = loaded
        loaded = true
        var fetchedOrder: [String] = []
        for list in fetched where !list.isProvisional {
            if let deletedAt = gone[list.id], deletedAt >= fetchedAt { continue }
            if var stashed = deleting[list.id] {
                if stashed.entry.renaming == nil, stashed.entry.knownSince < fetchedAt { stashed.entry.confirmed = list }
                deleting[list.id] = stashed
                continue
            }
            if var entry = entries[list.id] {
                if entry.knownSince < fetchedAt, entry.renaming == nil {
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
            if entry.confirmed.isProvisional || entry.knownSince >= fetchedAt || entry.renaming != nil {
                kept.append(id)
            } else {
                entries[id] = nil
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
        epoch += 1
        entries[id] = Entry(confirmed: list, knownSince: epoch)
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
        guard var entry = entries[id] else { throw .unknown(id) }
        guard !entry.confirmed.isProvisional else { throw .provisional(entry.row.title) }
        guard !title.isEmpty else { throw .emptyTitle }
        if entry.row.title == title { return false }
        if let other = list(named: title), other.id != id, other.title.lowercased() == title.lowercased() { throw .duplicate(other.title) }
        entry.failure = nil
        entry.wanted = title == entry.confirmed.title && entry.renaming == nil ? nil : title
        if entry.renaming == nil, entry.wanted != nil {
            nextToken += 1
            entry.renaming = .rename(token: nextToken, id: id, title: title)
        }
        entries[id] = entry
        notify(nil)
        match()
        return true
    }

    /// Deletes the list `id`: off every lists screen at once; back where it was on refusal.
    package func delete(_ id: String) throws(UserListProblem) {
        guard let entry = entries[id], let index = order.firstIndex(of: id) else { throw .unknown(id) }
        guard !entry.confirmed.isProvisional else { throw .provisional(entry.row.title) }
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
        if let entry = entries[list], entry.confirmed.isProvisional { throw .provisional(entry.row.title) }
        if list.hasPrefix(UserList.provisionalPrefix) { throw .unknown(list) }
        profiles[profile.accountID] = profile
        members?.set(Self.key(list, profile.accountID), value)
    }

    /// Wants again every membership change that rolled back, and sends every deferred one.
    @discardableResult
    package func retryFailed() -> Bool {
        members?.retryFailed() ?? false
    }

    // MARK: - Effects

    /// Every list change on its way, in the order they were asked (by token): what `unsent`
    /// says is the same every run.
    private var pendingOperations: [Operation] {
        (Array(creating.values) + entries.values.compactMap(\.renaming) + deleting.values.flatMap { [$0.operation] + ($0.entry.renaming.map { [$0] } ?? []) })
            .sorted { $0.token < $1.token }
    }

    private func match() {
        operations?.react(to: pendingOperations)
        if !waiters.isEmpty, pendingOperations.isEmpty { waiters.resumeAll() }
    }

    private func settle(_ reply: Reply) {
        epoch += 1
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
        case .made(let operation, let made?):
            guard case .rename(_, let id, let title) = operation else { break }
            outcome = renamed(id, operation: operation, sent: title, made: made)
        case .failed(let operation, let failure):
            switch operation {
            case .rename(_, let id, _): outcome = renameFailed(id, operation: operation, failure: failure)
            case .delete(_, let id):
                guard let stashed = deleting.removeValue(forKey: id) else { break }
                var entry = stashed.entry
                entry.knownSince = epoch
                entries[id] = entry
                order.insert(id, at: min(stashed.index, order.count))
                outcome = UserListOutcome(kind: .deleted, list: entry.row.list, failure: failure.message)
            case .create: break
            }
        case .made(.delete(_, let id), nil):
            guard let stashed = deleting.removeValue(forKey: id) else { break }
            gone[id] = epoch
            outcome = UserListOutcome(kind: .deleted, list: stashed.entry.row.list)
        case .made:
            break
        }
        notify(outcome)
        match()
    }

    /// The server renamed the list: it is confirmed; a rename asked meanwhile is sent now —
    /// also while the list's delete waits (should the delete be refused, the list comes back
    /// with the title last asked for).
    private func renamed(_ id: String, operation: Operation, sent: String, made: UserList) -> UserListOutcome? {
        func confirm(_ entry: inout Entry) -> Bool {
            entry.confirmed = made
            entry.knownSince = epoch
            entry.renaming = nil
            if let wanted = entry.wanted, wanted != sent, wanted != made.title {
                nextToken += 1
                entry.renaming = .rename(token: nextToken, id: id, title: wanted)
                return false
            }
            entry.wanted = nil
            return true
        }
        if var stashed = deleting[id], stashed.entry.renaming == operation {
            let done = confirm(&stashed.entry)
            deleting[id] = stashed
            return done ? UserListOutcome(kind: .renamed, list: made) : nil
        }
        guard var entry = entries[id], entry.renaming == operation else { return nil }
        let done = confirm(&entry)
        entries[id] = entry
        return done ? UserListOutcome(kind: .renamed, list: made) : nil
    }

    /// The server refused a rename: the confirmed title is back, with the reason.
    /// (A list whose delete waits keeps the refusal too: should the delete be refused, it
    /// comes back saying why its title is the old one.)
    private func renameFailed(_ id: String, operation: Operation, failure: FeedFailure) -> UserListOutcome? {
        guard case .rename(_, _, let title) = operation else { return nil }
        func refused(_ entry: inout Entry) -> UserListOutcome? {
            entry.renaming = nil
            // A later rename asked while this one was on its way is still wanted: it goes next.
            if let wanted = entry.wanted, wanted != title, wanted != entry.confirmed.title {
                nextToken += 1
                entry.renaming = .rename(token: nextToken, id: id, title: wanted)
                return nil
            }
            entry.wanted = nil
            entry.failure = "Could not rename the list \(entry.confirmed.title) to \(title): \(failure.message)"
            return UserListOutcome(kind: .renamed, list: UserList(id: id, title: title), failure: failure.message)
        }
        if var stashed = deleting[id], stashed.entry.renaming == operation {
            let outcome = refused(&stashed.entry)
            deleting[id] = stashed
            return outcome
        }
        guard var entry = entries[id], entry.renaming == operation else { return nil }
        let outcome = refused(&entry)
        entries[id] = entry
        return outcome
    }

    private func notify(_ outcome: UserListOutcome?) {
        observers.notify(UserListsChange(lists: lists, outcome: outcome))
    }

    private func notifyMember(_ key: String) {
        guard let (list, account) = Self.split(key), let display = membership(list: list, account: account) else { return }
        memberObservers.notify(ListMembershipChange(list: list, account: account, display: display))
    }

    private func confirmedTitle(_ id: String) -> String? {
        entries[id]?.confirmed.title ?? deleting[id]?.entry.confirmed.title
    }

    private func describeMembership(_ key: String, _ value: Bool) -> String {
        guard let (list, account) = Self.split(key) else { return value ? "add the account" : "remove the account" }
        let who = profiles[account].map { "@\($0.author.handle)" } ?? "account \(account)"
        let title = entries[list]?.row.title ?? deleting[list]?.entry.confirmed.title ?? list
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
