@_spi(FeedService) import Feedline
import Foundation
import Synchronization
import Testing

@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport

@Suite(.timeLimit(.minutes(10))) struct SandboxScenarioTests {
    typealias Match = SandboxScenario.Match

    /// Whether each of `count` first-page requests succeeded.
    func outcomes(_ service: SandboxService, _ count: Int) async -> [Bool] {
        var results: [Bool] = []
        for _ in 0..<count {
            results.append((try? await service.page(of: .home, after: nil)) != nil)
        }
        return results
    }

    // MARK: - Faults

    @Test func theSecondPageLoadFailsTwiceThenSucceeds() async throws {
        let scenario = SandboxScenario(faults: [.init(Match(.page, occurrence: 2, times: 2))])
        let service = try SandboxService(statuses: Build.timeline(50), scenario: scenario, clock: VirtualClock())
        let first = try await service.page(of: .home, after: nil)
        for _ in 0..<2 {
            await #expect(throws: SandboxError.fault(.unavailable, request: .page)) {
                try await service.page(of: .home, after: first.next)
            }
        }
        let second = try await service.page(of: .home, after: first.next)
        #expect(second.ids == (11...30).reversed().map(String.init))
        #expect(SandboxError.fault(.unavailable, request: .page).errorDescription == "The server is unavailable right now; try again in a moment.")
    }

    @Test func aPageByCursorFailsOnceWithTheChosenError() async throws {
        let scenario = SandboxScenario(faults: [.init(Match(.page, cursor: "31", times: 1), failure: .timeout)])
        let service = try SandboxService(statuses: Build.timeline(50), scenario: scenario, clock: VirtualClock())
        _ = try await service.page(of: .home, after: nil)
        _ = try await service.page(of: .home, after: PageCursor("40"))
        do {
            _ = try await service.page(of: .home, after: PageCursor("31"))
            Issue.record("the page after 31 should fail once")
        } catch {
            #expect(FeedFailure(error).message == "The request timed out; try again.")
        }
        #expect(try await service.page(of: .home, after: PageCursor("31")).ids.first == "30")
    }

    @Test func aPostsFavouriteAlwaysFailsAndChangesNothing() async throws {
        let scenario = SandboxScenario(faults: [.init(Match(.favourite, postID: "2"), failure: .serverError)])
        let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: VirtualClock())
        for _ in 0..<5 {
            await #expect(throws: SandboxError.fault(.serverError, request: .favourite)) {
                try await service.set(.favourite, to: true, postID: "2")
            }
        }
        #expect(try await service.post("2").favourited == false)
        #expect(try await service.set(.favourite, to: true, postID: "1").favourited == true)
        #expect(try await service.set(.reblog, to: true, postID: "2").content.reblogged == true)
    }

    @Test func aReblogFailsNTimes() async throws {
        let scenario = SandboxScenario(faults: [.init(Match(.reblog, postID: "1", times: 3), failure: .rateLimited)])
        let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: VirtualClock())
        var failures = 0
        for _ in 0..<5 {
            do { _ = try await service.set(.reblog, to: true, postID: "1") } catch { failures += 1 }
        }
        #expect(failures == 3)
    }

    @Test func theFirstMatchingFaultDecidesButEveryRuleCounts() async throws {
        let scenario = SandboxScenario(faults: [
            .init(Match(.page, occurrence: 1, times: 1), failure: .timeout),
            .init(Match(.page, occurrence: 1, times: 2), failure: .forbidden),
        ])
        let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: VirtualClock())
        await #expect(throws: SandboxError.fault(.timeout, request: .page)) { try await service.page(of: .home, after: nil) }
        await #expect(throws: SandboxError.fault(.forbidden, request: .page)) { try await service.page(of: .home, after: nil) }
        _ = try await service.page(of: .home, after: nil)
    }

    // MARK: - Reactions

    /// Alice's posts 1–3 are the user's; Bob and Carol act on them once two pages were served.
    static let you = Build.account("alice")

    @Test func reactionsHappenAfterTheirPagesAndArriveAsGroupedNotifications() async throws {
        let at = Build.epoch.addingTimeInterval(3600)
        let scenario = SandboxScenario(
            reactions: [
                .init(afterPages: 2, kind: .favourite, account: "bob@example.social", postID: "2", date: at),
                .init(afterPages: 2, kind: .favourite, account: "carol@example.social", postID: "2", date: at.addingTimeInterval(60)),
                .init(afterPages: 3, kind: .reblog, account: "bob@example.social", postID: "3", date: at.addingTimeInterval(120)),
                .init(afterPages: 3, kind: .follow, account: "carol@example.social", postID: nil, date: at.addingTimeInterval(180)),
            ],
            account: Self.you
        )
        let statuses = Build.timeline(3) + [Build.status(4, author: "bob"), Build.status(5, author: "carol")]
        let service = try SandboxService(statuses: statuses, scenario: scenario, clock: VirtualClock())
        #expect(try await service.notifications(of: [], after: nil).items.isEmpty)
        #expect(try await service.post("2").favouritesCount == 0, "one page served: nothing has happened yet")
        _ = try await service.page(of: .home, after: nil)
        #expect(try await service.post("2").favouritesCount == 2)
        let first = try await service.notifications(of: [], after: nil).items
        #expect(first.map(\.summary) == ["Carol and Bob favourited your post"])
        #expect(first.first?.post?.id == "2")
        #expect(first.first?.count == 2)
        let second = try await service.notifications(of: [], after: nil).items
        #expect(second.map(\.summary) == ["Carol followed you", "Bob boosted your post", "Carol and Bob favourited your post"])
        #expect(try await service.post("3").reblogsCount == 1)
        #expect(try await service.post("3").reblogged == false, "someone else's boost does not make it the user's")
    }

    @Test(arguments: [
        (SandboxScenario.Reaction(kind: .follow, account: "nobody", postID: nil, date: Build.epoch), "reactions[0].account: no author @nobody in the fixtures"),
        (SandboxScenario.Reaction(kind: .favourite, account: "bob@example.social", postID: "99", date: Build.epoch), "reactions[0].post: no post 99 in the fixtures"),
        (SandboxScenario.Reaction(kind: .favourite, account: "bob@example.social", postID: "4", date: Build.epoch),
         "reactions[0].post: 4 is not a post by @alice@example.social, the signed-in account"),
    ])
    func aReactionNamingWhatIsNotThereIsRefused(_ reaction: SandboxScenario.Reaction, _ problem: String) throws {
        let statuses = Build.timeline(3) + [Build.status(4, author: "bob")]
        #expect(throws: SandboxError.invalidScenario(problem)) {
            try SandboxService(statuses: statuses, scenario: SandboxScenario(reactions: [reaction], account: Self.you), clock: VirtualClock())
        }
    }

    @Test func theFaultsFixtureFailsAPageOnceAndAFavouriteAlways() async throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("faults"))
        let clock = VirtualClock()
        let service = try SandboxService(fixture: fixture, clock: clock)
        #expect(service.pageSize == 5)
        let first = try await service.page(of: .home, after: nil)
        #expect(first.posts.count == 5)
        await #expect(throws: SandboxError.fault(.unavailable, request: .page)) { try await service.page(of: .home, after: first.next) }
        let second = try await service.page(of: .home, after: first.next)
        #expect(second.posts.count == 5)
        let doomed = try #require(fixture.scenario.faults.compactMap(\.match.postID).first)
        #expect(first.posts.contains { $0.id == doomed })
        for _ in 0..<3 {
            await #expect(throws: SandboxError.fault(.serverError, request: .favourite)) { try await service.set(.favourite, to: true, postID: doomed) }
        }
        #expect(clock.now.offset == .milliseconds(200 * 6), "every request waited 200 ms of virtual time")
    }

    @Test func invalidScenariosAreRejected() {
        let cases: [(SandboxScenario, String)] = [
            (SandboxScenario(faults: [.init(Match(.page, occurrence: 0))]), "faults[0].occurrence must be at least 1, not 0"),
            (SandboxScenario(faults: [.init(Match(.page, times: 0))]), "faults[0].times must be at least 1, not 0"),
            (SandboxScenario(faults: [.init(Match(.post, cursor: "1"))]), "faults[0].max_id only applies to page requests"),
            (SandboxScenario(delays: [.init(Match(.page, postID: "1"), extra: .seconds(1))]), "delays[0].post does not apply to page requests"),
            (SandboxScenario(defaultLatency: .fixed(-5)), "latency.default must not be negative"),
            (SandboxScenario(randomFaults: .init(probability: 1.5, seed: 1)), "random_faults.probability must be between 0 and 1, not 1.5"),
            (SandboxScenario(arrivals: [.init(afterPages: 0, statuses: [])]), "arrivals[0].after_pages must be at least 1, not 0"),
        ]
        for (scenario, problem) in cases {
            #expect(scenario.problem == problem)
            #expect(throws: SandboxError.invalidScenario(problem)) {
                _ = try SandboxService(statuses: Build.timeline(1), scenario: scenario, clock: VirtualClock())
            }
        }
        #expect(SandboxError.invalidScenario("x").errorDescription == "The sandbox scenario is invalid: x.")
    }

    // MARK: - Latency

    @Test func aRequestDoesNotCompleteBeforeTheClockAdvances() async throws {
        let clock = ManualClock()
        let service = try SandboxService(
            statuses: Build.timeline(30), scenario: SandboxScenario(defaultLatency: .fixed(300)), clock: clock
        )
        let finished = Locked(false)
        let request = Task {
            let page = try await service.page(of: .home, after: nil)
            finished.withLock { $0 = true }
            return page
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 1, "still waiting at 299 ms")
        #expect(finished.withLock { $0 } == false)
        clock.advance(by: .milliseconds(1))
        let page = try await request.value
        #expect(page.posts.count == 20)
        #expect(clock.requestedSleeps == [.milliseconds(300)])
    }

    @Test func latencyIsPerKindOfRequestAndDelaysAddToIt() async throws {
        let clock = ManualClock()
        let scenario = SandboxScenario(
            latency: [.favourite: .fixed(50), .post: .none],
            defaultLatency: .fixed(200),
            delays: [.init(Match(.page, occurrence: 2, times: 1), extra: .seconds(3))]
        )
        let service = try SandboxService(statuses: Build.timeline(30), scenario: scenario, clock: clock)

        func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
            let task = Task { try await body() }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(10))
            return try await task.value
        }
        let first = try await run { try await service.page(of: .home, after: nil) }
        _ = try await run { try await service.page(of: .home, after: first.next) }
        _ = try await run { try await service.page(of: .home, after: nil) }
        _ = try await run { try await service.set(.favourite, to: true, postID: "3") }
        _ = try await service.post("3")
        #expect(clock.requestedSleeps == [.milliseconds(200), .milliseconds(3200), .milliseconds(200), .milliseconds(50)])
    }

    @Test func noLatencyNeverTouchesTheClock() async throws {
        let clock = ManualClock()
        let service = try SandboxService(statuses: Build.timeline(3), clock: clock)
        _ = try await service.page(of: .home, after: nil)
        _ = try await service.set(.reblog, to: true, postID: "1")
        #expect(clock.requestedSleeps.isEmpty)
    }

    @Test func rangedLatencyIsSeededAndStaysInRange() async throws {
        func sleeps(seed: UInt64) async throws -> [Duration] {
            let clock = ManualClock()
            let scenario = SandboxScenario(defaultLatency: SandboxScenario.Latency(milliseconds: 150...400), latencySeed: seed)
            let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: clock)
            for _ in 0..<30 {
                let task = Task { try await service.page(of: .home, after: nil) }
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(1))
                _ = try await task.value
            }
            return clock.requestedSleeps
        }
        let first = try await sleeps(seed: 7)
        #expect(first.count == 30)
        #expect(first.allSatisfy { $0 >= .milliseconds(150) && $0 <= .milliseconds(400) })
        #expect(Set(first).count > 10)
        #expect(try await sleeps(seed: 7) == first)
        #expect(try await sleeps(seed: 8) != first)
    }

    @Test func cancellingDuringLatencyEndsTheRequestWithoutEffect() async throws {
        let clock = ManualClock()
        let service = try SandboxService(
            statuses: Build.timeline(3), scenario: SandboxScenario(defaultLatency: .fixed(500)), clock: clock
        )
        let task = Task { try await service.set(.favourite, to: true, postID: "2") }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        clock.advance(by: .seconds(1))
        let check = Task { try await service.post("2") }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await check.value.favourited == false)
    }

    @Test func theTimelineFixtureLoadsVisiblyButWithoutFaults() throws {
        let fixture = try FixtureLoader.load(from: try FixturePaths.directory("timeline"))
        let scenario = fixture.scenario
        #expect(scenario.latency(for: .page).milliseconds == 150...400)
        #expect(scenario.faults.isEmpty && scenario.delays.isEmpty && scenario.randomFaults == nil)
        #expect(scenario.laggingCounts == false)
        #expect(scenario.account.acct == "you")
    }

    // MARK: - Random faults

    @Test func seededRandomFaultsAreReproducible() async throws {
        func pattern(seed: UInt64, probability: Double = 0.5) async throws -> [Bool] {
            let scenario = SandboxScenario(randomFaults: .init(probability: probability, seed: seed, requests: [.page]))
            let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: VirtualClock())
            return await outcomes(service, 64)
        }
        let first = try await pattern(seed: 42)
        #expect(first.contains(true) && first.contains(false))
        #expect(try await pattern(seed: 42) == first)
        #expect(try await pattern(seed: 43) != first)
        #expect(try await pattern(seed: 42, probability: 0).allSatisfy { $0 })
        #expect(try await pattern(seed: 42, probability: 1).allSatisfy { !$0 })
    }

    @Test func randomFaultsOnlyHitTheListedKinds() async throws {
        let scenario = SandboxScenario(randomFaults: .init(probability: 1, seed: 1, requests: [.favourite], failure: .rateLimited))
        let service = try SandboxService(statuses: Build.timeline(3), scenario: scenario, clock: VirtualClock())
        _ = try await service.page(of: .home, after: nil)
        _ = try await service.set(.reblog, to: true, postID: "1")
        await #expect(throws: SandboxError.fault(.rateLimited, request: .favourite)) { try await service.set(.favourite, to: true, postID: "1") }
    }
}
