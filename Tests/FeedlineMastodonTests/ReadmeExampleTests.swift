import Feedline
import FeedlineMastodon
import Foundation
import Testing

// The "Use the view models from your own front" example in README.md, kept compiling and true.
// If you change one, change the other.

/// A front that keeps its own copy of the rows by applying each changeset, the way a
/// `UITableView` would with `performBatchUpdates`.
@MainActor
final class MirrorFront {
    let session: FeedSession
    private(set) var rows: [TimelineRow] = []
    private(set) var lines: [String] = []
    private var subscriptions = Set<Subscription>()

    init(service: any FeedService) {
        session = FeedSession(service: service)
        // Relays deliver on the thread that set them; the view models set on the main actor.
        session.timeline.snapshot.subscribe { [weak self] snapshot in
            MainActor.assumeIsolated { self?.render(snapshot) }
        }.store(in: &subscriptions)
    }

    private func render(_ snapshot: TimelineViewModel.Snapshot) {
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
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        let front = MirrorFront(service: service)

        front.session.timeline.appeared()                     // loads the first page
        await front.session.settle()
        let first = try #require(front.rows.first?.post)
        front.session.timeline.rowViewModel(first.id)?.toggleFavourite()
        await front.session.settle()

        #expect(front.rows == front.session.timeline.rows)
        #expect(front.rows.count >= 20)
        #expect(front.session.timeline.rows.first?.post?.interaction.favourited == !first.interaction.favourited)
        #expect(front.lines.contains { $0.hasPrefix("changed row 0:") })
    }
}
