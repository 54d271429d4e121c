@_spi(FeedService) import Feedline
import Foundation
import Synchronization

/// A list of n rows in which one post is shown three times (itself and two boosts of it): a
/// toggle of that post must reach exactly those three rows, at a cost that does not grow with n.
@MainActor
final class ToggleFixture {
    let n: Int
    let service: InstantService
    let session: FeedSession
    let model: FeedListViewModel
    let published = Seen()
    private var token: Subscription?
    /// The rows that show the post.
    let expected: [Int]

    init(n: Int) async {
        self.n = n
        var posts = Posts.make(n, from: 0)
        let target = posts[10]
        let positions = [10, n / 2, n - 5]
        for (number, position) in positions.dropFirst().enumerated() {
            posts[position] = Post(
                id: PostID("w\(number)"), author: Author(id: "9", displayName: "Booster \(number)", handle: "b\(number)"),
                text: "", createdAt: posts[position].createdAt, reblog: target
            )
        }
        expected = positions
        service = InstantService(initial: posts, pages: [])
        session = FeedSession(service: service, clock: .fixed(Posts.now))
        model = session.root
        let published = published
        token = model.snapshot.subscribe { snapshot in
            published.last.withLock { $0 = snapshot.changes.updates.map(\.newIndex) }
        }
        model.appeared()
        await session.settle()
        expect(model.rows.count == n, "toggle fixture: \(model.rows.count) rows, expected \(n)")
    }

    /// Milliseconds from a toggle of the post to the list having published the update of its rows.
    func toggle() async -> Double {
        let target = RowID.post(Posts.make(1, from: 10)[0].id)
        let (_, milliseconds) = timed { model.toggle(.favourite, row: target) }
        let seen = published.last.withLock { $0 }
        expect(seen == expected, "toggle@\(n): updated rows \(seen), expected \(expected)")
        await session.settle()
        return milliseconds
    }
}

/// The row indices the last published snapshot updated.
final class Seen: Sendable {
    let last = Mutex<[Int]>([])
}

enum ToggleBench {
    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("toggle fan-out")
        let warmup = 3
        let rounds = options.rounds(21, quick: 5)
        let small = await ToggleFixture(n: 1_000)
        let large = await ToggleFixture(n: 100_000)
        var samples: [[Double]] = [[], []]
        for round in 0..<(warmup + rounds) {
            let fixtures = round.isMultiple(of: 2) ? [(0, small), (1, large)] : [(1, large), (0, small)]
            for (index, fixture) in fixtures {
                let milliseconds = await fixture.toggle()
                if round >= warmup { samples[index].append(milliseconds) }
            }
        }
        return [
            Result(name: "toggle.3rows@1k", oursMilliseconds: median(samples[0]), peer: nil, peerMilliseconds: nil,
                   note: "a post in 3 rows: toggle → the 3 rows' update published"),
            Result(name: "toggle.3rows@100k", oursMilliseconds: median(samples[1]), peer: "toggle.3rows@1k",
                   peerMilliseconds: median(samples[0]), note: "O(rows of the post): ratio ≈ 1 (target ≤ 1.5)"),
        ]
    }
}
