@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A post made while its answer was lost, then deleted before the outbox sent it again: the
/// server answers the resend "Record not found" for the rest of the key's hour (Mastodon's 404),
/// so the post the user deleted is not made again.
@MainActor
@Suite("Drafts: a resent post that was deleted meanwhile")
struct DraftsDeletedKeyTests {
    static let me = Author(id: "me", displayName: "Me", handle: "me")

    @Test("the resend is refused, nothing is posted again, and the draft comes back saying what happened")
    func deletedMeanwhile() async throws {
        let server = GatedServer(me: Self.me, answering: [.composeSettings, .page])
        guard let (session, id) = await DraftsKeyLifetimeTests.sentAndLost("said and unsaid", to: server, clock: .fixed(testNow)) else { return }
        // Deleted elsewhere (the web, another device) while the answer was lost.
        let made = try #require(server.model.timeline(.account(AccountID(Self.me.id))).first)
        _ = try server.update { try $0.delete(made.id, by: Self.me) }
        server.answer(.publish)
        session.drafts.retry()
        await session.settle()

        #expect(server.calls(.publish).count == 2, "sent again once, with its key")
        #expect(server.model.timeline(.account(AccountID(Self.me.id))).isEmpty, "the deleted post is not made again")
        let submission = try #require(session.drafts[id], "the draft is kept")
        #expect(submission.phase == .editing)
        #expect(submission.refusal == PublishedPostDeleted.sentence)
    }
}
