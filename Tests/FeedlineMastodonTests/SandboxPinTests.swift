@_spi(FeedService) import Feedline
import Foundation
import Testing

@_spi(FeedService) import FeedlineMastodon

/// The sandbox pins and mutes conversations by Mastodon's rules: one's own posts only (not a
/// boost, not a direct message), five at most, each refusal Mastodon's 422 sentence; a
/// profile's first page shows its pinned posts on top; a muted conversation notifies nothing.
@Suite struct SandboxPinTests {
    static let you = Build.account("alice")

    /// alice's posts 1–7 (7 a direct message), bob's 8, bob's boost 9 of alice's 2, bob's 10
    /// replying to alice's 3, bob's 11 replying to 10.
    func makeService(reactions: [SandboxScenario.Reaction] = []) throws -> SandboxService {
        var direct = Build.status(7)
        direct.visibility = .direct
        let statuses = Build.timeline(6) + [
            direct, Build.status(8, author: "bob"), Build.status(9, author: "bob", reblog: Build.status(2)),
            Build.status(10, author: "bob", replyTo: 3), Build.status(11, author: "bob", replyTo: 10),
        ]
        return try SandboxService(statuses: statuses, scenario: SandboxScenario(reactions: reactions, account: Self.you), clock: VirtualClock())
    }

    @Test func yourOwnPostIsPinnedAndUnpinnedIdempotently() async throws {
        let service = try makeService()
        let pinned = try await service.set(.pin, to: true, postID: "3")
        #expect(pinned.id == "3" && pinned.pinned)
        #expect(try await service.set(.pin, to: true, postID: "3") == pinned)
        #expect(try await service.post("3").pinned)
        let unpinned = try await service.set(.pin, to: false, postID: "3")
        #expect(!unpinned.pinned)
        #expect(try await service.set(.pin, to: false, postID: "8").pinned == false, "unpinning what is not pinned is fine")
    }

    @Test(arguments: [
        ("8", "Validation failed: Someone else's post cannot be pinned"),
        ("9", "Validation failed: A boost cannot be pinned, Someone else's post cannot be pinned"),
        ("7", "Validation failed: Posts that are only visible to mentioned users cannot be pinned"),
    ])
    func whatMastodonRefusesIsRefusedWithItsSentence(_ id: String, _ sentence: String) async throws {
        let service = try makeService()
        await #expect(throws: SandboxError.refused(sentence)) { try await service.set(.pin, to: true, postID: PostID(id)) }
        #expect(try await service.post(PostID(id)).pinned == false)
    }

    @Test func aSixthPinIsRefusedAndRefusalsAreNotTransient() async throws {
        let service = try makeService()
        for id in 1...5 { _ = try await service.set(.pin, to: true, postID: PostID(String(id))) }
        let refusal = SandboxError.refused("Validation failed: You have already pinned the maximum number of posts")
        await #expect(throws: refusal) { try await service.set(.pin, to: true, postID: "6") }
        #expect(!refusal.isTransient)
        // Unpinning one makes room.
        _ = try await service.set(.pin, to: false, postID: "1")
        #expect(try await service.set(.pin, to: true, postID: "6").pinned)
    }

    @Test func aProfilesFirstPageShowsItsPinnedPostsOnTopMostRecentlyPinnedFirstEachOnce() async throws {
        let service = try makeService()
        _ = try await service.set(.pin, to: true, postID: "1")
        _ = try await service.set(.pin, to: true, postID: "6")
        let first = try await service.page(of: .account(AccountID(Self.you.id)), after: nil)
        // Then the newest (7, a direct message: your own profile shows yours).
        #expect(Array(first.ids.prefix(3)) == ["6", "1", "7"])
        #expect(first.onTop == 2)
        #expect(Set(first.ids).count == first.ids.count)
        // Home is not a profile: nothing on top.
        #expect(try await service.page(of: .home, after: nil).onTop == 0)
    }

    @Test func aMutedConversationNotifiesNothingWhileItsCountsStillMove() async throws {
        let at = Build.epoch.addingTimeInterval(3_600)
        let service = try makeService(reactions: [
            .init(afterPages: 2, kind: .favourite, account: "bob@example.social", postID: "3", date: at),
            .init(afterPages: 2, kind: .favourite, account: "bob@example.social", postID: "4", date: at.addingTimeInterval(60)),
        ])
        // Muted through bob's reply deep in the thread: the whole conversation, root and all.
        let muted = try await service.set(.muteThread, to: true, postID: "11")
        #expect(muted.id == "11" && muted.muted)
        let root = try await service.post("3")
        let reply = try await service.post("10")
        let elsewhere = try await service.post("4")
        #expect(root.muted && reply.muted && !elsewhere.muted)
        _ = try await service.page(of: .home, after: nil)
        _ = try await service.page(of: .home, after: nil)
        #expect(try await service.post("3").favouritesCount == 1, "the favourite happened")
        let summaries = try await service.notifications(of: [], after: nil).items.map(\.summary)
        #expect(summaries == ["Bob favourited your post"], "only the one outside the muted conversation")
        #expect(try await service.notifications(of: [], after: nil).items.first?.post?.id == "4")
        let unmuted = try await service.set(.muteThread, to: false, postID: "3")
        let deepest = try await service.post("11")
        #expect(!unmuted.muted && !deepest.muted)
    }
}
