@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Waits until every effect of `session` waits somewhere a test controls: every request in
/// `service` (for the test to answer) and every deferred re-send asleep on `clock` (for the test
/// to advance). No sleeping: yields until the counts agree, bounded so a bug fails instead of
/// hanging. Needed after advancing the clock, whose woken waits deliver on later turns.
@MainActor
@discardableResult
func quiesce(_ session: FeedSession, _ service: ControlledService, _ clock: ManualClock, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    for _ in 0..<200_000 {
        if session.store.resendsWaiting == clock.sleeperCount, session.activity.running == service.pending.count { return true }
        await Task.yield()
    }
    let waiting = "\(session.store.resendsWaiting) re-sends waiting, \(clock.sleeperCount) asleep"
    Issue.record("effects did not park: \(session.activity.running) running, \(service.pending.count) pending, \(waiting)", sourceLocation: sourceLocation)
    return false
}

/// A session on a controlled service whose retry clock moves only when the test advances it,
/// with `posts` loaded in its root list. The service expects pages and interactions, unless
/// told otherwise.
@MainActor
func outboxSession(
    _ posts: [Post], cacheCapacity: Int = 1_000, expecting: FeedCalls = [.pages, .interactions],
    sourceLocation: SourceLocation = #_sourceLocation
) async -> (FeedSession, ControlledService, ManualClock) {
    let service = ControlledService(expecting: expecting, sourceLocation: sourceLocation)
    let clock = ManualClock()
    let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: cacheCapacity, retryClock: clock)
    session.root.appeared()
    await service.waitForPending(1)
    service.answer(.page(nil), with: .page(Page(posts: posts, next: nil)))
    await quiesce(session, service, clock)
    return (session, service, clock)
}

/// The values an outbox observer was given, in order.
@MainActor
final class OutboxRecorder {
    private(set) var values: [[OutboxEntry]] = []
    private var subscription: Subscription?

    init(_ store: PostStore) {
        subscription = store.observeOutbox { [weak self] outbox in self?.values.append(outbox) }
    }
}

extension FeedListViewModel {
    /// The shared interaction state the row of entry `id` shows, if the list shows it.
    func interaction(_ id: PostID) -> PostInteraction? {
        rows[id: .post(id)]?.post?.interaction
    }
}

extension PostInteraction {
    /// The same without why and when its queued kinds are sent again (``queuedChanges``), for
    /// comparing flags, counts and what is pending.
    var withoutReasons: PostInteraction {
        var copy = self
        copy.queuedChanges = []
        return copy
    }
}
