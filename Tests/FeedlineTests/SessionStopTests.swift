@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// ``FeedSession/stop()``: a session left (an account switched away from) sends nothing more —
/// a change queued for lack of a connection stays in its outbox, for the next time its account
/// is opened, however far the retry clock moves.
@MainActor
@Suite("A stopped session sends nothing more", .timeLimit(.minutes(10)))
struct SessionStopTests {
    @Test("a favourite queued for a re-send: sent again when the retry clock passes its delay, unless the session was stopped", arguments: [false, true])
    func queuedChangeAfterStop(stopped: Bool) async throws {
        let (session, service, clock) = await outboxSession([makePost("p1", favourites: 3)])
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        service.lose(at: 0)
        await quiesce(session, service, clock)
        #expect(clock.sleeperCount == 1, "the re-send waits on the retry clock")
        let saved = await session.finish(waitingAtMost: .seconds(1))
        #expect(saved.map(\.postID) == ["p1"], "what is left is in the outbox to save")
        if stopped {
            session.stop()
            // Required: a wait still asleep would send into the held server, and settling would hang.
            try #require(clock.sleeperCount == 0, "stop cancels the wait at once")
        }
        clock.advance(by: .seconds(60))
        if stopped {
            // Nor does a retry start anything: required, as settling would hang on the held server.
            let started = session.activity.started
            session.retry()
            try #require(session.activity.started == started, "a stopped session starts no effect")
            await session.settle()
            #expect(service.calls(.interaction).count == 1, "the queued favourite is not sent again: \(service.calls(.interaction))")
            #expect(session.outbox.map(\.postID) == ["p1"], "it stays in the outbox, for the next open")
        } else {
            await service.waitForHeld(1)
            #expect(service.calls(.interaction).count == 2, "sent again once the delay passed")
            service.answer(at: 0)
            await session.settle()
        }
    }
}
