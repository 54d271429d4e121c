@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// A session on a gated server whose retry clock moves only when the test advances it, with
/// `posts` loaded in its root list. The server holds pages and interactions for the test to
/// answer from its model, and the other kinds `holding`.
@MainActor
func outboxSession(
    _ posts: [Post], cacheCapacity: Int = 1_000, holding: Set<GatedCall.Kind> = [], sourceLocation: SourceLocation = #_sourceLocation
) async -> (FeedSession, GatedServer, ManualClock) {
    let service = GatedServer(posts: posts, sourceLocation: sourceLocation)
    service.hold(.page, .interaction)
    for kind in holding { service.hold(kind) }
    let clock = ManualClock()
    let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: cacheCapacity, retryClock: clock)
    session.root.appeared()
    await service.waitForHeld(1)
    service.answer(at: 0)
    await quiesce(session, service, clock)
    return (session, service, clock)
}

/// Waits until every effect of `session` waits somewhere a test controls: every call held in
/// `server` (for the test to answer) and every deferred re-send asleep on `clock` (for the test
/// to advance). No sleeping: yields until the counts agree, bounded so a bug fails instead of
/// hanging. Needed after advancing the clock, whose woken waits deliver on later turns.
@MainActor
@discardableResult
func quiesce(_ session: FeedSession, _ server: GatedServer, _ clock: ManualClock, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    for _ in 0..<200_000 {
        if session.store.resendsWaiting == clock.sleeperCount, session.activity.running == server.held.count { return true }
        await Task.yield()
    }
    let waiting = "\(session.store.resendsWaiting) re-sends waiting, \(clock.sleeperCount) asleep"
    Issue.record("effects did not park: \(session.activity.running) running, \(server.held.count) held, \(waiting)", sourceLocation: sourceLocation)
    return false
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
