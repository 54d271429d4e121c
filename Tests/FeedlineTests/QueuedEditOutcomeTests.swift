@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A server's failure of an edit: a refusal, or a lost connection (transient).
private struct EditFailure: FeedServiceError {
    var message: String
    var isTransient: Bool
    var errorDescription: String? { message }
}

/// An edit is a write like the others on the outcome stream: queued for lack of a connection
/// (with its delay, each time), then how it ended.
@MainActor
@Suite("A queued edit on the outcome stream", .timeLimit(.minutes(10)))
struct QueuedEditOutcomeTests {
    static let lost = "The connection was lost."

    /// A session on a server whose home shows one post of yours, "mine", with an edit draft of
    /// it changed to "edited" (not sent yet); publishes fail with the connection lost.
    private func editing() async throws -> (GatedServer, FeedSession, OutcomeLog, DraftID) {
        let mine = Post(id: "mine", author: Post.signedInUser, text: "before", createdAt: testNow)
        let server = GatedServer(posts: [mine], answering: [.page, .composeSettings, .source])
        server.fail(.publish, with: EditFailure(message: Self.lost, isTransient: true))
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.drafts.load()
        await session.settle()
        let log = OutcomeLog(session)
        session.drafts.startEdit(of: try #require(session.store.post("mine")))
        await session.settle()
        let draft = try #require(try log.lastDraft?.get())
        session.drafts.update(draft) { $0.text = "edited" }
        return (server, session, log, draft)
    }

    @Test("an edit the server cannot be reached for is queued with its delay, each time (2 s, then 4 s), then done once the server has it; the post shows the edit throughout")
    func queuedThenDone() async throws {
        let (server, session, log, draft) = try await editing()
        #expect(session.drafts.send(draft).isEmpty)
        await session.settle()
        #expect(log.edits == [Outcome.queued(.edit(post: "mine"), reason: Self.lost, resendAfter: .seconds(2))])
        #expect(session.store.post("mine")?.text == "edited", "a queued edit stays shown")

        #expect(session.drafts.retry() == 1)
        await session.settle()
        #expect(log.edits.count == 2)
        #expect(log.edits.last == Outcome.queued(.edit(post: "mine"), reason: Self.lost, resendAfter: .seconds(4)))

        server.answer(.publish)
        #expect(session.drafts.retry() == 1)
        await session.settle()
        #expect(log.edits.count == 3)
        #expect(log.edits.last == Outcome.done(.edit(post: "mine")))
        #expect(log.edits.filter(\.isFinal).count == 1, "one end")
        #expect(server.model.entry("mine")?.text == "edited")
        #expect(session.drafts.all.isEmpty)
    }

    @Test("a queued edit the server then refuses ends refused with its sentence: the post shows its text as before, the draft keeps the edit")
    func queuedThenRefused() async throws {
        let (server, session, log, draft) = try await editing()
        #expect(session.drafts.send(draft).isEmpty)
        await session.settle()
        server.fail(.publish, with: EditFailure(message: "Edits are closed.", isTransient: false))
        #expect(session.drafts.retry() == 1)
        await session.settle()
        #expect(log.edits == [
            Outcome.queued(.edit(post: "mine"), reason: Self.lost, resendAfter: .seconds(2)),
            Outcome.refused(.edit(post: "mine"), sentence: "Edits are closed."),
        ])
        #expect(session.store.post("mine")?.text == "before")
        #expect(session.drafts[draft]?.draft.text == "edited" && session.drafts[draft]?.refusal == "Edits are closed.")
    }

    @Test("a new post queued for lack of a connection says so through its draft only: no outcome names it")
    func queuedPostIsNoOutcome() async throws {
        let (_, session, log, _) = try await editing()
        let post = session.drafts.startPost()
        session.drafts.update(post) { $0.text = "a new post" }
        #expect(session.drafts.send(post).isEmpty)
        await session.settle()
        #expect(log.edits.isEmpty)
        guard case .queued(let reason, _, _)? = session.drafts[post]?.phase else {
            Issue.record("not queued: \(String(describing: session.drafts[post]?.phase))")
            return
        }
        #expect(reason == Self.lost)
    }
}
