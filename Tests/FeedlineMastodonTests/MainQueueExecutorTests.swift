@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

@Suite("Main-queue task executor")
struct MainQueueExecutorTests {
    @MainActor
    private func run(executor: (any TaskExecutor)?) async throws -> [ListRow] {
        let fixture = try FixtureLoader.load(from: FixturePaths.directory("timeline"))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock(), wallClock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)))
        let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), executor: executor)
        session.root.appeared()
        await session.settle()
        session.root.loadMore()
        await session.settle()
        let first = try #require(session.root.rows.first?.post)
        session.root.toggle(.favourite, row: .post(first.id))
        // Settled before the post is opened: otherwise the detail's fetch races the favourite on
        // the sandbox, and which copy of the post's raw count the store keeps (the displayed
        // count is the same either way) depends on which request the sandbox served first.
        await session.settle()
        session.navigator.open(first.id)
        await session.settle()
        session.root.refresh()
        await session.settle()
        return Array(session.root.rows)
    }

    @Test("a session whose effects prefer the main queue ends where the default one does")
    func sameOutcome() async throws {
        let preferred = try await run(executor: MainQueueTaskExecutor())
        let global = try await run(executor: nil)
        #expect(preferred == global)
        #expect(preferred.count > 40)
        #expect(preferred.contains { $0.post?.interaction.favourited == true })
    }
}
