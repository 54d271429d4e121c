@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Seeded random runs of the outbox against a simulated server, through the real session:
/// toggles from rows and details, answers in random order (applied, failing for lack of a
/// connection, refused), retries, the retry clock moving by random amounts, and restarts (the
/// outbox saved, a new session restoring it; requests in flight at the restart applied or
/// lost at random). After every step:
///
/// - never two requests of one post and kind in flight;
/// - every row and detail shows what the user last asked for (a refusal alone undoes a wish);
/// - the outbox is exactly the pending kinds with their desired values, contains every kind
///   whose desired value is not the confirmed one, and is what its observer was last told;
/// - the machine's invariants hold.
///
/// At the end the server comes back — it answers everything, and only the backoff (no retry)
/// sends what is queued — and every row shows the server's state, which is what the user asked
/// for, with nothing pending.
///
/// `FEEDLINE_SEED=<seed> FEEDLINE_OUTBOX_RUNS=1` replays one run, printing its steps.
@MainActor
@Suite("Outbox model check", .timeLimit(.minutes(30)))
struct OutboxModelCheckTests {
    static let runs = ProcessInfo.processInfo.environment["FEEDLINE_OUTBOX_RUNS"].flatMap(Int.init) ?? 400

    @Test("toggles, transient failures, refusals, retries, clock advances and restarts: one request per post and kind, the outbox is what is pending, all converges")
    func runs() async {
        let base = testSeed(0x4F55_5442_4F58)
        print("Outbox model check: \(Self.runs) runs from seed \(base) (FEEDLINE_SEED=<seed> FEEDLINE_OUTBOX_RUNS=1 replays one)")
        var failures: [String] = []
        for run in 0..<Self.runs {
            let seed = base &+ UInt64(run)
            var model = OutboxModel(seed: seed, verbose: Self.runs == 1)
            if let problem = await model.run() {
                failures.append("seed \(seed) (FEEDLINE_SEED=\(seed) FEEDLINE_OUTBOX_RUNS=1 replays it): \(problem)\n  steps: \(model.trace.joined(separator: "\n    "))")
                if failures.count >= 3 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

/// One run: the server, the session of the moment, and what the user asked for.
@MainActor
private struct OutboxModel {
    /// The calls the server holds for the run to answer.
    static let calls: [GatedCall.Kind] = [.page, .post, .context, .interaction]
    static let originals: [PostID] = ["a", "b", "c"]
    /// Bob's boost of b, shown above it.
    static let boost: PostID = "w"

    var random: SeededGenerator
    let verbose: Bool
    var trace: [String] = []
    /// What the user last asked for, by post and kind.
    var intent: [String: Bool] = [:]
    /// The server: it keeps its model across restarts.
    var service: GatedServer
    var clock = ManualClock()
    var session: FeedSession
    var recorder: OutboxRecorder

    init(seed: UInt64, verbose: Bool) {
        random = SeededGenerator(seed: seed)
        self.verbose = verbose
        var originals: [Post] = []
        for id in Self.originals {
            var original = makePost(id.rawValue)
            for kind in InteractionKind.allCases where random.next(below: 2) == 0 { original.interactions.set(kind, to: true) }
            original.favouritesCount += random.next(below: 3)
            originals.append(original)
        }
        service = Self.server(ServerModel(originals + [makePost(Self.boost.rawValue, author: bob, reblog: originals[1])]))
        let server = service.model
        for id in Self.originals {
            for kind in InteractionKind.allCases { intent["\(id) \(kind)"] = server.interactions(of: id)?.isOn(kind) }
        }
        session = FeedSession(service: service, clock: .fixed(testNow), retryClock: clock)
        recorder = OutboxRecorder(session.store)
    }

    // MARK: The server

    /// The server's model now.
    var server: ServerModel<Post> { service.model }

    func copy(_ id: PostID) -> Post { server.entry(id) ?? makePost(id.rawValue) }

    /// A server of `model` whose home lists a, the boost, b and c, holding every call the run
    /// answers.
    static func server(_ model: ServerModel<Post>) -> GatedServer {
        var model = model
        model.timelines.feeds[.home] = ["a", Self.boost, "b", "c"]
        let service = GatedServer(model)
        for kind in calls { service.hold(kind) }
        return service
    }

    /// Answers the waiting call at `index`: applied (with the server's copy), failing for lack
    /// of a connection, or refused; other calls with what the server has now.
    mutating func answer(at index: Int, _ outcome: Outcome) {
        let call = service.waiting[index]
        trace.append("server answers \(call): \(outcome)")
        guard call.interaction != nil else {
            service.answer(at: index)
            return
        }
        switch outcome {
        case .applied: service.answer(at: index)
        case .unreachable: service.lose(at: index)
        case .refused: service.failHeld(at: index, with: ServerRefusal("Not allowed."))
        }
    }

    enum Outcome: String, CustomStringConvertible {
        case applied, unreachable, refused
        var description: String { rawValue }
    }

    // MARK: Running

    mutating func run() async -> String? {
        session.root.appeared()
        for step in 0..<(20 + random.next(below: 40)) {
            var refusedKey: (PostID, InteractionKind)?
            let choice = random.next(below: 100)
            switch choice {
            case 0..<25:
                // A toggle on a row (the boost's row toggles its original).
                let rows = session.root.rows.compactMap(\.shownPost)
                guard !rows.isEmpty else { break }
                let row = rows[random.next(below: rows.count)]
                let kind = InteractionKind.allCases[random.next(below: 3)]
                trace.append("toggle \(kind) of row \(row.id)")
                if session.root.toggle(kind, row: .post(row.id)) { intent["\(row.originalID) \(kind)"]?.toggle() }
            case 25..<32:
                // A toggle in a detail, opened first when none is.
                if session.navigator.top.detail == nil {
                    let id = Self.originals[random.next(below: Self.originals.count)]
                    trace.append("open \(id)")
                    session.navigator.open(id)
                } else if let detail = session.navigator.top.detail {
                    let kind = InteractionKind.allCases[random.next(below: 3)]
                    trace.append("toggle \(kind) in the detail of \(detail.id)")
                    if detail.toggle(kind) { intent["\(detail.id) \(kind)"]?.toggle() }
                }
            case 32..<35:
                trace.append("back")
                _ = session.navigator.pop()
            case 35..<65:
                guard !service.waiting.isEmpty else { break }
                let index = random.next(below: service.waiting.count)
                let outcome: Outcome = switch random.next(below: 10) {
                case 0..<5: .applied
                case 5..<9: .unreachable
                default: .refused
                }
                if outcome == .refused, let (kind, _, id) = service.waiting[index].interaction { refusedKey = (id, kind) }
                answer(at: index, outcome)
            case 65..<72:
                // Retry sends what is queued; a refusal stays undone.
                trace.append("retry")
                session.retry()
            case 72..<88:
                let amount = [Duration.milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(7), .seconds(20), .seconds(61)][random.next(below: 7)]
                trace.append("clock advances \(amount)")
                clock.advance(by: amount)
            case 88..<92:
                // A copy arrives (an edit) with what the server has now.
                let id = Self.originals[random.next(below: Self.originals.count)]
                trace.append("copy of \(id): \(server.interactions(of: id) ?? ServerInteractions())")
                session.apply(.edited(copy(id)))
            default:
                await restart()
            }
            guard await quiesce(session, service, clock) else { return "step \(step): effects did not settle" }
            // A refusal undoes the wish: the post shows the confirmed value (the server's, for a
            // restored post not seen yet, whose entry is dropped).
            if let (id, kind) = refusedKey { intent["\(id) \(kind)"] = session.store.interaction(id)?.isOn(kind) ?? server.interactions(of: id)?.isOn(kind) }
            if verbose { trace.append("  outbox \(session.store.outbox), waiting \(service.waiting)") }
            if let problem = check() { return "step \(step): \(problem)" }
        }
        return await converge()
    }

    /// Quits and starts again: the outbox is saved; each request still out was either applied
    /// by the server or lost; a new session restores the outbox and loads its first page.
    mutating func restart() async {
        let saved = session.store.outbox
        trace.append("restart, saving \(saved)")
        while !service.waiting.isEmpty {
            let call = service.waiting[0]
            if call.interaction != nil, random.next(below: 2) == 0 {
                answer(at: 0, .applied)
            } else {
                trace.append("lost: \(call)")
                service.failHeld(at: 0, with: ServerRefusal("The connection was lost."))
            }
        }
        service = Self.server(service.model)
        clock = ManualClock()
        session = FeedSession(service: service, clock: .fixed(testNow), retryClock: clock)
        recorder = OutboxRecorder(session.store)
        session.store.restore(outbox: saved)
        session.root.appeared()
    }

    /// The server is back: it applies everything; the backoff alone sends what is queued.
    mutating func converge() async -> String? {
        trace.append("the server is back")
        for _ in 0..<1_000 {
            if !service.waiting.isEmpty {
                answer(at: random.next(below: service.waiting.count), .applied)
            } else if clock.sleeperCount > 0 {
                trace.append("clock advances 60 s")
                clock.advance(by: .seconds(60))
            } else {
                break
            }
            guard await quiesce(session, service, clock) else { return "converging: effects did not settle" }
            if let problem = check() { return "converging: \(problem)" }
        }
        guard session.store.outbox.isEmpty, service.waiting.isEmpty, clock.sleeperCount == 0 else {
            return "never converged: outbox \(session.store.outbox), waiting \(service.waiting)"
        }
        if let last = recorder.values.last, !last.isEmpty { return "the observer was last told \(last)" }
        for row in session.root.rows.compactMap(\.shownPost) {
            let flags = server.interactions(of: row.originalID) ?? ServerInteractions()
            let expected = PostInteraction(
                favourited: flags.favourited, favouritesCount: flags.favourites, reblogged: flags.reblogged, reblogsCount: flags.reblogs,
                bookmarked: flags.bookmarked, pinned: flags.pinned, muted: flags.muted, failure: row.interaction.failure)
            if row.interaction != expected { return "settled: row \(row.id) shows \(row.interaction), the server has \(flags)" }
            for kind in InteractionKind.allCases where flags.isOn(kind) != intent["\(row.originalID) \(kind)"] {
                return "settled: the server has \(row.originalID) \(kind) \(flags.isOn(kind)), the user asked for \(String(describing: intent["\(row.originalID) \(kind)"]))"
            }
        }
        return nil
    }

    // MARK: Checks

    func check() -> String? {
        var out: [String: Int] = [:]
        for call in service.waiting {
            guard let (kind, _, id) = call.interaction else { continue }
            out["\(id) \(kind)", default: 0] += 1
        }
        if let twice = out.first(where: { $0.value > 1 }) { return "two requests of \(twice.key) in flight: \(service.waiting)" }
        let outbox = session.store.outbox
        if outbox != (recorder.values.last ?? []) { return "the outbox is \(outbox), its observer was last told \(recorder.values.last ?? [])" }
        var expected: [OutboxEntry] = []
        for id in Self.originals {
            guard let state = session.store.state(id) else { continue }
            if let broken = state.checkInvariants().first { return "\(id): \(broken)" }
            for kind in InteractionKind.allCases {
                let track = state[kind]
                if track.isPending { expected.append(OutboxEntry(postID: id, kind: kind, value: track.desired)) }
                if track.desired != track.confirmed, !outbox.contains(OutboxEntry(postID: id, kind: kind, value: track.desired)) {
                    return "\(id) \(kind): desired \(track.desired) ≠ confirmed \(track.confirmed), not in the outbox \(outbox)"
                }
            }
            // What is shown agrees: pending kinds are those in the outbox.
            if let shown = session.store.interaction(id) {
                let listed = Set(outbox.filter { $0.postID == id }.map(\.kind))
                if shown.pending != listed { return "\(id) shows pending \(shown.pending), the outbox lists \(listed)" }
                if !shown.queued.isSubset(of: shown.pending) { return "\(id) shows queued \(shown.queued) beyond pending \(shown.pending)" }
            }
        }
        if outbox != expected { return "the outbox is \(outbox), the pending kinds are \(expected)" }
        // Every row and detail shows what the user last asked for.
        for row in session.root.rows.compactMap(\.shownPost) {
            for kind in InteractionKind.allCases where row.interaction.isOn(kind) != intent["\(row.originalID) \(kind)"] {
                return "row \(row.id) shows \(kind) \(row.interaction.isOn(kind)), the user asked for \(String(describing: intent["\(row.originalID) \(kind)"]))"
            }
        }
        for case .post(let detail) in session.navigator.screens {
            guard let shown = detail.current.interaction else { continue }
            for kind in InteractionKind.allCases where shown.isOn(kind) != intent["\(detail.id) \(kind)"] {
                return "the detail of \(detail.id) shows \(kind) \(shown.isOn(kind)), the user asked for \(String(describing: intent["\(detail.id) \(kind)"]))"
            }
        }
        return nil
    }
}
