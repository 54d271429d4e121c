/// A change of one account's relationship, as every header, row and search result that shows
/// the account must show it.
package struct RelationshipChange: Hashable, Sendable {
    package var accountID: AccountID
    package var display: RelationshipDisplay

    package init(accountID: AccountID, display: RelationshipDisplay) {
        self.accountID = accountID
        self.display = display
    }
}

/// The one source of truth for relationships, shared by every screen of a session: a
/// configuration of the convergence engine (`Convergence`) whose machine, one per account, is a
/// `RelationshipState` (the toggle machine post interactions use, per kind), plus its own rules:
/// what a mute, block or unfollow takes off the lists, batched fetches, and answers to follow
/// requests.
///
/// - **One relationship per account**, whatever shows it: a follow from a row three screens deep
///   is the follow every header shows at once (``relationship(_:)``).
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
package final class RelationshipStore: OneEngineStore {
    private struct Fetch: Hashable, Sendable {
        var number: Int
        var accounts: [AccountID]
    }

    private enum Fetched: Sendable {
        case loaded(Fetch, [Relationship], fetchedAt: StoreEpoch)
        case failed(Fetch)
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

    /// The accounts' machines and their requests (set at the end of `init`, so its handlers can
    /// hold the store weakly).
    package private(set) var engine: Convergence<AccountID, RelationshipState>!
    private let observers = HandlerList<RelationshipChange>()
    private let posts: PostStore
    /// Batched fetches of relationships (``load(_:)``), each with the epoch it began at.
    private var fetches: Feedback<Fetch, Fetched>?
    /// Answers to follow requests: the one in flight per account, and where each stands.
    private var answering: Feedback<Answer, Answered>?
    private var answers: [AccountID: ToggleDisplay] = [:]
    /// When each answer was taken by the server: a relationship fetched after it that says they
    /// ask again is a new request, and the old answer is forgotten.
    private var answeredAt: [AccountID: StoreEpoch] = [:]
    private var nextFetch = 0
    /// Accounts that had an answer while another of their requests ran: that answer may say
    /// what the server was before the other applied (a follow answered after a block it
    /// preceded), so the relationship is fetched again once none runs.
    private var overlapped: Set<AccountID> = []
    /// Where the person hears what the server did (the engine's outcomes and follow-request answers).
    private let outcomes: Outcomes?

    /// A store that sends relationship requests to `service`, counted in `activity`, waits on
    /// `retryClock` before sending again what failed for lack of a connection, and takes the
    /// posts of accounts muted, blocked or unfollowed off the lists of `posts`; what the server did
    /// with each change and each answer to a follow request goes to `outcomes`.
    package init(service: any FeedService, posts: PostStore, activity: Activity, retryClock: any Clock<Duration>, outcomes: Outcomes? = nil) {
        self.posts = posts
        self.outcomes = outcomes
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
        engine = Convergence(
            activity: activity, retryClock: retryClock,
            send: { id, sent in try await service.setRelationship(sent.request.kind, to: sent.request.value, of: id, mute: sent.mute) },
            received: { [weak self] id, _, _ in
                // The request that answered has left the engine: any other of the account's still runs.
                guard let self, self.engine.requestsInFlight.contains(where: { $0.0 == id }) else { return }
                self.overlapped.insert(id)
            },
            changed: { [weak self] id, before, after in
                guard let self, let after else { return }
                self.changed(id, before: before, after: after)
            },
            outcomes: outcomes,
            outcome: { id, report, _ in report.outcome.outcome { .relationship(report.kind, $0, account: id) } },
            alsoBusy: { [weak self] in !(self?.answering?.requests.isEmpty ?? true) }
        )
    }

    // MARK: - Reading

    /// The relationship with the account as shown now (the values the user wants), or `nil`
    /// when no fetch or change has told the store about it.
    package func relationship(_ id: AccountID) -> RelationshipDisplay? {
        guard var display = engine[id]?.display else { return nil }
        display.requestAnswer = answers[id]
        return display
    }

    /// Calls `handler` on the main actor after every change of any account's displayed
    /// relationship, in the order the changes happen. Lasts as long as the returned token.
    package func observe(_ handler: @escaping @MainActor @Sendable (RelationshipChange) -> Void) -> Subscription {
        observers.add(handler)
    }

    /// The full machine state of an account's relationship. For tests and diagnostics.
    package func state(_ id: AccountID) -> RelationshipState? {
        engine[id]
    }

    /// Every change the user asked for that the server has not confirmed — a request in flight
    /// or a re-send waiting — with the value wanted, ordered by account id, then kind. Not kept
    /// between sessions: a front says so when it quits with some left.
    package var unsent: [(account: AccountID, kind: RelationshipKind, value: Bool)] {
        engine.unsent.sorted { $0.rawValue < $1.rawValue }.flatMap { id -> [(account: AccountID, kind: RelationshipKind, value: Bool)] in
            guard let state = engine[id] else { return [] }
            return RelationshipKind.allCases.filter { state[$0].isPending }.map { (id, $0, state[$0].desired) }
        }
    }

    /// Relationship requests sent since the store was made.
    package var requestsSent: Int { engine.requestsSent }

    /// The requests in flight now, as (account, kind). For tests.
    package var requestsInFlight: [(AccountID, RelationshipKind)] {
        engine.requestsInFlight.map { ($0.0, $0.1.request.kind) }
    }

    // MARK: - Input

    /// Marks the start of a fetch of relationships; pass its answer to ``ingest(_:fetchedAt:)``.
    package func beginFetch() -> StoreEpoch {
        engine.beginFetch()
    }

    /// Fetches the relationships with `accounts` in one call (`RelationshipService.relationships(of:)`)
    /// and records them. A failed fetch changes nothing (the accounts show no relationship yet).
    package func load(_ accounts: [AccountID]) {
        let wanted = accounts.filter { $0.handle == nil }
        guard !wanted.isEmpty else { return }
        nextFetch += 1
        fetches?.run(Fetch(number: nextFetch, accounts: wanted))
    }

    private func fetched(_ fetched: Fetched) {
        // The loop dropped the finished fetch itself; a failed one leaves the accounts unknown.
        if case .loaded(_, let relationships, let fetchedAt) = fetched { ingest(relationships, fetchedAt: fetchedAt) }
    }

    /// Records relationships fetched by a fetch that started at `fetchedAt`.
    package func ingest(_ relationships: some Sequence<Relationship>, fetchedAt: StoreEpoch) {
        for relationship in relationships {
            if relationship.requestedBy, let taken = answeredAt[relationship.accountID], fetchedAt > taken {
                // They asked again since the answer: a new request.
                answers[relationship.accountID] = nil
                answeredAt[relationship.accountID] = nil
            }
            if engine[relationship.accountID] == nil {
                engine.insert(RelationshipState(serverCopy: relationship, fetchedAt: fetchedAt), for: relationship.accountID)
            } else {
                engine.update(relationship.accountID) { state, epoch in
                    let before = state
                    state.reduce(.copyReceived(relationship, fetchedAt: fetchedAt, at: epoch))
                    // A copy that shows a wish waiting for a connection ends it: done.
                    return RelationshipKind.allCases.compactMap { kind in
                        state[kind].report(receivingAfter: before[kind]).map { KindOutcome(kind: kind, outcome: $0) }
                    }
                }
            }
        }
    }

    /// Toggles `kind` of the relationship with the account (a mute takes `mute`'s options:
    /// Mastodon's default, no end and notifications too, unless given).
    /// An account the store has not fetched is assumed to have nothing set — the server's answer
    /// tells the truth; fronts load the relationship first (``FeedSession/loadRelationships(_:)``).
    package func toggle(_ kind: RelationshipKind, _ id: AccountID, mute: MuteOptions = MuteOptions()) {
        engine.update(id, orMake: { Self.assumed(id) }) { state, epoch in
            state.reduce(.toggled(kind, mute: kind == .mute ? mute : nil, at: epoch))
            return []
        }
    }

    /// The relationship of an account nothing told the store about: nothing set, learnt never.
    private static func assumed(_ id: AccountID) -> RelationshipState {
        RelationshipState(serverCopy: Relationship(accountID: id), fetchedAt: 0)
    }

    /// Sets `kind` to `value`: a toggle when the value shown differs, nothing when it already is.
    /// A kind never learnt from the server is sent whatever it shows (the server's operations
    /// are idempotent: following someone already followed changes nothing), so a relationship
    /// not fetched yet is never assumed.
    package func set(_ kind: RelationshipKind, _ value: Bool, _ id: AccountID, mute: MuteOptions = MuteOptions()) {
        if let state = engine[id], state[kind].desired == value, state[kind].knownSince != 0 || state[kind].isPending { return }
        engine.update(id, orMake: { Self.assumed(id) }) { state, epoch in
            if state[kind].desired == value {
                // Never learnt: taken to be the opposite on the server, so the wish is sent.
                state[kind].confirmed = !value
                state[kind].desired = !value
            }
            state.reduce(.toggled(kind, mute: kind == .mute ? mute : nil, at: epoch))
            return []
        }
    }

    /// Accepts (`accept`) or rejects the follow request of the account: shown at once as on its
    /// way on every screen of the account, then answered (every list of requests drops it, and
    /// the relationship is the server's answer) or refused with a sentence (answering again
    /// sends it again). Returns `false`, sending nothing, while an answer is on its way or once
    /// one was taken.
    @discardableResult
    package func answerRequest(from id: AccountID, accept: Bool) -> Bool {
        if let answer = answers[id], answer.pending || answer.isSettled { return false }
        answers[id] = ToggleDisplay(isOn: accept, pending: true)
        if engine[id] == nil {
            // Told as it is put in.
            engine.insert(RelationshipState(serverCopy: Relationship(accountID: id, requestedBy: true), fetchedAt: 0), for: id)
        } else {
            notifyCurrent(id)
        }
        answering?.run(Answer(accountID: id, accept: accept))
        return true
    }

    private func answered(_ answered: Answered) {
        defer { engine.otherRequestsEnded() }
        switch answered {
        case .succeeded(let answer, var relationship, let fetchedAt):
            answers[answer.accountID] = ToggleDisplay(isOn: answer.accept, pending: false)
            // A server that does not send `requested_by` answered it all the same.
            relationship.requestedBy = false
            if answer.accept { relationship.followedBy = true }
            relationship.accountID = answer.accountID
            // Told once: by the ingest when the relationship changed, else here.
            let shownBefore = engine[answer.accountID]?.display
            // Heard before the screens, as the engine's outcomes are.
            outcomes?.emit(.done(.followRequest(account: answer.accountID, accept: answer.accept)))
            ingest([relationship], fetchedAt: fetchedAt)
            if engine[answer.accountID]?.display == shownBefore { notifyCurrent(answer.accountID) }
            answeredAt[answer.accountID] = beginFetch()
        case .failed(let answer, let failure):
            let verb = answer.accept ? "accept" : "reject"
            answers[answer.accountID] = ToggleDisplay(isOn: answer.accept, pending: false, failure: "Could not \(verb) the follow request: \(failure.message)"
            )
            // Not sent again by itself (answering again does): refused, whatever the reason.
            outcomes?.emit(.refused(.followRequest(account: answer.accountID, accept: answer.accept), sentence: failure.message))
            notifyCurrent(answer.accountID)
        }
    }

    // MARK: - Effects

    /// An account's machine changed: takes posts off (or back onto) the lists when what is
    /// hidden changed, tells the observers, and fetches again what answered while another
    /// request of the account ran, once none runs.
    private func changed(_ id: AccountID, before: RelationshipState?, after state: RelationshipState) {
        applyHiding(id, before: before, after: state)
        if before?.display != state.display { notify(id, state) }
        if overlapped.contains(id), state.toggleRequests.isEmpty, !engine.requestsInFlight.contains(where: { $0.0 == id }) {
            overlapped.remove(id)
            load([id])
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
        if let state = engine[id] { notify(id, state) }
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
