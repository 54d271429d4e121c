import Dispatch
@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A task executor that runs every job on a serial queue of its own, off the main thread: a
/// session given one (`FeedSession(executor:)`) runs its effects' nonisolated work there, and a
/// wait an effect begins may hop there before it registers.
final class SerialQueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "feedline-test.task-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension GatedServer {
    /// Alice's and Bob's profiles, their pages (one post each) and their relationships, each
    /// call held until the test answers it.
    static func heldProfiles() -> GatedServer {
        var model = ServerModel<Post>()
        for author in [alice, bob] {
            let post = makePost("by-\(author.id)", minutesAgo: 1, author: author)
            model.add([post])
            model.timelines.feeds[.account(AccountID(author.id))] = [post.id]
            model.relationships.profiles[AccountID(author.id)] = Profile(author: author)
        }
        let server = GatedServer(model)
        server.hold(.page, .profile, .relationships)
        return server
    }
}

/// Returns whether `session` settled within `limit` — a safety net far longer than any healthy
/// settle (milliseconds), so that a wait that is never woken fails the test instead of hanging it.
@MainActor
func settles(_ session: FeedSession, within limit: Duration = .seconds(120)) async -> Bool {
    let outcome = Locked<CheckedContinuation<Bool, Never>?>(nil)
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        outcome.withLock { $0 = continuation }
        let deadline = Task {
            try? await Task.sleep(for: limit)
            outcome.withLock { $0.take() }?.resume(returning: false)
        }
        Task { @MainActor in
            await session.settle()
            deadline.cancel()
            outcome.withLock { $0.take() }?.resume(returning: true)
        }
    }
}

@MainActor
@Suite("A profile's list with a task executor", .timeLimit(.minutes(10)))
struct ProfileSettleTests {
    /// How many runs: `FEEDLINE_PROFILE_RUNS` when set, else 300.
    static let runs = ProcessInfo.processInfo.environment["FEEDLINE_PROFILE_RUNS"].flatMap(Int.init) ?? 300

    @Test("your own profile, then another: whatever order the six answers come in, both lists load and the session settles")
    func twoProfilesSettle() async {
        let base = testSeed(0x5052_4F46)
        print("Profile settle: \(Self.runs) runs from seed \(base) (FEEDLINE_SEED=<seed> FEEDLINE_PROFILE_RUNS=1 replays one)")
        for run in 0..<Self.runs {
            let seed = base &+ UInt64(run)
            var random = SeededGenerator(seed: seed)
            let server = GatedServer.heldProfiles()
            let session = FeedSession(service: server, clock: .fixed(testNow), executor: SerialQueueExecutor(), retryClock: ManualClock())
            session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
            session.navigator.top.list?.appeared()
            for _ in 0..<random.next(below: 8) { await Task.yield() }
            session.navigator.push(.list(.feed(.account(AccountID(bob.id)))))
            session.navigator.top.list?.appeared()
            // Two profiles, two relationships, two pages: answered as they come, in a seeded order.
            var answered: [String] = []
            for _ in 0..<6 {
                await server.held.waitFor(1)
                let index = random.next(below: server.held.count)
                answered.append(server.held.calls[index].description)
                server.answerHeld(at: index)
                for _ in 0..<random.next(below: 4) { await Task.yield() }
            }
            let settled = await settles(session)
            let lists = session.navigator.screens.compactMap(\.list).dropFirst()
            let loaded = lists.allSatisfy { $0.rows.count == 1 && $0.status.loading == nil && $0.profile?.current.profile != nil }
            #expect(settled && loaded, "seed \(seed) (FEEDLINE_SEED=\(seed) FEEDLINE_PROFILE_RUNS=1 replays it), answered \(answered): settled \(settled), \(lists.map { "\($0.source): \($0.rows.count) rows, loading \(String(describing: $0.status.loading))" })")
            if !settled || !loaded { break }
        }
    }
}
