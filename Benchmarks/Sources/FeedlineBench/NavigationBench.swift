@_spi(Benchmarks) @_spi(FeedService) import Feedline
import FeedlineMastodon
import Foundation
import Synchronization

/// Screens on the navigator: the cost of pushing a list screen, loading its first page and
/// popping it, the heap left behind by 10,000 such cycles, and how a toggle's cost grows with
/// the number of list screens that show the post (linearly: each list learns of it in O(1)).
enum NavigationBench {
    static let cycles = 10_000

    @MainActor
    static func run(_ options: Options) async -> [Result] {
        var results: [Result] = []
        if let cycle = await pushPop(options) { results.append(cycle) }
        results += await fanOut(options)
        return results
    }

    // MARK: - Push, first page, pop

    /// The bundled sandbox without latency (so its clock is never slept on), every effect on the
    /// main queue; or why it could not be made.
    @MainActor
    static func sandboxSession() -> Swift.Result<FeedSession, SandboxUnavailable> {
        guard let directory = FixtureLocator.bundled(executable: URL(fileURLWithPath: #filePath)) else {
            return .failure(SandboxUnavailable(reason: "the bundled fixtures (Fixtures/timeline) were not found"))
        }
        do {
            var fixture = try FixtureLoader.load(from: directory)
            fixture.scenario.defaultLatency = .none
            fixture.scenario.latency = [:]
            let service = try SandboxService(fixture: fixture, clock: ContinuousClock())
            return .success(FeedSession(service: service, clock: .fixed(Posts.now), executor: BenchmarkHooks.mainQueueExecutor()))
        } catch {
            return .failure(SandboxUnavailable(reason: "the bundled fixtures (\(directory.path)) did not load: \(error)"))
        }
    }

    /// Why the bundled sandbox could not be made.
    struct SandboxUnavailable: Error {
        var reason: String
    }

    @MainActor
    static func pushPop(_ options: Options) async -> Result? {
        progress("navigation push + first page + pop")
        let session: FeedSession
        switch sandboxSession() {
        case .success(let made): session = made
        case .failure(let unavailable): return Result(name: "navigation.push+page+pop", skipped: unavailable.reason)
        }
        session.root.appeared()
        await session.settle()
        let routes: [Route] = [.list(.feed(.tag("birds"))), .list(.feed(.account(AccountID(handle: "kemi@fieldnotes.science")))), .list(.notifications)]
        func cycle(_ index: Int) async {
            session.navigator.push(routes[index % routes.count])
            await session.settle()
            expect(session.navigator.top.list?.rows.isEmpty == false, "navigation: the pushed list loaded no rows")
            session.navigator.pop()
            await session.settle()
        }
        // Warm up: every route once, the store's cache filled, the account looked up.
        for index in 0..<300 { await cycle(index) }
        let batches = options.rounds(25, quick: 5)
        let perBatch = 100
        var samples: [Double] = []
        for batch in 0..<batches {
            let start = ContinuousClock.now
            for index in 0..<perBatch { await cycle(batch * perBatch + index) }
            samples.append((ContinuousClock.now - start).milliseconds / Double(perBatch))
        }
        // Heap after 10,000 more cycles, against before them.
        let cycles = options.quick ? 1_000 : Self.cycles
        let heapBefore = RelayBench.heapInUse()
        for index in 0..<cycles { await cycle(index) }
        let heapAfter = RelayBench.heapInUse()
        expect(session.navigator.depth == 1, "navigation: the stack is back at the root")
        return Result(
            name: "navigation.push+page+pop", oursMilliseconds: median(samples), peer: nil, peerMilliseconds: nil,
            note: String(
                format: "one cycle (tag, profile, notifications in turn; zero latency): %.0f µs; heap after %d more cycles: %+d bytes (store cache capacity 1,000 posts; the fixtures have fewer)",
                median(samples) * 1000, cycles, heapAfter - heapBefore
            )
        )
    }

    // MARK: - Toggle fan-out across list screens

    /// `lists` list view models over one store (the session's: one root and the rest pushed on its
    /// stack), each showing the post once among `rows` rows.
    @MainActor
    final class FanOut {
        let session: FeedSession
        let lists: [FeedListViewModel]
        let updates: [Seen]
        private var tokens: [Subscription] = []
        let target: PostID

        init(lists count: Int, rows: Int) async {
            let posts = Posts.make(rows, from: 0)
            target = posts[rows / 2].id
            let service = InstantService(initial: posts, pages: [])
            session = FeedSession(service: service, clock: .fixed(Posts.now), root: .tag("t0"))
            for index in 1..<max(1, count) { session.navigator.push(.list(.feed(.tag("t\(index)")))) }
            let lists = session.navigator.screens.compactMap(\.list)
            var updates: [Seen] = []
            for list in lists {
                let seen = Seen()
                tokens.append(list.snapshot.subscribe { snapshot in seen.last.withLock { $0 = snapshot.changes.updates.map(\.newIndex) } })
                list.appeared()
                updates.append(seen)
            }
            self.lists = lists
            self.updates = updates
            await session.settle()
        }

        /// Milliseconds from a toggle on the first list to every list having published its row's update.
        func toggle() async -> Double {
            for seen in updates { seen.last.withLock { $0 = [] } }
            let (_, milliseconds) = timed { _ = lists[0].toggle(.favourite, row: .post(target)) }
            let expected = [lists[0].rows.count / 2]
            for (index, seen) in updates.enumerated() {
                let got = seen.last.withLock { $0 }
                expect(got == expected, "fan-out: list \(index) updated \(got), expected \(expected)")
            }
            await session.settle()
            return milliseconds
        }
    }

    @MainActor
    static func fanOut(_ options: Options) async -> [Result] {
        progress("toggle across list screens")
        let two = await FanOut(lists: 2, rows: 1_000)
        let twenty = await FanOut(lists: 20, rows: 1_000)
        let twentyLarge = await FanOut(lists: 20, rows: 10_000)
        let warmup = 3
        let rounds = options.rounds(31, quick: 5)
        var samples: [[Double]] = [[], [], []]
        let fixtures = [two, twenty, twentyLarge]
        for round in 0..<(warmup + rounds) {
            let order = round.isMultiple(of: 2) ? [0, 1, 2] : [2, 1, 0]
            for index in order {
                let milliseconds = await fixtures[index].toggle()
                if round >= warmup { samples[index].append(milliseconds) }
            }
        }
        return [
            Result(name: "toggle.2lists@1k", oursMilliseconds: median(samples[0]), peer: nil, peerMilliseconds: nil,
                   note: "2 list screens, each showing the post once among 1,000 rows: toggle → both updates published"),
            Result(name: "toggle.20lists@1k", oursMilliseconds: median(samples[1]), peer: "toggle.2lists@1k", peerMilliseconds: median(samples[0]),
                   note: "O(lists): ratio ≈ 10 for 10× the lists (O(lists × rows) would be the same ≈ 10 here; the next line separates them)"),
            Result(name: "toggle.20lists@10k", oursMilliseconds: median(samples[2]), peer: "toggle.20lists@1k", peerMilliseconds: median(samples[1]),
                   note: "O(lists), not O(lists × rows): ratio ≈ 1 for 10× the rows"),
        ]
    }
}
