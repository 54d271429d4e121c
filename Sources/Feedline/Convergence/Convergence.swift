/// The convergence engine: the owner loop every optimistic store runs, written once. It keeps one
/// ``ConvergingMachine`` per key and makes the server agree with it — requests through
/// `Feedback` (at most the requests the machine asks for, each once), re-sends waited for on the
/// retry clock, one epoch that orders answers and fetched copies, the keys a retry acts on, the
/// changes not yet confirmed (``unsent``), and callers waiting for the requests to end.
///
/// A store is a configuration: its machine (the rules of its values), `send` (the service call),
/// `received` (what the store keeps beside the machine and learns from an answer: a post's text),
/// `changed` (what the store does when a key's machine changed: tell its screens, hide rows…),
/// `report` (what the store keeps of what an answer did) and `outcome` (what the person hears of
/// it: the subject of a key's report). The engine emits every ``Outcome`` of every store into the
/// session's ``Outcomes`` here, at one point (`commit`).
///
/// Guarantees:
/// - **Main actor only.** Transitions, `report`, outcomes and `changed` run on the main actor,
///   in order: a transition's reports and outcomes first, then its change — the machine is the
///   new one when an outcome is heard, and the screens follow right after (a REPL prints
///   "Done: …" before the row it settles).
/// - **One final outcome per answered wish.** A request answered while its wish stands yields
///   one outcome (done, refused, not applied) — or queued, then one more when the re-send is
///   answered (or a fetched copy shows it); a wish the person took back before the answer yields
///   none.
/// - **One request per request value.** A request the machine keeps asking for is never sent twice;
///   one it stops asking for is cancelled and its answer dropped.
/// - **The machine as it is now.** `changed` may change the same key again (a front that sets from
///   its handler); requests then follow the machine as it is after the handler, never a copy.
/// - **Counted.** Every request and wait counts in the session's `Activity` (a wait as waiting),
///   so settling sees every request, and a backoff never holds it up.
/// - **Order asked.** ``unsent`` lists keys in the order they first waited for the server.
@MainActor
package final class Convergence<Key: Hashable & Sendable, Machine: ConvergingMachine> {
    /// A request or re-send of one key.
    package struct Keyed<Part: Hashable & Sendable>: Hashable, Sendable {
        package var key: Key
        package var part: Part
    }

    private enum Reply: Sendable {
        case answered(Keyed<Machine.Request>, Machine.Answer)
        case failed(Keyed<Machine.Request>, FeedFailure)
        case elapsed(Keyed<Machine.Resend>)
    }

    private var machines: [Key: Machine] = [:]
    /// When each key first waited for the server (or was deferred), for ``unsent``'s order;
    /// dropped once it settles.
    private var askedAt: [Key: UInt64] = [:]
    private var nextAsk: UInt64 = 0
    /// The keys whose machine is deferred: what ``retry()`` acts on, found without visiting
    /// every key (a store of thousands of posts has a few deferred).
    private var deferred: Set<Key> = []
    /// The engine's logical time: every transition and every fetch begun takes the next one.
    package private(set) var epoch: StoreEpoch = 0
    private var requests: Feedback<Keyed<Machine.Request>, Reply>?
    private var waits: Feedback<Keyed<Machine.Resend>, Reply>?
    private let requestWaiters = DeadlineWaiters()
    /// Callers of `waitForRequests(atMost count:)`, with the count each waits for.
    private var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private let retryClock: any Clock<Duration>
    private let received: @MainActor (Key, Machine.Request, Machine.Answer) -> Void
    private let changed: @MainActor (Key, _ before: Machine?, _ after: Machine?) -> Void
    private let report: @MainActor (Key, Machine.Report) -> Void
    private let outcomes: Outcomes?
    private let outcome: @MainActor (Key, Machine.Report, _ before: Machine?) -> Outcome?
    private let alsoBusy: @MainActor () -> Bool
    /// Whether a machine ``update(_:orMake:_:)`` made, and left at rest, is kept (see `init`).
    private let keepsMadeAtRest: Bool

    /// An engine whose requests `send` to the service, counted in `activity`, whose re-sends wait
    /// on `retryClock`.
    ///
    /// - Parameters:
    ///   - send: makes the request of a key; its answer goes to the key's machine.
    ///   - received: an answer arrived, before the key's machine takes it (the store keeps
    ///     something the answer brings beside the machine).
    ///   - changed: a key's machine changed (`before`/`after`; `nil` when absent).
    ///   - report: what an answer, failure or copy did (the store's own bookkeeping).
    ///   - outcomes: where the person hears what an answer, failure or copy did; `outcome` says
    ///     it of a key's report, given the key's machine before the transition (`nil`: nothing
    ///     to say).
    ///   - alsoBusy: whether other requests of the store run that ``waitForRequests(atMost:)``
    ///     waits for too; the store calls ``otherRequestsEnded()`` when one ends.
    ///   - keepsMadeAtRest: `false` for a store that holds every key's machine itself (the
    ///     post store: one per post it knows): a machine ``update(_:orMake:_:)`` made that the
    ///     transition leaves waiting for nothing, with nothing to report, is told to `changed`
    ///     and not kept — the engine holds only machines that waited for the server.
    package init(
        activity: Activity, retryClock: any Clock<Duration>,
        send: @escaping @Sendable (Key, Machine.Request) async throws -> Machine.Answer,
        received: @escaping @MainActor (Key, Machine.Request, Machine.Answer) -> Void = { _, _, _ in },
        changed: @escaping @MainActor (Key, Machine?, Machine?) -> Void = { _, _, _ in },
        report: @escaping @MainActor (Key, Machine.Report) -> Void = { _, _ in },
        outcomes: Outcomes? = nil, outcome: @escaping @MainActor (Key, Machine.Report, Machine?) -> Outcome? = { _, _, _ in nil },
        alsoBusy: @escaping @MainActor () -> Bool = { false }, keepsMadeAtRest: Bool = true
    ) {
        self.keepsMadeAtRest = keepsMadeAtRest
        self.retryClock = retryClock
        self.received = received
        self.changed = changed
        self.report = report
        self.outcomes = outcomes
        self.outcome = outcome
        self.alsoBusy = alsoBusy
        requests = Feedback(
            activity: activity,
            effect: { request in
                do {
                    return .answered(request, try await send(request.key, request.part))
                } catch {
                    return .failed(request, FeedFailure(error))
                }
            },
            handle: { [weak self] reply in self?.settle(reply) }
        )
        waits = .waits(
            activity: activity, clock: retryClock, delay: { Machine.delay(of: $0.part) }, elapsed: { .elapsed($0) },
            handle: { [weak self] reply in self?.settle(reply) }
        )
    }

    isolated deinit {
        requests?.cancelAll()
        waits?.cancelAll()
    }

    // MARK: - Reading

    /// The machine of `key`, or `nil` when nothing told the engine about it.
    package subscript(key: Key) -> Machine? { machines[key] }

    /// Every key the engine knows.
    package var keys: Dictionary<Key, Machine>.Keys { machines.keys }

    /// Keys whose machine waits for the server, in the order they first did.
    package var unsent: [Key] {
        // Asked of every screen a front draws: nothing waits (almost always), nothing to sort.
        guard !askedAt.isEmpty else { return [] }
        return askedAt.lazy.filter { self.machines[$0.key]?.isPending == true }.sorted { $0.value < $1.value }.map(\.key)
    }

    /// Whether a re-send waits that ``retry()`` would send at once. O(1).
    package var hasDeferred: Bool { !deferred.isEmpty }

    /// The keys a re-send waits for, in the order they first waited for the server.
    package var deferredKeys: [Key] {
        deferred.sorted { (askedAt[$0] ?? .max) < (askedAt[$1] ?? .max) }
    }

    /// The requests in flight now, as (key, request).
    package var requestsInFlight: [(Key, Machine.Request)] { (requests?.requests ?? []).map { ($0.key, $0.part) } }

    /// Whether any request is in flight.
    package var hasRequestsInFlight: Bool { !(requests?.requests.isEmpty ?? true) }

    /// Requests sent since the engine was made.
    package var requestsSent: Int { requests?.started ?? 0 }

    /// Re-sends waiting now.
    package var resendsWaiting: Int { waits?.requests.count ?? 0 }

    /// Returns once no request is in flight — the engine's nor the store's others (`alsoBusy`) —
    /// at once when none is, or after `limit` on the retry clock.
    package func waitForRequests(atMost limit: Duration) async {
        guard hasRequestsInFlight || alsoBusy() else { return }
        await requestWaiters.wait(atMost: limit, on: retryClock)
    }

    /// One of the store's other requests ended (see `alsoBusy`): callers of
    /// ``waitForRequests(atMost:)`` return when nothing else runs.
    package func otherRequestsEnded() {
        resumeWaitersIfIdle()
    }

    /// Returns once at most `count` of the engine's requests are in flight (at once when that is
    /// so). For tests, which hold answers and let them go one by one.
    package func waitForRequests(atMost count: Int) async {
        guard (requests?.requests.count ?? 0) > count else { return }
        await withCheckedContinuation { countWaiters.append((count, $0)) }
    }

    private func resumeWaitersIfIdle() {
        if !requestWaiters.isEmpty, !hasRequestsInFlight, !alsoBusy() { requestWaiters.resumeAll() }
        resumeCountWaiters()
    }

    private func resumeCountWaiters() {
        guard !countWaiters.isEmpty else { return }
        let inFlight = requests?.requests.count ?? 0
        let ready = countWaiters.filter { inFlight <= $0.count }
        countWaiters.removeAll { inFlight <= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    // MARK: - Input

    /// Marks the start of a fetch: a copy it brings is as fresh as this epoch.
    package func beginFetch() -> StoreEpoch {
        epoch += 1
        return epoch
    }

    /// Runs `transition` on the machine of `key` — made by `make` when the key is new (no
    /// transition runs when it returns `nil`) — at the next epoch, then tells `changed`, reports
    /// what the transition returned, and makes the key's requests and waits match the machine.
    /// Returns whether a machine was there to change.
    @discardableResult
    package func update(
        _ key: Key, orMake make: () -> Machine? = { nil }, _ transition: (inout Machine, StoreEpoch) -> [Machine.Report]
    ) -> Bool {
        guard var machine = machines[key] ?? make() else { return false }
        let before = machines[key]
        epoch += 1
        let reports = transition(&machine, epoch)
        // A machine made for this change and at rest after it stays with its maker, if it holds its own.
        let keep = keepsMadeAtRest || before != nil || machine.isPending || !reports.isEmpty
        commit(key, before: before, after: machine, reports: reports, keep: keep)
        return true
    }

    /// Puts `machine` in for `key` as it is (a key first learnt from the server), telling `changed`.
    package func insert(_ machine: Machine, for key: Key) {
        commit(key, before: machines[key], after: machine, reports: [])
    }

    /// Forgets `key` when nothing of it waits for the server (a cache dropping a value no screen
    /// shows). Returns whether it was forgotten.
    @discardableResult
    package func forget(_ key: Key) -> Bool {
        guard let machine = machines[key], !machine.isPending else { return false }
        machines[key] = nil
        askedAt[key] = nil
        return true
    }

    /// Sends every deferred change at once, in the order asked. Returns whether there was any.
    @discardableResult
    package func retry() -> Bool {
        let keys = deferredKeys
        for key in keys {
            update(key) { machine, epoch in
                _ = machine.retry(at: epoch)
                return []
            }
        }
        return !keys.isEmpty
    }

    // MARK: - Effects

    private func settle(_ reply: Reply) {
        defer { resumeWaitersIfIdle() }
        switch reply {
        case .answered(let request, let answer):
            guard machines[request.key] != nil else { return }
            received(request.key, request.part, answer)
            update(request.key) { machine, epoch in machine.answered(request.part, with: answer, at: epoch) }
        case .failed(let request, let failure):
            update(request.key) { machine, epoch in machine.failed(request.part, with: failure, at: epoch) }
        case .elapsed(let resend):
            update(resend.key) { machine, epoch in
                machine.elapsed(resend.part, at: epoch)
                return []
            }
        }
    }

    /// `keep`: whether the engine holds `after` from now on (it always tells `changed`).
    private func commit(_ key: Key, before: Machine?, after: Machine, reports: [Machine.Report], keep: Bool = true) {
        defer { resumeCountWaiters() }
        if keep { machines[key] = after }
        if after.isDeferred { deferred.insert(key) } else { deferred.remove(key) }
        if after.isPending, askedAt[key] == nil {
            nextAsk += 1
            askedAt[key] = nextAsk
        } else if !after.isPending {
            askedAt[key] = nil
        }
        // What it did first, then the change: a store that tells its screens once per change
        // tells them with what the answer did.
        for outcome in reports { report(key, outcome) }
        // What the person hears: the one point every outcome of every store leaves from.
        if let outcomes {
            for told in reports { if let said = outcome(key, told, before) { outcomes.emit(said) } }
        }
        if before != after { changed(key, before, after) }
        // The machine as it is now: `changed` or `report` may have changed the key again.
        let current = machines[key]
        guard before?.isPending == true || current?.isPending == true else { return }
        requests?.react(to: (current?.requests ?? []).map { Keyed(key: key, part: $0) }, within: { $0.key == key })
        waits?.react(to: (current?.resends ?? []).map { Keyed(key: key, part: $0) }, within: { $0.key == key })
    }
}
