@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

/// Direct conversations on the sandbox, on the bundled fixture (`direct.json` and the
/// scenario's `conversations`): listed most recent first with participants and unread, their
/// threads readable, read and remove working, and a direct reply moving its conversation up.
@Suite struct SandboxConversationsTests {
    static let kemi = "117655400000000103"

    func service(pageSize: Int = 20, faults: [SandboxScenario.Fault] = []) throws -> SandboxService {
        var fixture = try SandboxAccountsTests.fixture()
        fixture.scenario.faults = faults
        return try SandboxService(fixture: fixture, pageSize: pageSize, clock: VirtualClock())
    }

    @Test func theFixturesConversationsAreListedMostRecentFirstWithParticipantsAndUnread() async throws {
        let service = try service(pageSize: 2)
        let first = try await service.conversations(after: nil)
        #expect(first.next != nil)
        let second = try await service.conversations(after: first.next)
        #expect(second.next == nil)
        let all = first.items + second.items
        #expect(all.map(\.id) == ["41", "42", "43"])
        #expect(all.map(\.unread) == [true, false, false])
        #expect(all.map { $0.participants.map(\.handle) } == [["kemi@fieldnotes.science"], ["mira"], ["tomas@kettle.town", "ana@pixelpond.social"]])
        #expect(all.first?.lastPost?.id == PostID(Self.kemi))
        #expect(all.first?.lastPost?.visibility == .direct)
        #expect(all.first?.lastPost?.text.hasPrefix("@you Low tide is at 10:12") == true)
    }

    @Test func aConversationsThreadIsReadableAndTheHomeTimelineDoesNotShowIt() async throws {
        let service = try service()
        let context = try await service.context(of: PostID(Self.kemi))
        #expect(context.ancestors.map(\.id.rawValue) == ["117655200000000101"])
        let home = try await service.page(of: .home, after: nil)
        #expect(!home.posts.contains { $0.visibility == .direct })
    }

    @Test func readingAndRemovingChangeWhatTheListSays() async throws {
        let service = try service()
        let read = try await service.markConversationRead("41")
        #expect(!read.unread)
        try await service.removeConversation("43")
        #expect(try await service.conversations(after: nil).items.map { "\($0.id)\($0.unread ? "*" : "")" } == ["41", "42"])
        await #expect(throws: SandboxError.self) { try await service.removeConversation("43") }
        do {
            _ = try await service.markConversationRead("nope")
            Issue.record("expected a refusal")
        } catch {
            #expect(FeedFailure(error).message == "There is no conversation nope: it may have been removed.")
            #expect(!FeedFailure(error).isTransient)
        }
    }

    @Test func aDirectReplyBecomesItsConversationsLastPostAndMovesItUpEvenWhenRemoved() async throws {
        let service = try service()
        try await service.removeConversation("43")
        let draft = Draft(
            id: DraftID("1"), text: "@tomas@kettle.town @ana@pixelpond.social Thursday works.", visibility: .direct,
            inReplyTo: PostID("117650100000000301"), createdAt: Date(timeIntervalSince1970: 1_795_348_800)
        )
        let reply = try await service.publish(draft, idempotencyKey: "k1")
        let list = try await service.conversations(after: nil).items
        #expect(list.map(\.id) == ["43", "41", "42"], "back, and on top")
        #expect(list.first?.lastPost?.id == reply.id)
        #expect(list.first?.unread == false)
        // A public reply is no direct message: nothing moves.
        let open = Draft(
            id: DraftID("2"), text: "@mira thanks", visibility: .public, inReplyTo: PostID("117654000000000201"),
            createdAt: Date(timeIntervalSince1970: 1_795_348_800)
        )
        _ = try await service.publish(open, idempotencyKey: "k2")
        #expect(try await service.conversations(after: nil).items.map(\.id) == ["43", "41", "42"])
    }

    @Test func aScheduledFaultFailsTheConversationsRequest() async throws {
        let service = try service(faults: [SandboxScenario.Fault(SandboxScenario.Match(.conversationRead), failure: .forbidden)])
        await #expect(throws: (any Error).self) { _ = try await service.markConversationRead("41") }
        #expect(try await service.conversations(after: nil).items.first?.unread == true, "nothing changed")
    }
}
