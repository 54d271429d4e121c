@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Seeded random walks through the navigator: pushes of every route, pops, `top`, root
/// switches, toggles of every kind on rows at any depth and on details, loads, retries, and the
/// server answering in random order with random failures. After every step every row and
/// detail on the stack that shows a post shows the store's state for it; after settling, the
/// store equals the server; no post and kind ever had two requests in flight; after popping to
/// the root, nothing of a popped screen is alive.
@MainActor
@Suite("Navigation model check", .timeLimit(.minutes(30)))
struct NavigationModelCheckTests {
    /// How many walks: `FEEDLINE_WALKS` when set, else 5,000.
    static let walks = ProcessInfo.processInfo.environment["FEEDLINE_WALKS"].flatMap(Int.init) ?? 5_000

    static let feeds: [Feed] = [
        .home, .local, .public, .tag("t0"), .tag("t1"), .bookmarks, .favourites,
        .account(AccountID("a1")), .account(AccountID(handle: "author2@model.example")),
    ]

    /// Waits until every running effect of `session` waits in `server` (no sleeping: yields
    /// until the counts agree, bounded so a bug fails instead of hanging). One effect may wait
    /// for two calls (a thread's post and context), so effects are counted, not calls.
    static func quiesce(_ session: FeedSession, _ server: ModelServer) async -> Bool {
        for _ in 0..<100_000 {
            if session.activity.running == server.waitingEffects { return true }
            await Task.yield()
        }
        return false
    }

    /// Where the stack shows a post with other state than the store's, as sentences.
    static func inconsistencies(_ session: FeedSession) -> [String] {
        var problems: [String] = []
        for (depth, screen) in session.navigator.screens.enumerated() {
            switch screen {
            case .list(let list):
                for row in list.rows {
                    guard let post = row.shownPost else { continue }
                    let stored = session.store.interaction(post.originalID)
                    if stored != post.interaction {
                        problems.append("screen \(depth) (\(list.source)) row \(row.id) shows \(post.interaction), the store \(String(describing: stored))")
                    }
                }
            case .post(let detail):
                guard let shown = detail.current.interaction else { continue }
                let id = session.store.originalID(of: detail.id) ?? detail.id
                let stored = session.store.interaction(id)
                if stored != shown {
                    problems.append("screen \(depth) (post \(detail.id)) shows \(shown), the store \(String(describing: stored))")
                }
            }
        }
        return problems
    }

    /// One walk of `steps` random steps from `seed`; the first problem found, or `nil`.
    static func walk(seed: UInt64, steps: Int) async -> String? {
        var random = SeededGenerator(seed: seed)
        let server = ModelServer(expecting: .all)
        // A retry clock nobody advances: interactions queued for lack of a connection are sent
        // again only by retry (a step, and the settling below), never by real time.
        let live = FeedSession(service: server, clock: .fixed(ModelServer.epoch), cacheCapacity: 8, retryClock: ManualClock())
        var everyScreen: [() -> AnyObject?] = []
        func remember(_ screen: Screen) {
            switch screen {
            case .list(let list):
                weak let weakList = list
                everyScreen.append { weakList }
            case .post(let detail):
                weak let weakDetail = detail
                everyScreen.append { weakDetail }
            }
        }
        live.root.appeared()
        remember(live.navigator.top)
        let kinds = InteractionKind.allCases

        for step in 0..<steps {
            let navigator = live.navigator
            let choice = random.next(below: 100)
            switch choice {
            case 0..<16:
                // Push any route; deeper stacks get rarer, but any depth is reachable.
                guard navigator.depth < 4 + random.next(below: 12) else { break }
                let route: Route = switch random.next(below: 4) {
                case 0: .list(.feed(feeds[random.next(below: feeds.count)]))
                case 1: .list(.thread(ModelServer.originals[random.next(below: ModelServer.originals.count)]))
                case 2: .list(.notifications)
                default: .post(random.next(below: 5) == 0 ? "b3" : ModelServer.originals[random.next(below: ModelServer.originals.count)])
                }
                navigator.push(route)
                remember(navigator.top)
            case 16..<24:
                navigator.pop()
            case 24..<27:
                navigator.popToRoot()
            case 27..<29:
                navigator.replaceRoot(feeds[random.next(below: feeds.count)])
                remember(navigator.top)
            case 29..<52:
                // Toggle on a row of any list on the stack, at any depth.
                let lists = navigator.screens.compactMap(\.list)
                let list = lists[random.next(below: lists.count)]
                let rows = list.rows.filter { $0.shownPost != nil }
                if !rows.isEmpty {
                    _ = list.toggle(kinds[random.next(below: kinds.count)], row: rows[random.next(below: rows.count)].id)
                }
            case 52..<60:
                let details = navigator.screens.compactMap(\.detail)
                if !details.isEmpty { _ = details[random.next(below: details.count)].toggle(kinds[random.next(below: kinds.count)]) }
            case 60..<66:
                let lists = navigator.screens.compactMap(\.list)
                let list = lists[random.next(below: lists.count)]
                if random.next(below: 3) == 0 { list.refresh() } else { list.loadMore() }
            case 66..<70:
                _ = live.retry()
            default:
                // The server answers some waiting calls, in random order, some failing.
                for _ in 0..<(1 + random.next(below: 3)) where server.pendingCount > 0 {
                    server.answer(at: random.next(below: server.pendingCount), failing: random.next(below: 100) < 15)
                }
            }
            guard await quiesce(live, server) else { return "step \(step) (choice \(choice)): effects did not settle (\(live.activity.running) running, waiting: \(server.pendingCalls))" }
            if let problem = inconsistencies(live).first { return "step \(step): \(problem)" }
            if let violation = server.violations.first { return "step \(step): \(violation)" }
        }

        // Settle: the server answers everything, without failures, until nothing runs; what
        // waits in the outbox is retried.
        var rounds = 0
        while server.pendingCount > 0 || live.activity.running > 0 || !live.store.outbox.isEmpty {
            rounds += 1
            if rounds > 10_000 { return "never settled: \(server.pendingCalls)" }
            if server.pendingCount == 0, live.activity.running == 0 { live.retry() }
            while server.pendingCount > 0 { server.answer(at: random.next(below: server.pendingCount), failing: false) }
            guard await quiesce(live, server) else { return "effects did not settle at the end (\(server.pendingCalls))" }
        }
        if let problem = inconsistencies(live).first { return "settled: \(problem)" }
        if let violation = server.violations.first { return violation }
        // Everything the stack shows equals the server, flags and counts.
        for screen in live.navigator.screens {
            let shown: [PostInteraction] = switch screen {
            case .list(let list): list.rows.compactMap(\.shownPost).map(\.interaction)
            case .post(let detail): detail.current.interaction.map { [$0] } ?? []
            }
            let ids: [PostID] = switch screen {
            case .list(let list): list.rows.compactMap(\.shownPost).map(\.originalID)
            case .post(let detail): [ModelServer.original(of: detail.id)]
            }
            for (id, interaction) in zip(ids, shown) {
                guard let server = server.flags(id) else { continue }
                let agrees = interaction.favourited == server.favourited && interaction.reblogged == server.reblogged
                    && interaction.bookmarked == server.bookmarked && interaction.favouritesCount == server.favourites
                    && interaction.reblogsCount == server.reblogs && interaction.pending.isEmpty
                if !agrees { return "settled: \(screen.route) shows \(id) as \(interaction), the server has \(server)" }
            }
        }
        // Back to the root: nothing of a popped screen is alive.
        live.navigator.popToRoot()
        let root = live.navigator.root
        for (index, screen) in everyScreen.enumerated() {
            if let alive = screen(), alive !== root {
                return "after top, screen \(index) created during the walk is alive: \(alive)"
            }
        }
        return nil
    }

    @Test("random walks through every route keep every screen consistent with the store and the store with the server")
    func walks() async {
        let base = testSeed(0x4E41_5649)
        print("Navigation model check: \(Self.walks) walks from seed \(base) (FEEDLINE_SEED replays)")
        var failures: [String] = []
        for walk in 0..<Self.walks {
            let seed = base &+ UInt64(walk)
            if let problem = await Self.walk(seed: seed, steps: 24 + Int(seed % 17)) {
                failures.append("seed \(seed) (FEEDLINE_SEED=\(seed) FEEDLINE_WALKS=1 replays it): \(problem)")
                if failures.count >= 3 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
