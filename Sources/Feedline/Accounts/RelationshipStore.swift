/// A change of one account's relationship, as every header, row and search result that shows
/// the account must show it.
public struct RelationshipChange: Hashable, Sendable {
    public var accountID: AccountID
    public var display: RelationshipDisplay

    public init(accountID: AccountID, display: RelationshipDisplay) {
        self.accountID = accountID
        self.display = display
    }
}

/// The one source of truth for relationships, shared by every screen of a session: for each
/// account, a `RelationshipState` machine (the toggle machine post interactions use) and the
/// requests it asks for.
///
/// - **One relationship per account**, whatever shows it: a follow from a row three screens deep
///   is the follow every header shows at once (``observe(_:)``).
/// - **Converges as interactions do**: optimistic, at most one request per account and kind in
///   flight, extra taps move only the desired value, a refusal rolls back with a reason, a lost
///   connection re-sends after a backoff on the session's retry clock.
/// - **Lists follow at once**: a mute or block takes the account's posts off every list on the
///   stack, an unfollow off home (`PostStore.hideAccount`), while
///   the server has not answered; a refusal puts them back.
/// - **Freshness**: fetches take an epoch (`beginFetch()`) and report with
///   `ingest(_:fetchedAt:)`; a relationship fetched before the store last learnt a kind does
///   not undo it.
///
/// Main actor only. Changes are delivered synchronously, in the order they happen.
@MainActor
public final class RelationshipStore {
    private struct Request: Hashable, Sendable {
        var accountID: AccountID
        var request: ToggleRequest<RelationshipKind>
        var mute: MuteOptions
    }

    private struct Wait: Hashable, Sendable {
        var accountID: AccountID
        var resend: ToggleResend<RelationshipKind>
    }

    private struct Fetch: Hashable, Sendable {
        var number: Int
        var accounts: [AccountID]
    }

    private enum Fetched: Sendable {
        case loaded(Fetch, [Relationship], fetchedAt: StoreEpoch)
        case failed(Fetch)
    }

    private enum Reply: Sendable {
        case succeeded(Request, Relationship)
        case failed(Request, FeedFailure)
        case elapsed(Wait)
    }

    /// An answer to a follow request on its way: at most one per account.
    private struct Answer: Hashable, Sendable {
        var accountID: AccountID
        var accept: Bool
    }

    private enum Answered: Sendable {
        case succeeded(Answer, Relationship, fetchedAt: StoreEpoch)
        case failed(Answer, FeedFailure)
    }

    private var states: [AccountID: RelationshipState] = [:]
    private var epoch: StoreEpoch = 0
    private let observers = HandlerList<RelationshipChange>()
    private let posts: PostStore
    private var requests: Feedback<Request, Reply>?
    private var waits: Feedback<Wait, Reply>?
    /// Batched fetches of relationships (``load(_:)``), each with the epoch it began at.
    private var fetches: Feedback<Fetch, Fetched>?
    /// Answers to follow requests: the one in flight per account, and where each stands.
    private var answering: Feedback<Answer, Answered>?
    private var answers: [AccountID: FollowRequestAnswer] = [:]
    /// When each answer was taken by the server: a relationship fetched after it that says they
    /// ask again is a new request, and the old answer is forgotten.
    private var answeredAt: [AccountID: StoreEpoch] = [:]
    private var nextFetch = 0
    /// Accounts with a change waiting to be sent again (the server could not be reached): what a
    /// retry acts on. A refusal is not sent again.
    private var retryable: Set<AccountID> = []
    /// Accounts that had an answer while another of their requests ran: that answer may say
    /// what the server was before the other applied (a follow answered after a block it
    /// preceded), so the relationship is fetched again once none runs.
    private var overlapped: Set<AccountID> = []
    /// Callers of ``waitForRequests(atMost:)``.
    private let requestWaiters = DeadlineWaiters()
    private let retryClock: any Clock<Duration>

    /// A store that sends relationship requests to `service`, counted in `activity`, waits on
    /// `retryClock` before sending again what failed for lack of a connection, and takes the
    /// posts of accounts muted, blocked or unfollowed off the lists of `posts`.
    package init(service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>) {
        self.posts = posts
        self.retryClock = retryClock
        requests = Feedback(
            activity: activity,
            effect: { request in
                do {
                    let reply = try await service.setRelationship(
                        request.request.kind, to: request.request.value, of: request.accountID, mute: request.mute
                    )
                    return .succeeded(request, reply)
                } catch {
                    return .failed(request, FeedFailure(error))
                }
            },
            handle: { [weak self] reply in self?.settle(reply) }
        )
        fetches = Feedback(
            activity: activity,
            prepare: { [weak self] _ in self?.beginFetch() ?? 0 },
            effect: { fetch, fetchedAt in
                do {
                    return .loaded(fetch, try await service.relationships(of: fetch.accounts), fetchedAt: fetchedAt)
                } catch {
                    return .failed(fetch)
                }
            },
            handle: { [weak self] fetched in self?.fetched(fetched) }
        )
        answering = Feedback(
            activity: activity,
            prepare: { [weak self] _ in self?.beginFetch() ?? 0 },
            effect: { answer, fetchedAt in
                do {
                    let reply = try await service.answerFollowRequest(from: answer.accountID, accept: answer.accept)
                    return .succeeded(answer, reply, fetchedAt: fetchedAt)
                } catch {
                    return .failed(answer, FeedFailure(error))
                }
            },
            handle: { [weak self] answered in self?.answered(answered) }
        )
        waits = .waits(
            activity: activity, clock: retryClock, delay: { $0.resend.delay }, elapsed: { .elapsed($0) },
            handle: { [weak self] reply in self?.settle(reply) }
        )
    }

    // MARK: - Reading

    /// The relationship with the account as shown now (the values the user wants), or `nil`
    /// when no fetch or change has told the store about it.
    public func relationship(_ id: AccountID) -> RelationshipDisplay? {
        guard var display = states[id]?.display else { return nil }
        display.requestAnswer = answers[id]
        return display
    }

    /// Calls `handler` on the main actor after every change of any account's displayed
    /// relationship, in the order the changes happen. Lasts as long as the returned token.
    public func observe(_ handler: @escaping @MainActor @Sendable (RelationshipChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// Whether any relationship change waits to be sent again.
    public var hasFailures: Bool { !retryable.isEmpty }

    /// The full machine state of an account's relationship. For tests and diagnostics.
    package func state(_ id: AccountID) -> RelationshipState? {
        states[id]
    }

    /// Every change the user asked for that the server has not confirmed — a request in flight
    /// or a re-send waiting — with the value wanted, ordered by account id, then kind. Not kept
    /// between sessions: a front says so when it quits with some left.
    public var unsent: [(account: AccountID, kind: RelationshipKind, value: Bool)] {
        states.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { id -> [(account: AccountID, kind: RelationshipKind, value: Bool)] in
            guard let state = states[id] else { return [] }
            return RelationshipKind.allCases.filter { state[$0].isPending }.map { (id, $0, state[$0].desired) }
        }
    }

    /// Returns once no relationship request is in flight (at once when none is), or when
    /// `limit` has passed on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        guard !(requests?.requests.isEmpty ?? true) || !(answering?.requests.isEmpty ?? true) else { return }
        await requestWaiters.wait(atMost: limit, on: retryClock)
    }

    /// Relationship requests sent since the store was made.
    package var requestsSent: Int { requests?.started ?? 0 }

    /// The requests in flight now, as (account, kind). For tests.
    package var requestsInFlight: [(AccountID, RelationshipKind)] {
        (requests?.requests ?? []).map { ($0.accountID, $0.request.kind) }
    }

    // MARK: - Input

    /// Marks the start of a fetch of relationships; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Fetches the relationships with `accounts` in one call (``FeedService/relationships(of:)``)
    /// and records them. A failed fetch changes nothing (the accounts show no relationship yet).
    package func load(_ accounts: [AccountID]) {
        let wanted = accounts.filter { $0.handle == nil }
        guard !wanted.isEmpty else { return }
        nextFetch += 1
        let running = fetches?.requests ?? []
        fetches?.react(to: running.union([Fetch(number: nextFetch, accounts: wanted)]))
    }

    private func fetched(_ fetched: Fetched) {
        // The loop dropped the finished fetch itself; a failed one leaves the accounts unknown.
        if case .loaded(_, let relationships, let fetchedAt) = fetched { ingest(relationships, fetchedAt: fetchedAt) }
    }

    /// Records relationships fetched by a fetch that started at `fetchedAt`.
    package func ingest(_ relationships: some Sequence<Relationship>, fetchedAt: StoreEpoch) {
        for relationship in relationships {
            epoch += 1
            if relationship.requestedBy, let taken = answeredAt[relationship.accountID], fetchedAt > taken {
                // They asked again since the answer: a new request.
                answers[relationship.accountID] = nil
                answeredAt[relationship.accountID] = nil
            }
            if states[relationship.accountID] == nil {
                let state = RelationshipState(serverCopy: relationship, fetchedAt: fetchedAt)
                states[relationship.accountID] = state
                applyHiding(relationship.accountID, before: nil, after: state)
                notify(relationship.accountID, state)
            } else {
                handle(.copyReceived(relationship, fetchedAt: fetchedAt, at: epoch), relationship.accountID)
            }
        }
    }

    /// Toggles `kind` of the relationship with the account (a mute takes `mute`'s options).
    /// An account the store has not fetched is assumed to have nothing set — the server's answer
    /// tells the truth; fronts load the relationship first (``FeedSession/loadRelationships(_:)``).
    package func toggle(_ kind: RelationshipKind, _ id: AccountID, mute: MuteOptions? = nil) {
        if states[id] == nil { states[id] = RelationshipState(serverCopy: Relationship(accountID: id), fetchedAt: 0) }
        epoch += 1
        handle(.toggled(kind, mute: mute, at: epoch), id)
    }

    /// Sets `kind` to `value`: a toggle when the value shown differs, nothing when it already is.
    /// A kind never learnt from the server is sent whatever it shows (the server's operations
    /// are idempotent: following someone already followed changes nothing), so a relationship
    /// not fetched yet is never assumed.
    package func set(_ kind: RelationshipKind, _ value: Bool, _ id: AccountID, mute: MuteOptions? = nil) {
        var state = states[id] ?? RelationshipState(serverCopy: Relationship(accountID: id), fetchedAt: 0)
        if state[kind].desired == value {
            guard state[kind].knownSince == 0, !state[kind].isPending else { return }
            // Never learnt: taken to be the opposite on the server, so the wish is sent.
            state[kind].confirmed = !value
            state[kind].desired = !value
        }
        states[id] = state
        epoch += 1
        handle(.toggled(kind, mute: mute, at: epoch), id)
    }

    /// Accepts (`accept`) or rejects the follow request of the account: shown at once as on its
    /// way on every screen of the account, then answered (every list of requests drops it, and
    /// the relationship is the server's answer) or refused with a sentence (answering again
    /// sends it again). Returns `false`, sending nothing, while an answer is on its way or once
    /// one was taken.
    @discardableResult
    package func answerRequest(from id: AccountID, accept: Bool) -> Bool {
        if let answer = answers[id], answer.isPending || answer.isAnswered { return false }
        if states[id] == nil { states[id] = RelationshipState(serverCopy: Relationship(accountID: id, requestedBy: true), fetchedAt: 0) }
        answers[id] = FollowRequestAnswer(accept: accept, isPending: true)
        notifyCurrent(id)
        answering?.react(to: (answering?.requests ?? []).union([Answer(accountID: id, accept: accept)]))
        return true
    }

    private func answered(_ answered: Answered) {
        defer {
            if !requestWaiters.isEmpty, requests?.requests.isEmpty ?? true, answering?.requests.isEmpty ?? true { requestWaiters.resumeAll() }
        }
        switch answered {
        case .succeeded(let answer, var relationship, let fetchedAt):
            answers[answer.accountID] = FollowRequestAnswer(accept: answer.accept, isPending: false)
            // A server that does not send `requested_by` answered it all the same.
            relationship.requestedBy = false
            if answer.accept { relationship.followedBy = true }
            relationship.accountID = answer.accountID
            // Told once: by the ingest when the relationship changed, else here.
            let shownBefore = states[answer.accountID]?.display
            ingest([relationship], fetchedAt: fetchedAt)
            if states[answer.accountID]?.display == shownBefore { notifyCurrent(answer.accountID) }
            answeredAt[answer.accountID] = beginFetch()
        case .failed(let answer, let failure):
            let verb = answer.accept ? "accept" : "reject"
            answers[answer.accountID] = FollowRequestAnswer(
                accept: answer.accept, isPending: false, failure: "Could not \(verb) the follow request: \(failure.message)"
            )
            notifyCurrent(answer.accountID)
        }
    }

    /// Sends every deferred change at once (a refusal is not sent again). Returns whether there
    /// was any.
    @discardableResult
    package func retryFailed() -> Bool {
        let ids = retryable.sorted { $0.rawValue < $1.rawValue }
        for id in ids {
            epoch += 1
            handle(.retryRequested(at: epoch), id)
        }
        return !ids.isEmpty
    }

    // MARK: - Effects

    /// Reduces `event`, tells the observers, takes posts off (or back onto) the lists when what
    /// is hidden changed, and makes the requests and waits match what the state asks for.
    private func handle(_ event: RelationshipEvent, _ id: AccountID) {
        guard var state = states[id] else { return }
        let before = state
        state.reduce(event)
        states[id] = state
        if !state.resends.isEmpty { retryable.insert(id) } else { retryable.remove(id) }
        applyHiding(id, before: before, after: state)
        if before.display != state.display { notify(id, state) }
        if overlapped.contains(id), state.requests.isEmpty, !(requests?.requests.contains { $0.accountID == id } ?? false) {
            overlapped.remove(id)
            load([id])
        }
        // Observers may have changed the account again meanwhile (a front that sets from its
        // handler): the requests follow the state as it is now, never an older copy of it.
        let current = states[id] ?? state
        if before.isPending || current.isPending {
            requests?.react(
                to: current.requests.map { Request(accountID: id, request: $0, mute: current.options(of: $0)) }, within: { $0.accountID == id }
            )
            waits?.react(to: current.resends.map { Wait(accountID: id, resend: $0) }, within: { $0.accountID == id })
        }
    }

    /// What the lists are told when the account's posts start or stop being hidden: a mute or
    /// block (shown) takes them off every list, an unfollow off home; pending while its request
    /// runs, settled once it is answered; a refusal brings them back.
    private func applyHiding(_ id: AccountID, before: RelationshipState?, after: RelationshipState) {
        let was = before.flatMap(Self.hiding)
        let now = Self.hiding(after)
        if was != now {
            if let was {
                if was == .unfollow, now == nil, !after.follow.desired, !after.follow.isPending {
                    // The unfollow was answered and stands: what it took stays gone.
                    posts.accountHidingSettled(id)
                } else {
                    posts.showAccount(id)
                }
            }
            if let now {
                let notifications = now != .mute || after.display.relationship.mutingNotifications
                posts.hideAccount(id, now, pending: after[now.kind].isPending, notifications: notifications)
            }
        } else if let now, let before, before[now.kind].isPending, !after[now.kind].isPending {
            posts.accountHidingSettled(id)
        }
        // An unmute, an unblock or `boosts on` the server took, with nothing else hiding what it
        // showed: lists that kept their posts (or boosts) away load them again.
        if let before {
            func lifted(_ kind: RelationshipKind, to value: Bool) -> Bool {
                before[kind].desired == value && before[kind].isPending && !after[kind].isPending && after[kind].desired == value
            }
            // Hidden boosts leave their own posts alone.
            let postsLifted = (now == nil || now == .boosts) && (lifted(.mute, to: false) || lifted(.block, to: false))
            if postsLifted || now == nil && lifted(.boosts, to: true) { posts.accountUnhidden(id) }
        }
    }

    /// How the state hides the account's posts: blocked, muted, an unfollow on its way, or
    /// their boosts hidden (`boosts off` while you follow them).
    private static func hiding(_ state: RelationshipState) -> AccountHiding? {
        if state.block.desired { return .block }
        if state.mute.desired { return .mute }
        if !state.follow.desired, state.follow.confirmed, state.follow.isPending { return .unfollow }
        if state.follow.desired, !state.boosts.desired { return .boosts }
        return nil
    }

    private func notify(_ id: AccountID, _ state: RelationshipState) {
        var display = state.display
        display.requestAnswer = answers[id]
        observers.notify(RelationshipChange(accountID: id, display: display))
    }

    private func notifyCurrent(_ id: AccountID) {
        if let state = states[id] { notify(id, state) }
    }

    private func settle(_ reply: Reply) {
        defer {
            if !requestWaiters.isEmpty, requests?.requests.isEmpty ?? true, answering?.requests.isEmpty ?? true { requestWaiters.resumeAll() }
        }
        epoch += 1
        switch reply {
        case .elapsed(let wait):
            handle(.backoffElapsed(wait.resend.kind, token: wait.resend.token, at: epoch), wait.accountID)
        case .succeeded(let request, let relationship):
            let others = requests?.requests.contains { $0.accountID == request.accountID && $0 != request } ?? false
            if others || overlapped.contains(request.accountID) { overlapped.insert(request.accountID) }
            handle(.requestSucceeded(request.request.kind, token: request.request.token, reply: relationship, at: epoch), request.accountID)
        case .failed(let request, let failure):
            handle(.requestFailed(request.request.kind, token: request.request.token, failure: failure, at: epoch), request.accountID)
        }
    }
}

extension AccountHiding {
    /// The relationship kind whose request decides it.
    fileprivate var kind: RelationshipKind {
        switch self {
        case .block: .block
        case .mute: .mute
        case .unfollow: .follow
        case .boosts: .boosts
        }
    }
}
