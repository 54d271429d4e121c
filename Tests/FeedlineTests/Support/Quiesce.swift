@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Waits until every running effect of `session` is held in `server` (waiting for the test to
/// answer it). No sleeping: yields until the counts agree, with a bound so a bug fails instead
/// of hanging.
@MainActor
func quiesce(_ session: FeedSession, _ server: GatedServer, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<200_000 {
        if session.activity.running == server.held.count { return }
        await Task.yield()
    }
    Issue.record("effects did not park: \(session.activity.running) running, \(server.held.count) held", sourceLocation: sourceLocation)
}
