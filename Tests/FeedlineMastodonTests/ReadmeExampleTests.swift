@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

// The "Use the view models from your own front" example in README.md, kept compiling and true.
// If you change one, change the other.

/// A front that keeps its own copy of the rows by applying each changeset, the way a
/// `UITableView` would with `performBatchUpdates`.
@MainActor
final class MirrorFront {
    let session: FeedSession
    private(set) var rows: [ListRow] = []
    private(set) var lines: [String] = []
    private var subscriptions = Set<Subscription>()

    init(service: any FeedService) {
        session = FeedSession(service: service)
        // View models publish on the main actor; observe delivers there, synchronously.
        session.root.snapshot.observe { [weak self] snapshot in
            self?.render(snapshot)
        }.store(in: &subscriptions)
    }

    private func render(_ snapshot: FeedListViewModel.Snapshot) {
        snapshot.changes.apply(to: &rows)           // deletions, insertions, moves, updates
        for update in snapshot.changes.updates {
            lines.append("changed row \(update.newIndex): \(update.element.post?.text.prefix(20) ?? "gap")")
        }
        if snapshot.status.reachedEnd { lines.append("end of timeline") }
    }
}

@Suite("README example")
struct ReadmeExampleTests {
    @Test("A changeset-applying front ends with the view model's rows, and sees a favourite as an update")
    @MainActor
    func mirrorFront() async throws {
        let fixture = try FixtureLoader.load(from: FixturePaths.directory("timeline"))
        let service = try SandboxService(fixture: fixture, clock: ContinuousClock())
        let front = MirrorFront(service: service)

        front.session.root.appeared()                              // loads the first page
        await front.session.settle()
        let first = try #require(front.rows.first?.post)
        front.session.root.toggle(.favourite, row: .post(first.id))   // optimistic, converges
        front.session.navigator.push(.post(first.id))               // a detail view model, same state
        await front.session.settle()

        #expect(front.rows == Array(front.session.root.rows))
        #expect(front.rows.count >= 20)
        #expect(front.session.root.rows.first?.post?.interaction.favourited == !first.interaction.favourited)
        #expect(front.lines.contains { $0.hasPrefix("changed row 0:") })
    }
}
