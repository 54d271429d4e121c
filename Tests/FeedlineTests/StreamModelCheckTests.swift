@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Seeded runs of a session over a server whose feeds change while the user reads
/// (``StreamModel``: home and `#t`, pages of 3 to 6, a few to a few dozen posts).
///
/// The model: the server writes posts (some tagged), boosts, edits and deletes; while connected
/// the stream tells the session — at once, or in order but late (never later than an answer the
/// server served after the event: a stream is not slower than a request). A disconnect loses
/// what happens meanwhile (and what was on its way); the reconnect catches up. The stack is home
/// with up to two more lists (home or `#t`), sometimes replaced. The user scrolls (rows displayed
/// near the end load more), loads more, refreshes, shows what waits, opens gaps, toggles and
/// retries; the server serves calls early or late (an answer can be older than the stream events
/// that reach the session before it), answers them in any order, and refuses some. The user
/// also posts (``GatedServer/publish(_:idempotencyKey:)``): some answers are lost after
/// the server made the post (the submission is queued and a retry sends the same key), and the
/// post's stream copy may reach the session before the answer, after it, or never.
///
/// Invariants:
/// - **(a) Converges.** After settling — reconnected, every call answered, failures retried,
///   what waits shown, every gap opened and older pages loaded to the end — each list is its
///   feed on the server less the posts a server filter hides in its context, newest first,
///   without duplicates. One's own posts are there once each, but may stand out of order (each
///   goes on top when made, and a page or the stream's order places it only as far as they
///   tell). The other allowance: an entry deleted
///   while the stream was down (its delete never reached the session) may still be shown, and
///   anywhere: a post the server no longer has cannot be placed. A post shows no older version
///   than the last edit the stream brought, and every live post the server's favourite, boost
///   and bookmark state.
/// - **(b) Nothing moves under the reader.** Only showing what waits and the answers to a
///   refresh or a gap fill may move rows (and then no post row changes place with another).
///   Anything else — stream events, catch-ups, toggles, older pages, scrolling — leaves the rows
///   where they were, except that an older page appends below and a delete removes the rows of
///   the deleted post: the row the user reads then moves up by exactly the rows removed above it
///   (a gap that the delete dropped or merged included) and nothing else moves. One's own posts
///   are left out of this check: they go on top when made and leave when refused.
/// - **(c) One request per post and kind.** The server never has two interaction requests of
///   one post and kind waiting.
///
/// Also after every step: each list's machine invariants, and every row shows the store's state.
/// 2,000 runs of 30 to 70 steps take about 20 s in a debug build.
@MainActor
@Suite("Stream model check", .timeLimit(.minutes(30)))
struct StreamModelCheckTests {
    /// How many runs: `FEEDLINE_STREAM_RUNS` when set, else 2,000.
    static let runs = ProcessInfo.processInfo.environment["FEEDLINE_STREAM_RUNS"].flatMap(Int.init) ?? 2_000

    @Test("streams, disconnects, scrolling, refreshes, gaps and toggles converge to the server, never moving the row being read")
    func runs() async {
        let base = testSeed(0x5354_524D)
        print("Stream model check: \(Self.runs) runs from seed \(base) (FEEDLINE_SEED=<seed> FEEDLINE_STREAM_RUNS=1 replays one)")
        var failures: [String] = []
        var steps = 0
        for run in 0..<Self.runs {
            let seed = base &+ UInt64(run)
            let walk = StreamWalk(seed: seed)
            if let problem = await walk.run() {
                // A replay of one run prints every step; a full run the last few.
                let trace = Self.runs == 1 ? walk.trace : Array(walk.trace.suffix(16))
                failures.append("seed \(seed) (FEEDLINE_SEED=\(seed) FEEDLINE_STREAM_RUNS=1 replays it): \(problem)\n  steps:\n    "
                    + trace.joined(separator: "\n    "))
                if failures.count >= 3 { break }
            }
            steps += walk.steps
        }
        print("Stream model check: \(steps) steps")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// One seeded run of the stream model check.
@MainActor
final class StreamWalk {
    private var random: SeededGenerator
    let server: StreamModel
    let session: FeedSession
    /// Whether the stream is connected.
    private var connected = true
    /// Whether stream events reach the session late: in order, at a later step, but before any
    /// answer the server served after they were sent (a stream is not slower than a request).
    private let lagging: Bool
    /// Stream events sent but not delivered yet (only when `lagging`), each with the server's
    /// ``StreamModel/mutations`` when it was sent; a disconnect loses them.
    private var outbox: [(sentAt: Int, event: StreamEvent)] = []
    /// Per cent of answers refused.
    private let failureRate: Int
    /// Entries whose delete reached the session.
    private var announcedDeletes: Set<PostID> = []
    /// The version of the last edit of each original that reached the session.
    private var streamedVersion: [PostID: Int] = [:]
    /// The row index at the top of each list's viewport (the row being read).
    private var reading: [ObjectIdentifier: Int] = [:]
    private(set) var trace: [String] = []
    /// Whether the trace shows every list after every step (a replay of one run).
    private let verbose = StreamModelCheckTests.runs == 1
    private(set) var steps = 0
    private let stepCount: Int
    /// Per cent of the answers to the user's posts lost after the server made the post.
    private let lossRate: Int
    /// The idempotency keys the session's submissions get, numbered so that a seed replays.
    private let keys = KeyCounter()

    /// Numbers the idempotency keys.
    @MainActor
    final class KeyCounter {
        private var count = 0
        func next() -> String {
            count += 1
            return "key\(count)"
        }
    }

    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        server = StreamModel(pageSize: 3 + random.next(below: 4))
        server.servesOnArrival = random.next(below: 4) == 0
        lagging = random.next(below: 2) == 0
        failureRate = [0, 5, 15][random.next(below: 3)]
        lossRate = [0, 10, 30][random.next(below: 3)]
        stepCount = 30 + random.next(below: 41)
        for _ in 0..<(random.next(below: 25)) { _ = server.write(tagged: random.next(below: 3) == 0) }
        for _ in 0..<random.next(below: 3) {
            if let original = server.entries.filter({ $0.boosts == nil }).randomElement(using: &random) { _ = server.boost(original.id) }
        }
        // The store's cache holds every post of a run: a post edited while nothing showed it,
        // forgotten, and brought back by a page fetched before the edit would show the older
        // copy — what the store no longer remembers, its freshness rules cannot apply to.
        // Interactions queued for lack of a connection are sent again only by the retry when
        // settling: the retry clock never moves.
        let keys = keys
        session = FeedSession(
            service: server.server, clock: .fixed(StreamModel.epoch), prefetchDistance: 1 + random.next(below: 3),
            cacheCapacity: 1_000, retryClock: ManualClock(), idempotencyKeys: { keys.next() }
        )
        self.random = random
    }

    private var lists: [FeedListViewModel] { session.navigator.screens.compactMap(\.list) }

    // MARK: - Running

    /// Runs the steps, settles and checks; the first problem found, or `nil`.
    func run() async -> String? {
        trace.append("server \(server.entries.map(\.id)), pages of \(server.pageSize), lagging \(lagging), serves on arrival \(server.servesOnArrival), failures \(failureRate)%, lost \(lossRate)%")
        session.drafts.load()
        session.streamStateChanged(.live)
        session.root.appeared()
        for _ in 0..<random.next(below: 3) { session.navigator.push(.list(.feed(random.next(below: 2) == 0 ? .tag(StreamModel.tag) : .home))) }
        trace.append("stack \(lists.map(name))")
        if random.next(below: 2) == 0 {
            session.catchUp()
            trace.append("catch up (the first connection)")
        }
        if let problem = await quiesce("start") { return problem }

        for step in 0..<stepCount {
            steps += 1
            let before = lists.map(Observed.init)
            var effect = randomStep()
            if let problem = await quiesce("step \(step)") { return problem }
            effect.deleted.formUnion(streamEchoes())
            if verbose { trace += lists.map(summary) }
            for observed in before {
                if let problem = check(observed, effect) { return "step \(step) (\(trace.last ?? "")): \(name(observed.list)): \(problem)" }
            }
            if let problem = consistency() { return "step \(step) (\(trace.last ?? "")): \(problem)" }
        }
        if let problem = await settle() { return problem }
        if let problem = consistency() { return "settled: \(problem)" }
        for list in lists {
            if let problem = converged(list) { return "settled: \(name(list)): \(problem)" }
        }
        return nil
    }

    /// What a step may have done to the rows.
    private struct Effect {
        /// The lists that were told to show what waits.
        var shown: Set<ObjectIdentifier> = []
        /// The entries whose delete reached the session.
        var deleted: Set<PostID> = []
    }

    /// Sends the stream copies of the user's posts the server made since last asked.
    private func streamEchoes() -> Set<PostID> {
        let echoes = server.takeEchoes()
        guard !echoes.isEmpty else { return [] }
        trace.append("server: the stream copy of \(echoes.map(describe))")
        return stream(echoes)
    }

    /// A list's rows and request before a step.
    @MainActor
    private struct Observed {
        let list: FeedListViewModel
        let ids: [RowID]
        let inFlight: ListRequest?

        init(_ list: FeedListViewModel) {
            self.list = list
            rows = list.rows
            ids = list.rows.map(\.id)
            inFlight = list.state.inFlight
        }

        /// `ids` less one's own posts: those on their way, and those the server made for the user.
        func others(_ server: StreamModel) -> [RowID] {
            Self.others(ids, rows: rows, server)
        }

        /// The rows as they were.
        private let rows: RowList

        static func others(_ ids: [RowID], rows: RowList, _ server: StreamModel) -> [RowID] {
            ids.filter { id in
                guard let post = rows[id: id]?.post else { return true }
                return !post.isSending && !server.isMine(post.post.id)
            }
        }
    }

    /// One random step.
    private func randomStep() -> Effect {
        var effect = Effect()
        let choice = random.next(below: 100)
        switch choice {
        case 0..<13:
            let tagged = random.next(below: 5) < 2
            let events = server.write(tagged: tagged)
            trace.append("server: new post \(events.first.map(describe) ?? "")\(tagged ? " #t" : "")")
            effect.deleted = stream(events)
        case 13..<17:
            guard let original = live(originals: true).randomElement(using: &random) else { break }
            let events = server.boost(original)
            trace.append("server: boost of \(original): \(events.first.map(describe) ?? "")")
            effect.deleted = stream(events)
        case 17..<25:
            guard let original = pickShownOrLive(originals: true) else { break }
            let events = server.edit(original)
            trace.append("server: edit of \(original) (v\(server.version(original)))")
            effect.deleted = stream(events)
        case 25..<32:
            guard let id = pickShownOrLive(originals: false) else { break }
            let events = server.delete(id)
            trace.append("server: delete of \(id)")
            effect.deleted = stream(events)
        case 32..<36:
            if connected {
                connected = false
                trace.append("disconnect (\(outbox.count) undelivered events lost)")
                outbox = []
                session.streamStateChanged(.reconnecting(after: .seconds(1), attempt: 1))
            } else {
                connected = true
                trace.append("reconnect: catch up")
                session.streamStateChanged(.live)
                session.catchUp()
            }
        case 36..<42:
            guard !outbox.isEmpty else { break }
            let count = min(outbox.count, 1 + random.next(below: 3))
            effect.deleted = deliverOutbox(upTo: outbox[count - 1].sentAt)
        case 42..<50:
            let list = pickList()
            let rows = list.rows
            guard !rows.isEmpty else { break }
            let top = max(0, min(rows.count - 1, (reading[ObjectIdentifier(list)] ?? 0) + random.next(below: 9) - 3))
            reading[ObjectIdentifier(list)] = top
            let shown = rows[top..<min(rows.count, top + 3)].map(\.id)
            trace.append("\(name(list)): scroll to \(top), displaying \(shown)")
            for id in shown { list.rowWillDisplay(id) }
        case 50..<53:
            let list = pickList()
            trace.append("\(name(list)): load more")
            list.loadMore()
        case 53..<56:
            let list = pickList()
            trace.append("\(name(list)): refresh")
            list.refresh()
        case 56..<61:
            let list = pickList()
            trace.append("\(name(list)): show \(list.state.waiting.map(\.id))")
            list.showWaiting()
            effect.shown.insert(ObjectIdentifier(list))
        case 61..<65:
            let list = pickList()
            guard let gap = list.rows.filter({ $0.gap != nil }).randomElement(using: &random) else { break }
            trace.append("\(name(list)): open \(gap.id)")
            list.openGap(gap.id)
        case 65..<72:
            let list = pickList()
            guard let row = list.rows.filter({ $0.shownPost != nil }).randomElement(using: &random) else { break }
            let kinds = InteractionKind.allCases
            let kind = kinds[random.next(below: kinds.count)]
            trace.append("\(name(list)): toggle \(kind) of \(row.id)")
            list.toggle(kind, row: row.id)
        case 72..<74:
            trace.append("retry")
            session.retry()
        case 74..<76:
            guard session.navigator.depth > 1 else { break }
            session.navigator.pop()
            session.navigator.push(.list(.feed(random.next(below: 2) == 0 ? .tag(StreamModel.tag) : .home)))
            trace.append("pop, push \(lists.last.map(name) ?? "")")
        case 76..<79:
            guard server.pendingCount > 0 else { break }
            let index = random.next(below: server.pendingCount)
            trace.append("server serves \(server.pendingCalls[index])")
            server.serve(at: index)
            effect.deleted = streamEchoes()
        case 79..<83:
            let draft = session.drafts.startPost()
            session.drafts.update(draft) { $0.text = "mine \(draft) v0" }
            let problems = session.drafts.send(draft)
            trace.append("post draft \(draft)\(problems.isEmpty ? "" : ": \(problems)")")
        default:
            // One answer a step, so that what may move the rows is known.
            guard server.pendingCount > 0 else { break }
            let index = random.next(below: server.pendingCount)
            let failing = random.next(below: 100) < failureRate
            // Lost answers of the user's posts only: an interaction whose answer was lost and
            // that the user then undoes is not sent again (the outbox takes the failure for
            // "not made"), which this model does not check.
            let losing = !failing && server.pendingCalls[index].hasPrefix("publish") && random.next(below: 100) < lossRate
            trace.append("server answers \(server.pendingCalls[index])\(failing ? " — refused unless served" : "")\(losing ? " — the answer is lost" : "")")
            if let servedAt = server.answer(at: index, failing: failing, losing: losing) { effect.deleted = deliverOutbox(upTo: servedAt) }
            effect.deleted.formUnion(streamEchoes())
        }
        return effect
    }

    /// Sends `events` down the stream: applied now, queued (lagging), or lost (disconnected).
    private func stream(_ events: [StreamEvent]) -> Set<PostID> {
        guard connected else { return [] }
        guard !lagging else {
            let sentAt = server.mutations
            outbox += events.map { (sentAt, $0) }
            return []
        }
        return Set(events.compactMap(deliver))
    }

    /// Delivers the late stream events sent up to the server's change `sentAt`; the ids of the
    /// deletes among them.
    private func deliverOutbox(upTo sentAt: Int) -> Set<PostID> {
        let count = outbox.prefix { $0.sentAt <= sentAt }.count
        guard count > 0 else { return [] }
        let events = outbox.prefix(count).map(\.event)
        outbox.removeFirst(count)
        trace.append("stream delivers \(events.map(describe))")
        return Set(events.compactMap(deliver))
    }

    /// Applies a stream event; the id of a delete.
    private func deliver(_ event: StreamEvent) -> PostID? {
        session.apply(event)
        switch event {
        case .deleted(let id):
            announcedDeletes.insert(id)
            return id
        case .edited(let post):
            streamedVersion[post.id] = Self.version(post)
        case .posted, .notified, .conversation:
            break
        }
        return nil
    }

    // MARK: - Choosing

    private func pickList() -> FeedListViewModel {
        let lists = lists
        return lists[random.next(below: lists.count)]
    }

    /// The live entries (or originals) on the server.
    private func live(originals: Bool) -> [PostID] {
        server.entries.filter { !$0.deleted && (!originals || $0.boosts == nil) }.map(\.id)
    }

    /// Half the time an entry (or original) a list shows, else any live one.
    private func pickShownOrLive(originals: Bool) -> PostID? {
        if random.next(below: 2) == 0 {
            let list = pickList()
            let shown: [PostID] = (list.rows.array + list.state.waiting.array).compactMap { row in
                guard let post = row.shownPost else { return nil }
                return originals ? post.originalID : post.id
            }
            if let id = shown.filter({ server.entry($0)?.deleted == false }).randomElement(using: &random) { return id }
        }
        return live(originals: originals).randomElement(using: &random)
    }

    // MARK: - Settling

    /// Waits until every running effect waits in the server (no sleeping: yields until the
    /// counts agree, bounded so a bug fails instead of hanging).
    private func quiesce(_ when: String) async -> String? {
        for _ in 0..<100_000 {
            if session.activity.running == server.waitingEffects {
                server.serveArrived()
                return nil
            }
            await Task.yield()
        }
        return "\(when): effects did not settle (\(session.activity.running) running, waiting: \(server.pendingCalls))"
    }

    /// Reconnects, answers everything without failures, retries what failed, shows what waits,
    /// opens every gap and loads older pages to the end, until nothing is left to do.
    private func settle() async -> String? {
        trace.append("settle")
        if !connected {
            connected = true
            outbox = []
            session.streamStateChanged(.live)
            session.catchUp()
            trace.append("reconnect: catch up")
        }
        _ = deliverOutbox(upTo: Int.max)
        for round in 0..<2_000 {
            if let problem = await quiesce("settling") { return problem }
            while server.pendingCount > 0 {
                let index = random.next(below: server.pendingCount)
                trace.append("server answers \(server.pendingCalls[index])")
                server.answer(at: index, failing: false)
                _ = streamEchoes()
                _ = deliverOutbox(upTo: Int.max)
                if let problem = await quiesce("settling") { return problem }
                _ = streamEchoes()
                _ = deliverOutbox(upTo: Int.max)
            }
            if let list = lists.first(where: { !$0.state.failedIntents.isEmpty }) {
                trace.append("\(name(list)): retry \(list.state.failedIntents)")
                list.retry()
            } else if !session.store.outbox.isEmpty || session.drafts.all.contains(where: \.isInFlight) {
                trace.append("retry the outbox \(session.store.outbox) and the submissions on their way")
                session.retry()
            } else if let list = lists.first(where: { !$0.state.waiting.isEmpty }) {
                trace.append("\(name(list)): show \(list.state.waiting.map(\.id))")
                list.showWaiting()
            } else if let list = lists.first(where: { $0.rows.contains { $0.gap != nil } }), let gap = list.rows.first(where: { $0.gap != nil }) {
                trace.append("\(name(list)): open \(gap.id)")
                list.openGap(gap.id)
            } else if let list = lists.first(where: { !$0.state.reachedEnd }) {
                trace.append("\(name(list)): load more")
                list.loadMore()
            } else {
                return nil
            }
            if let problem = await quiesce("settling") { return problem }
            if verbose { trace += lists.map(summary) }
            if round == 1_999 { return "never settled" }
        }
        return nil
    }

    // MARK: - Invariants

    /// (b): what a step did to a list's rows is what it may do.
    private func check(_ observed: Observed, _ effect: Effect) -> String? {
        let list = observed.list
        guard lists.contains(where: { $0 === list }) else { return nil }
        if let broken = list.state.checkInvariants().first { return "invariant broken: \(broken)" }
        let key = ObjectIdentifier(list)
        let after = list.rows.map(\.id)
        if after == observed.ids { return nil }
        let position = Dictionary(uniqueKeysWithValues: after.enumerated().map { ($1, $0) })
        let readerRow = min(reading[key] ?? 0, max(0, observed.ids.count - 1))
        defer {
            // The viewport follows the row being read.
            if observed.ids.indices.contains(readerRow), let now = position[observed.ids[readerRow]] { reading[key] = now }
        }
        // One's own posts go on top when made and leave when refused: the rest is checked
        // without them, the reader at the first other row from where it reads.
        let before = observed.others(server)
        let others = Observed.others(after, rows: list.rows, server)
        if others == before { return nil }
        let reader = observed.ids[readerRow...].lazy.compactMap { id in before.firstIndex(of: id) }.first ?? max(0, before.count - 1)
        return check(list, before: before, after: others, reader: reader, observed.inFlight, effect)
    }

    /// (b) for the rows of a list other than one's own posts: `before` the step, `after` it,
    /// the row being read at `reader` (an index in `before`).
    private func check(_ list: FeedListViewModel, before ids: [RowID], after: [RowID], reader: Int, _ inFlight: ListRequest?, _ effect: Effect) -> String? {
        let key = ObjectIdentifier(list)
        let position = Dictionary(uniqueKeysWithValues: after.enumerated().map { ($1, $0) })
        let observed = (ids: ids, inFlight: inFlight)
        // Only showing what waits and a refresh's or a gap's answer may move rows.
        let answered = observed.inFlight != nil && list.state.inFlight != observed.inFlight
        var moves = effect.shown.contains(key)
        var appends = false
        if answered, let kind = observed.inFlight?.kind {
            switch kind {
            case .refresh, .gap, .reload: moves = true
            case .page: appends = true
            case .catchUp, .confirm: break
            }
        }
        // Rows leave only when their post was deleted (and gaps, mended or filled).
        for id in observed.ids where position[id] == nil {
            guard case .post(let entry) = id else {
                if moves || !effect.deleted.isEmpty { continue }
                return "a gap left without a delete or a command: \(observed.ids) → \(after)"
            }
            let original = server.entry(entry)?.boosts ?? entry
            if !effect.deleted.contains(entry), !effect.deleted.contains(original) {
                return "\(id) left without a delete of it: \(observed.ids) → \(after)"
            }
        }
        let survivors = observed.ids.filter { position[$0] != nil }
        if moves {
            // Rows may be inserted anywhere and gaps change, but no post row moves.
            let order = survivors.compactMap { id -> Int? in if case .gap = id { nil } else { position[id] } }
            if order != order.sorted() { return "a command moved post rows: \(observed.ids) → \(after)" }
            return nil
        }
        // The row being read stays where it was, less the rows removed above it.
        if observed.ids.indices.contains(reader), let now = position[observed.ids[reader]] {
            let removedAbove = observed.ids[..<reader].count { position[$0] == nil }
            if now != reader - removedAbove {
                return "the row being read, \(observed.ids[reader]) at \(reader), moved to \(now) (\(removedAbove) removed above it): \(observed.ids) → \(after)"
            }
        }
        if Array(after.prefix(survivors.count)) != survivors || (!appends && after.count != survivors.count) {
            return "rows moved without a command: \(observed.ids) → \(after)"
        }
        return nil
    }

    /// Every row and the server's promise (c).
    private func consistency() -> String? {
        for list in lists {
            for row in list.rows {
                guard let post = row.shownPost else { continue }
                let stored = session.store.interaction(post.originalID)
                if stored != post.interaction { return "\(name(list)) row \(row.id) shows \(post.interaction), the store \(String(describing: stored))" }
            }
        }
        return server.violations.first
    }

    /// (a): the settled list is the server's feed.
    private func converged(_ list: FeedListViewModel) -> String? {
        guard case .feed(let feed) = list.source else { return nil }
        if let broken = list.state.checkInvariants().first { return "invariant broken: \(broken)" }
        if !list.state.waiting.isEmpty { return "rows still wait: \(list.state.waiting.map(\.id))" }
        if !list.state.reachedEnd { return "older pages did not reach the end" }
        var ids: [PostID] = []
        for row in list.rows {
            guard case .post(let post) = row else { return "a row that is not a post is left: \(row.id)" }
            // The post it shows (one's own keeps the identity it had while it was sent).
            ids.append(post.post.id)
        }
        let expected = server.shown(feed)
        let live = Set(expected)
        if Set(ids).count != ids.count { return "duplicates: \(ids)" }
        // One's own posts once each, anywhere; the others in the server's order.
        let mine = Set(expected.filter(server.isMine))
        if ids.filter({ live.contains($0) && !mine.contains($0) }) != expected.filter({ !mine.contains($0) }) || !mine.isSubset(of: Set(ids)) {
            return "shows \(ids), the server has \(expected)"
        }
        for id in ids where !live.contains(id) {
            guard let entry = server.entry(id), entry.deleted else { return "shows \(id), which is not in \(feed) or a filter hides there" }
            let original = entry.boosts
            if announcedDeletes.contains(id) || original.map(announcedDeletes.contains) == true {
                return "shows \(id), whose delete the stream brought: \(ids)"
            }
        }
        for row in list.rows {
            guard let post = row.post, let entry = server.entry(post.id), !entry.deleted else { continue }
            let original = post.originalID
            let version = Self.version(post.content)
            if version < streamedVersion[original, default: 0] {
                return "\(post.id) shows version \(version), older than the edit streamed (v\(streamedVersion[original, default: 0]))"
            }
            if version > server.version(original) { return "\(post.id) shows version \(version), the server has \(server.version(original))" }
            guard let flags = server.flags(original) else { continue }
            let interaction = post.interaction
            let agrees = interaction.favourited == flags.favourited && interaction.reblogged == flags.reblogged
                && interaction.bookmarked == flags.bookmarked && interaction.favouritesCount == flags.favourites
                && interaction.reblogsCount == flags.reblogs && interaction.pending.isEmpty
            if !agrees { return "\(post.id) shows \(interaction), the server has \(flags)" }
        }
        return nil
    }

    // MARK: - Helpers

    /// A list's rows, waiting rows and request, for the trace of a replay.
    private func summary(_ list: FeedListViewModel) -> String {
        let state = list.state
        let rows = state.rows.map { row in
            row.gap.map { "gap(\($0.below)…\($0.above))" } ?? row.post.map { post in
                (post.key.map { "\($0)=" } ?? "") + "\(post.post.id)" + (state.ownUnplaced[row.id] != nil ? "^" : "")
            } ?? "\(row.id)"
        }
        let waiting = state.waiting.map { "\($0.id)".replacingOccurrences(of: "post:", with: "") + "@\(state.waitingRows.arrivedAt[$0.id] ?? 0)" }
        return "    \(name(list)): \(rows) waiting \(waiting)\(state.waitingMayMiss ? " may miss" : "")"
            + (state.waitingRows.missedSince.map { " missed since \($0.arrivals)/\($0.token.map(String.init) ?? "down")" } ?? "")
            + (state.inFlight.map { " in flight \($0.token) \($0.kind)" } ?? "") + (state.queued.isEmpty ? "" : " queued \(state.queued)")
    }

    /// A list as the trace names it: its feed and its place on the stack.
    private func name(_ list: FeedListViewModel) -> String {
        "\(list.source)#\(session.navigator.screens.firstIndex { $0.list === list } ?? -1)"
    }

    /// The version a post's text names ("post 12 v3" is 3).
    static func version(_ post: Post) -> Int {
        post.text.split(separator: "v").last.flatMap { Int($0) } ?? 0
    }

    private func describe(_ event: StreamEvent) -> String {
        switch event {
        case .posted(let post, let feed): "posted \(post.id) in \(feed)"
        case .deleted(let id): "deleted \(id)"
        case .edited(let post): "edited \(post.id) v\(Self.version(post))"
        case .notified(let group): "notified \(group.id)"
        case .conversation(let conversation): "conversation \(conversation.id)"
        }
    }
}
