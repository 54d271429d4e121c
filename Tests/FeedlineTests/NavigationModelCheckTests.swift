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
    static func quiesce(_ session: FeedSession, _ server: GatedServer) async -> Bool {
        for _ in 0..<100_000 {
            if session.activity.running == server.held.waitingEffects { return true }
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
        let server = NavigationModel.server()
        // A retry clock nobody advances: interactions queued for lack of a connection are sent
        // again only by retry (a step, and the settling below), never by real time.
        let live = FeedSession(service: server, clock: .fixed(NavigationModel.epoch), cacheCapacity: 8, retryClock: ManualClock())
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
                case 1: .list(.thread(NavigationModel.originals[random.next(below: NavigationModel.originals.count)]))
                case 2: .list(.notifications)
                default: .post(random.next(below: 5) == 0 ? "b3" : NavigationModel.originals[random.next(below: NavigationModel.originals.count)])
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
                // The server answers some waiting calls, in random order, some failing for lack of
                // a connection.
                for _ in 0..<(1 + random.next(below: 3)) where server.held.count > 0 {
                    let index = random.next(below: server.held.count)
                    if random.next(below: 100) < 15 { server.lose(at: index) } else { server.answer(at: index) }
                }
            }
            guard await quiesce(live, server) else { return "step \(step) (choice \(choice)): effects did not settle (\(live.activity.running) running, waiting: \(server.waiting))" }
            if let problem = inconsistencies(live).first { return "step \(step): \(problem)" }
            // Every call waits until answered, so two requests in flight at once both wait here.
            if let violation = server.twoInteractionsWaiting { return "step \(step): \(violation)" }
        }

        // Settle: the server answers everything, without failures, until nothing runs; what
        // waits in the outbox is retried.
        var rounds = 0
        while server.held.count > 0 || live.activity.running > 0 || !live.store.outbox.isEmpty {
            rounds += 1
            if rounds > 10_000 { return "never settled: \(server.waiting)" }
            if server.held.count == 0, live.activity.running == 0 { live.retry() }
            while server.held.count > 0 { server.answer(at: random.next(below: server.held.count)) }
            guard await quiesce(live, server) else { return "effects did not settle at the end (\(server.waiting))" }
            if let violation = server.twoInteractionsWaiting { return "settling: \(violation)" }
        }
        if let problem = inconsistencies(live).first { return "settled: \(problem)" }
        // Everything the stack shows equals the server, flags and counts.
        for screen in live.navigator.screens {
            let shown: [PostInteraction] = switch screen {
            case .list(let list): list.rows.compactMap(\.shownPost).map(\.interaction)
            case .post(let detail): detail.current.interaction.map { [$0] } ?? []
            }
            let ids: [PostID] = switch screen {
            case .list(let list): list.rows.compactMap(\.shownPost).map(\.originalID)
            case .post(let detail): [server.model.original(of: detail.id)?.id ?? detail.id]
            }
            for (id, interaction) in zip(ids, shown) {
                guard let server = server.model.interactions(of: id) else { continue }
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

/// The navigation model check's server: a ``GatedServer`` holding every call it serves until
/// the walk answers it, in any order, from its model then — the reference the view models are
/// compared with.
///
/// Sixteen original posts by four authors (threads: p2 → p1, p3 → p2, p6 → p5, p9 → p5), three
/// tags, two boost entries in home, five notification groups; favourite, boost and bookmark
/// change the model when their call is answered (and the favourites and bookmarks feeds with
/// it). An account's profile and a hashtag are refused at once; any other kind of call fails the
/// test.
enum NavigationModel {
    static let authors = (0..<4).map { Author(id: "a\($0)", displayName: "Author \($0)", handle: "author\($0)@model.example") }
    static let originals: [PostID] = (1...16).map { PostID("p\($0)") }
    static let replyTo: [PostID: PostID] = ["p2": "p1", "p3": "p2", "p6": "p5", "p9": "p5"]
    /// Boost entries: id → (original, booster).
    static let boosts: [PostID: (PostID, Int)] = ["b3": ("p3", 1), "b7": ("p7", 2)]
    static let tags = ["t0", "t1", "t2"]
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    /// The calls the server serves, each held until the walk answers it.
    static let calls: [GatedCall.Kind] = [.page, .newer, .notifications, .newerNotifications, .post, .context, .interaction]

    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        let posts = originals.enumerated().map { index, id in
            let number = number(id)
            return Post(
                id: id, author: authors[number % authors.count], text: "post \(number)",
                createdAt: epoch.addingTimeInterval(Double(number) * 60),
                repliesCount: replyTo.values.filter { $0 == id }.count,
                reblogsCount: 3 + (index % 7 == 0 ? 1 : 0), favouritesCount: 10 + index + (index % 5 == 0 ? 1 : 0),
                favourited: index % 5 == 0, reblogged: index % 7 == 0, bookmarked: index % 4 == 1,
                tags: [tags[number % tags.count]], inReplyToID: replyTo[id]
            )
        }
        let boostEntries = boosts.map { id, boost in
            Post(
                id: id, author: authors[boost.1], text: "", createdAt: epoch.addingTimeInterval(Double(20 + number(boost.0)) * 60),
                reblog: posts.first { $0.id == boost.0 }
            )
        }
        var model = ServerModel(posts + boostEntries)
        let newestFirst = Array(originals.reversed())
        model.timelines.feeds[.home] = ["b7", "b3"] + newestFirst
        for feed: Feed in [.local, .public, .trending] { model.timelines.feeds[feed] = newestFirst }
        for tag in tags { model.timelines.feeds[.tag(tag)] = newestFirst.filter { Self.tags[number($0) % Self.tags.count] == tag } }
        for (index, author) in authors.enumerated() {
            let boosted = boosts.filter { $0.value.1 == index }.keys.sorted { $0.rawValue < $1.rawValue }
            let own = newestFirst.filter { number($0) % authors.count == index }
            model.timelines.feeds[.account(AccountID(author.id))] = boosted + own
            model.timelines.feeds[.account(AccountID(handle: author.handle))] = boosted + own
        }
        model.timelines.feeds[.bookmarks] = posts.reversed().filter(\.bookmarked).map(\.id)
        model.timelines.feeds[.favourites] = posts.reversed().filter(\.favourited).map(\.id)
        func post(_ id: PostID) -> Post? { posts.first { $0.id == id } }
        model.timelines.notifications = [
            NotificationGroup(id: "g1", kind: .favourite, accounts: [authors[1], authors[2]], count: 2, post: post("p1"),
                              latestAt: epoch.addingTimeInterval(9000), newestID: "n9", oldestID: "n8"),
            NotificationGroup(id: "g2", kind: .reblog, accounts: [authors[3]], count: 1, post: post("p2"),
                              latestAt: epoch.addingTimeInterval(8000), newestID: "n7"),
            NotificationGroup(id: "g3", kind: .follow, accounts: [authors[0]], count: 1,
                              latestAt: epoch.addingTimeInterval(7000), newestID: "n6"),
            NotificationGroup(id: "g4", kind: .mention, accounts: [authors[2]], count: 1, post: post("p9"),
                              latestAt: epoch.addingTimeInterval(6000), newestID: "n5"),
            NotificationGroup(id: "g5", kind: .favourite, accounts: [authors[0]], count: 1, post: post("p3"),
                              latestAt: epoch.addingTimeInterval(5000), newestID: "n4"),
        ]
        let server = GatedServer(model, pageSize: 4, sourceLocation: sourceLocation)
        for kind in calls { server.hold(kind) }
        // An account's profile and a hashtag's header are not in this model: refused at once.
        server.fail(.profile, .tag, with: AccountsUnsupported())
        return server
    }

    private static func number(_ id: PostID) -> Int { Int(id.rawValue.dropFirst()) ?? 0 }
}
