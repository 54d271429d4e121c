@_spi(FeedService) import Feedline
import Foundation

/// A stack of 20 lists of n rows each, in which one account's posts are 5 rows of every list: a
/// block of that account must take exactly those rows off every list, at a cost that grows with
/// the rows of the account (100), not with the rows on the stack (20 n).
@MainActor
final class BlockFixture {
    static let lists = 20
    static let blocked = Author(id: "77", displayName: "Blocked", handle: "blocked@example.social")
    let n: Int
    let session: FeedSession
    let models: [FeedListViewModel]

    init(n: Int) async {
        self.n = n
        var posts = Posts.make(n, from: 0)
        for position in Self.positions(n) {
            let post = posts[position]
            posts[position] = Post(id: post.id, author: Self.blocked, text: post.text, createdAt: post.createdAt)
        }
        // No page after the first, and no relationship writes: the block is refused, which puts
        // every row back for the next round.
        let service = InstantService(initial: posts, pages: [])
        session = FeedSession(service: service, clock: .fixed(Posts.now))
        session.root.appeared()
        for _ in 1..<Self.lists { session.navigator.push(.list(.feed(.local))) }
        await session.settle()
        models = session.navigator.screens.compactMap { if case .list(let list) = $0 { list } else { nil } }
        expect(models.count == Self.lists && models.allSatisfy { $0.rows.count == n }, "block fixture: lists of \(models.map(\.rows.count))")
    }

    static func positions(_ n: Int) -> [Int] { [3, n / 4, n / 2, 3 * n / 4, n - 2] }

    /// Milliseconds from the block to every list having published the removal of its 5 rows.
    func block() async -> Double {
        let (_, milliseconds) = timed { session.set(.block, true, account: AccountID(Self.blocked.id)) }
        expect(models.allSatisfy { $0.rows.count == n - 5 }, "block@\(n): lists of \(Set(models.map(\.rows.count))) rows, expected \(n - 5)")
        // The service refuses the block: every row comes back where it was.
        await session.settle()
        expect(models.allSatisfy { $0.rows.count == n }, "block@\(n): rows not back after the refusal")
        return milliseconds
    }
}

enum BlockBench {
    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("block fan-out")
        let warmup = 2
        let rounds = options.rounds(11, quick: 3)
        let small = await BlockFixture(n: 1_000)
        let large = await BlockFixture(n: 10_000)
        var samples: [[Double]] = [[], []]
        for round in 0..<(warmup + rounds) {
            let fixtures = round.isMultiple(of: 2) ? [(0, small), (1, large)] : [(1, large), (0, small)]
            for (index, fixture) in fixtures {
                let milliseconds = await fixture.block()
                if round >= warmup { samples[index].append(milliseconds) }
            }
        }
        return [
            Result(name: "block.20lists@1k", oursMilliseconds: median(samples[0]), peer: nil, peerMilliseconds: nil,
                   note: "an account in 5 rows of each of 20 lists: block → every list's removal published"),
            Result(name: "block.20lists@10k", oursMilliseconds: median(samples[1]), peer: "block.20lists@1k",
                   peerMilliseconds: median(samples[0]), note: "O(rows of the account): ratio ≈ 1 (target ≤ 1.5)"),
        ]
    }
}
