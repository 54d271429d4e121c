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

    @Test("a held read answered as asked reads the model as it was when it came; answered now, as it is; a write is never answered as asked")
    func heldReadAsAsked() async throws {
        let server = GatedServer(ServerModel(), answering: [.createList])
        server.hold(.lists)
        let old = Task { try await server.lists() }
        await server.waitForHeld(1)
        let made = try await server.createList(title: "Birders")
        let now = Task { try await server.lists() }
        await server.waitForHeld(2)
        server.answerHeld(at: 0, asAsked: true)
        #expect(try await old.value == [], "read before the list was made")
        server.answerHeld(at: 0)
        #expect(try await now.value == [made])
        server.hold(.renameList)
        let rename = Task { try await server.renameList(made.id, to: "Waders") }
        await server.waitForHeld(1)
        withKnownIssue { server.answerHeld(at: 0, asAsked: true) }
        _ = try await rename.value
    }

    @Test("failNext fails that many calls of a kind, then its gate answers; waitForCalls returns once that many came, failed ones too")
    func failNextThenGate() async throws {
        let server = GatedServer(answering: [.saveMarker, .markers])
        server.failNext(2, .saveMarker, with: MarkerConflict())
        for _ in 0..<2 { await #expect(throws: MarkerConflict()) { try await server.saveMarker("a", for: .home) } }
        try await server.saveMarker("a", for: .home)
        await server.waitForCalls(3, of: .saveMarker)
        #expect(server.calls(.saveMarker).map(\.description) == Array(repeating: "saveMarker(home:a)", count: 3))
        #expect(server.model.markers.versions[.home] == 1, "only the answered save counts")
    }

    @Test("markers: a read answers the asked timelines that have one; a save sets it (even behind: the server does not order ids); ids order by length, then text")
    func markers() async throws {
        var model = ServerModel<Post>()
        model.markers = ServerMarkers([.home: ServerMarker(id: "m5")])
        model.now = testNow
        let server = GatedServer(model, answering: [.markers, .saveMarker])
        #expect(try await server.markers(for: [.notifications]).isEmpty)
        #expect(try await server.markers(for: MarkerTimeline.allCases) == [.home: ServerMarker(id: "m5")])
        try await server.saveMarker("m4", for: .home)
        try await server.saveMarker("n1", for: .notifications)
        #expect(try await server.markers(for: MarkerTimeline.allCases) == [.home: ServerMarker(id: "m4", updatedAt: testNow), .notifications: ServerMarker(id: "n1", updatedAt: testNow)])
        #expect(server.model.markers.versions == [.home: 2, .notifications: 1])
        #expect(server.isNewer("10", than: "9", in: .home) == true && server.isNewer("m5", than: "m6", in: .home) == false)
        #expect(server.isConflict(MarkerConflict()) && !server.isConflict(ServerRefusal("No.")))
    }

    @Test("a search finds the accounts by handle or name, the hashtag named as asked, then the posts whose text holds it, newest first")
    func search() async throws {
        let server = GatedServer(posts: [makePost("b1", minutesAgo: 1, author: bob, text: "Birds at dawn"), makePost("a1", minutesAgo: 2, text: "A bird")], answering: [.search])
        server.update { $0.relationships.profiles[AccountID(bob.id)] = Profile(author: bob) }
        let found = try await server.search("bir", after: nil).items
        #expect(found == [.hashtag(Hashtag(name: "bir", following: false)), .post(try #require(server.model.entry("b1"))), .post(try #require(server.model.entry("a1")))])
        #expect(try await server.search("BOB", after: nil).items == [.account(Profile(author: bob)), .hashtag(Hashtag(name: "BOB", following: false))])
        #expect(try await server.search("no such thing", after: nil).items.isEmpty, "no hashtag of a name with spaces, nothing else")
        #expect(try await server.search("  ", after: nil).items.isEmpty)
    }
}
