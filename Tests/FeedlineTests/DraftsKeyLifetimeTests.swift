@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Past an idempotency key's hour, a submission whose answer was lost looks at the account's
/// newest posts before sending again: the server forgot the key, so a blind retry could post twice.
@MainActor
@Suite("Drafts past the key's lifetime")
struct DraftsKeyLifetimeTests {
    /// The answer to the first post lost on the way back, after the server made it.
    struct Lost: FeedServiceError {
        var isTransient: Bool { true }
        var errorDescription: String? { "The request timed out; try again." }
    }

    static let me = Author(id: "me", displayName: "Me", handle: "me")

    /// A session of `me` on `server` whose post `text` was made but its answer lost: queued, to
    /// be sent again with its key. `nil` (an issue recorded) when it did not queue.
    static func sentAndLost(_ text: String, to server: GatedServer, clock: WallClock) async -> (FeedSession, DraftID)? {
        server.lose(.publish, with: Lost())
        let session = FeedSession(service: server, clock: clock, retryClock: ManualClock())
        let id = session.drafts.startPost()
        session.drafts.load()
        await session.settle()
        session.drafts.update(id) { $0.text = text }
        session.drafts.send(id)
        await session.settle()
        guard case .queued? = session.drafts[id]?.phase else {
            Issue.record("the lost answer did not queue: \(String(describing: session.drafts[id]?.phase))")
            return nil
        }
        return (session, id)
    }

    @Test("a lost answer retried within the hour goes with its key; past the hour the newest posts are checked, and the post found is the one sent")
    func checksPastTheHour() async throws {
        let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let clock = WallClock { time.withLock { $0 } }
        // The first post is made but its answer lost; the account's feed lists what it made.
        let server = GatedServer(me: Self.me, answering: [.composeSettings, .page])
        guard let (session, id) = await Self.sentAndLost("made once", to: server, clock: clock) else { return }
        #expect(session.drafts[id]?.mayHaveCommitted == true)
        // Two hours later the key expired at the server (it forgot it, so a resend would post
        // again): retry checks before sending.
        time.withLock { $0 = $0.addingTimeInterval(7_200) }
        server.update { $0.writing.published = [:] }
        server.answer(.publish)
        session.drafts.retry()
        #expect(session.drafts[id]?.phase == .checking(attempt: 2))
        await session.settle()
        #expect(session.drafts[id] == nil, "found among the newest posts: sent")
        #expect(server.calls(.publish).count == 1, "not posted a second time")
        #expect(server.model.timeline(.account(AccountID(Self.me.id))).map(\.text) == ["made once"])
        #expect(session.store.post("post1")?.text == "made once")
    }
}
