@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The gated double itself: a call no gate was opened for fails the test and the call; gates
/// answer from the model, fail, or hold per kind and per key; a held call changes the model
/// only when answered; the model's timelines lose a deleted post everywhere.
@MainActor
@Suite("The gated test server", .timeLimit(.minutes(10)))
struct GatedServerTests {
    @Test("a call no gate was opened for is an issue of the test and a refusal of the call, at once")
    func unexpectedCall() async throws {
        let server = GatedServer(posts: [makePost("p1", minutesAgo: 1)], answering: [.page])
        var thrown: (any Error)?
        await withKnownIssue {
            do { _ = try await server.post("p1") } catch { thrown = error }
        }
        let unexpected = thrown as? UnexpectedGatedCall
        #expect(unexpected?.call.kind == .post)
        #expect(unexpected?.isTransient == false)
        #expect(unexpected?.message == "GatedServer got post(p1), which the test did not expect (it expects page)")
        #expect(server.calls.map(\.kind) == [.post])
        // The opened gate answers from the model.
        #expect(try await server.page(of: .home, after: nil).posts.map(\.id) == ["p1"])
    }

    @Test("a gate per key wins over the gate of its kind: one domain fails, one waits, the rest are answered")
    func gatesByKey() async throws {
        let server = GatedServer(answering: [.setDomainBlock, .domainBlocks])
        server.fail(.setDomainBlock, key: "refused.example", with: ServerRefusal("No."))
        server.hold(.setDomainBlock, key: "slow.example")
        try await server.setDomainBlock("fast.example", to: true)
        await #expect(throws: ServerRefusal("No.")) { try await server.setDomainBlock("refused.example", to: true) }
        async let slow: Void = server.setDomainBlock("slow.example", to: true)
        await server.waitForHeld(1)
        #expect(server.model.domainBlocks.domains == ["fast.example"], "a held call changes nothing until answered")
        #expect(server.held.calls.map(\.key) == ["slow.example"])
        server.answerHeld(at: 0)
        try await slow
        #expect(try await server.domainBlocks(after: nil).items == ["slow.example", "fast.example"])
        #expect(server.calls(.setDomainBlock).map(\.value) == [true, true, true])
    }

    @Test("a held call failed by the test leaves the model as it was; a closed gate makes the kind unexpected again")
    func heldFailure() async throws {
        let server = GatedServer(answering: [.createList, .lists])
        server.hold(.renameList)
        let list = try await server.createList(title: "Birders")
        let rename = Task { try await server.renameList(list.id, to: "Waders") }
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: ServerRefusal("Forbidden."))
        await #expect(throws: ServerRefusal("Forbidden.")) { try await rename.value }
        #expect(try await server.lists() == [list])
        server.close(.lists)
        await withKnownIssue { _ = try await server.lists() }
    }

    @Test("a deleted post is gone from every feed, with its boosts; an edit shows in every feed at once")
    func deleteAndEditReachEveryFeed() async throws {
        let mine = makePost("m1", minutesAgo: 2, author: Post.signedInUser)
        let boost = makePost("b1", minutesAgo: 1, author: alice, reblog: mine)
        var model = ServerModel([mine, boost, makePost("p1", minutesAgo: 3)])
        model.timelines.feeds = [.home: ["b1", "m1", "p1"], .local: ["m1", "p1"], .account(AccountID(Post.signedInUser.id)): ["m1"]]
        let server = GatedServer(model, answering: [.page, .publish, .delete, .history])
        let edit = Draft(id: DraftID("d"), text: "edited", editing: "m1", createdAt: testNow)
        _ = try await server.publish(edit, idempotencyKey: "k")
        for feed in [Feed.home, .local] {
            let page = try await server.page(of: feed, after: nil).posts
            #expect(page.allSatisfy { $0.content.id != "m1" || $0.content.text == "edited" }, "\(feed)")
        }
        #expect(try await server.history(of: "m1").map(\.text) == [mine.text, "edited"])
        _ = try await server.delete("m1")
        #expect(try await server.page(of: .home, after: nil).posts.map(\.id) == ["p1"])
        #expect(try await server.page(of: .local, after: nil).posts.map(\.id) == ["p1"])
        #expect(try await server.page(of: .account(AccountID(Post.signedInUser.id)), after: nil).posts.isEmpty)
        await #expect(throws: ServerRefusal.self) { try await server.delete("p1") }
    }
}
