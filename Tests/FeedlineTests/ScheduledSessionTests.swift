@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's scheduled posts through the session: a scheduled draft is one submission with one
/// idempotency key however often it is sent, answered by a scheduled post that joins the
/// scheduled screens and no timeline; moving and cancelling one is optimistic on every
/// scheduled screen, rolled back with the server's sentence, queued when the server cannot be
/// reached — all by the injected clocks.
@MainActor
@Suite("Scheduled posts across the stack")
struct ScheduledSessionTests {
    static let hour: TimeInterval = 3_600

    /// A server with `scheduled` (ids s1…) at now + 1h, 2h, 3h …, paging them two at a time.
    static func server(scheduled count: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel([makePost("b1", minutesAgo: 1, author: bob)])
        model.timelines.feeds[.home] = ["b1"]
        model.now = testNow
        for index in 0..<count {
            model.scheduledMade += 1
            model.scheduled.append(ScheduledPost(id: "s\(index + 1)", scheduledAt: testNow.addingTimeInterval(Double(index + 1) * hour), text: "Later \(index + 1)"))
        }
        return GatedServer(model, me: alice, answering: [.page, .newer, .composeSettings, .scheduledPosts], sourceLocation: sourceLocation)
    }

    static func session(_ server: GatedServer) -> FeedSession {
        var keys = 0
        return FeedSession(
            service: server, clock: .fixed(testNow), retryClock: ManualClock(),
            idempotencyKeys: {
                keys += 1
                return "key\(keys)"
            }
        )
    }

    /// Two scheduled screens with a timeline between them.
    static func twoScreens(_ session: FeedSession) async -> (FeedListViewModel, FeedListViewModel) {
        session.navigator.push(.list(.scheduled))
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.scheduled))
        await session.settle()
        let screens = session.navigator.screens.compactMap(\.list).filter { $0.source == .scheduled }
        return (screens[0], screens[1])
    }

    /// The rows of a scheduled screen: id, hours from now, `…` while pending, `!` with a refusal.
    static func shown(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row -> String? in
            guard case .scheduled(let post, let state) = row else { return nil }
            let hours = Int((post.scheduledAt.timeIntervalSince(testNow) / hour).rounded())
            return "\(post.id)@\(hours)h" + (state.pending ? "…" : "") + (state.failure == nil ? "" : "!")
        }
    }

    @Test("a scheduled draft is sent with scheduled_at and one key across a retry; it joins the scheduled screen, not home")
    func oneKeyAcrossRetry() async throws {
        let server = Self.server()
        let session = Self.session(server)
        session.root.appeared()
        let (screen, _) = await Self.twoScreens(session)
        #expect(Self.shown(screen).isEmpty)
        // The first attempt is made on the server, and its answer lost.
        server.lose(.schedule, with: ServerUnreachable())
        let drafts = session.drafts
        let id = drafts.startPost()
        drafts.update(id) { $0.text = "Advent calendar, door 1" }
        let at = try #require(try drafts.schedule(id, at: "in 2h"))
        #expect(at == testNow.addingTimeInterval(2 * Self.hour))
        #expect(drafts.send(id).isEmpty)
        await session.settle()
        guard case .queued? = drafts[id]?.phase else {
            Issue.record("not queued: \(String(describing: drafts[id]?.phase))")
            return
        }
        #expect(session.root.rows.allSatisfy { $0.post?.post.text != "Advent calendar, door 1" }, "a scheduled post shows on no timeline")
        server.answer(.schedule)
        #expect(drafts.retry() == 1)
        await session.settle()
        #expect(drafts[id] == nil, "scheduled: the draft is done")
        #expect(server.calls(.schedule).map(\.key) == ["key1", "key1"], "every attempt carries the one key")
        #expect(server.model.scheduled.map(\.id) == ["s1"], "scheduled once")
        #expect(Self.shown(screen) == ["s1@2h"])
        #expect(session.scheduledPosts.map(\.text) == ["Advent calendar, door 1"])
        #expect(session.root.rows.allSatisfy { $0.post?.post.text != "Advent calendar, door 1" })
    }

    @Test("a time 5 minutes ahead or less is refused before anything is sent; an edit cannot be scheduled")
    func tooSoonLocally() async throws {
        let server = Self.server(scheduled: 1)
        let session = Self.session(server)
        let drafts = session.drafts
        let id = drafts.startPost()
        drafts.update(id) { $0.text = "Soon" }
        #expect(throws: FeedFailure(message: DraftProblem.scheduledTooSoon.description, isTransient: false)) { try drafts.schedule(id, at: "in 5m") }
        #expect(drafts[id]?.draft.scheduledAt == nil)
        // Taken at 6 minutes; the clock has not moved, so it goes.
        try drafts.schedule(id, at: "in 6m")
        #expect(drafts[id]?.draft.isScheduled == true)
        try drafts.schedule(id, at: nil)
        #expect(drafts[id]?.draft.scheduledAt == nil)
        #expect(throws: FeedFailure(message: DraftProblem.scheduledTooSoon.description, isTransient: false)) {
            try session.reschedule("s1", to: testNow.addingTimeInterval(300))
        }
        #expect(server.calls(.schedule).isEmpty && server.calls(.reschedule).isEmpty)
    }

    @Test("a draft whose time is too close when it is sent is not sent")
    func tooSoonAtSend() async throws {
        let server = Self.server()
        let session = Self.session(server)
        let drafts = session.drafts
        let id = drafts.startPost()
        // Set as a front that bypasses the parser would (or a draft kept from an earlier run).
        drafts.update(id) {
            $0.text = "Late"
            $0.scheduledAt = testNow.addingTimeInterval(300)
        }
        #expect(drafts.send(id) == [.scheduledTooSoon])
        drafts.update(id) { $0.scheduledAt = testNow.addingTimeInterval(301) }
        server.hold(.schedule)
        #expect(drafts.send(id).isEmpty)
        await server.waitForHeld(1)
        #expect(server.calls(.schedule).count == 1)
        server.answerHeld(at: 0)
        await session.settle()
    }

    @Test("moving and cancelling follow on every scheduled screen; a refusal rolls back with the sentence; unreachable queues")
    func editCancelEverywhere() async throws {
        let server = Self.server(scheduled: 3)
        let session = Self.session(server)
        let log = OutcomeLog(session)
        let (first, second) = await Self.twoScreens(session)
        #expect(Self.shown(first) == ["s1@1h", "s2@2h", "s3@3h"], "every page, followed to the end")
        #expect(Self.shown(second) == Self.shown(first))

        // Moved: at once, in its new place, on both.
        server.hold(.reschedule)
        try session.reschedule("s1", to: testNow.addingTimeInterval(5 * Self.hour))
        #expect(Self.shown(first) == ["s2@2h", "s3@3h", "s1@5h…"])
        #expect(Self.shown(second) == Self.shown(first))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.shown(first) == ["s2@2h", "s3@3h", "s1@5h"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(server.model.scheduled.first { $0.id == "s1" }?.scheduledAt == testNow.addingTimeInterval(5 * Self.hour))

        // Cancelled, refused: gone at once, back with the server's sentence.
        server.hold(.cancelScheduled)
        try session.cancelScheduled("s2")
        #expect(Self.shown(first) == ["s3@3h", "s1@5h"])
        #expect(Self.shown(second) == Self.shown(first))
        // The move was answered: the cancel is the one call waiting.
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: ServerRefusal("This action is not allowed"))
        await session.settle()
        #expect(Self.shown(first) == ["s2@2h!", "s3@3h", "s1@5h"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(session.scheduledPost("s2")?.state.failure == "Could not cancel it: This action is not allowed")

        // Cancelled, unreachable: stays gone, queued, sent again by retry.
        server.fail(.cancelScheduled, with: ServerUnreachable())
        try session.cancelScheduled("s3")
        await session.settle()
        #expect(Self.shown(first) == ["s2@2h!", "s1@5h"])
        #expect(session.hasFailures)
        server.answer(.cancelScheduled)
        #expect(session.retry())
        await session.settle()
        #expect(Self.shown(first) == ["s2@2h!", "s1@5h"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(server.model.scheduled.map(\.id) == ["s2", "s1"])
        #expect(!session.hasFailures)
        let queued = Outcome.queued(.scheduled("s3", at: nil), reason: "The server could not be reached.", resendAfter: .seconds(2))
        #expect(log.heard == [
            .done(.scheduled("s1", at: testNow.addingTimeInterval(5 * Self.hour))), .refused(.scheduled("s2", at: nil), sentence: "This action is not allowed"),
            queued, .done(.scheduled("s3", at: nil)),
        ])
        #expect(throws: FeedFailure(message: "There is no scheduled post s3.", isTransient: false)) { try session.cancelScheduled("s3") }
    }
}
