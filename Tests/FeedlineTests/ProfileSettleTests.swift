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

/// Profiles, their pages and their relationships, each held until the test answers it.
final class HeldProfiles: EmptyReads, Sendable {
    enum Call: Sendable, CustomStringConvertible {
        case page(Feed)
        case profile(AccountID)
        case relationships([AccountID])

        var description: String {
            switch self {
            case .page(let feed): "page(\(feed))"
            case .profile(let id): "profile(\(id))"
            case .relationships(let ids): "relationships(\(ids))"
            }
        }
    }

    enum Answer: Sendable {
        case page(Page<Post>)
        case profile(Profile)
        case relationships([Relationship])
    }

    let held = HeldCalls<Call, Answer>()
    let authors = [alice, bob]

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        guard case .page(let page) = try await held.hold(.page(feed)) else { throw NothingHere() }
        return page
    }

    func profile(of account: AccountID) async throws -> Profile {
        guard case .profile(let profile) = try await held.hold(.profile(account)) else { throw NothingHere() }
        return profile
    }

    func relationships(of accounts: [AccountID]) async throws -> [Relationship] {
        guard case .relationships(let found) = try await held.hold(.relationships(accounts)) else { throw NothingHere() }
        return found
    }

    /// Answers the call waiting at `index`: an account's page holds one post of theirs.
    func answer(at index: Int) {
        guard let taken = held.take(at: index) else { return }
        switch taken.call {
        case .page(let feed):
            guard case .account(let id) = feed, let author = authors.first(where: { $0.id == id.rawValue }) else {
                taken.answer(.page(Page(posts: [], next: nil)))
                return
            }
            taken.answer(.page(Page(posts: [makePost("by-\(author.id)", minutesAgo: 1, author: author)], next: nil)))
        case .profile(let id):
            taken.answer(.profile(Profile(author: authors.first { $0.id == id.rawValue } ?? bob)))
        case .relationships(let ids):
            taken.answer(.relationships(ids.map { Relationship(accountID: $0) }))
        }
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
            let server = HeldProfiles()
            let session = FeedSession(service: server, clock: .fixed(testNow), executor: SerialQueueExecutor(), retryClock: ManualClock())
            session.navigator.push(.feed(.account(AccountID(alice.id))))
            session.navigator.top.list?.appeared()
            for _ in 0..<random.next(below: 8) { await Task.yield() }
            session.navigator.push(.feed(.account(AccountID(bob.id))))
            session.navigator.top.list?.appeared()
            // Two profiles, two relationships, two pages: answered as they come, in a seeded order.
            var answered: [String] = []
            for _ in 0..<6 {
                await server.held.waitFor(1)
                let index = random.next(below: server.held.count)
                answered.append(server.held.calls[index].description)
                server.answer(at: index)
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
