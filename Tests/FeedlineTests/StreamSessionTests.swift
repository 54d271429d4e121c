@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Stream events applied to a session: through the one store and every list and detail on the
/// stack, never moving the rows being read.
@MainActor
@Suite("Streams in a session", .timeLimit(.minutes(10)))
struct StreamSessionTests {
    private func session(
        posts: [Post] = makePosts(30), answering: Set<GatedCall.Kind>, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> (FeedSession, GatedServer) {
        // The posts are home's and the hashtag t's, so a second feed's list has rows too (and
        // its header asks for the hashtag).
        let service = GatedServer(posts: posts, feeds: [.home, .tag("t")], answering: answering.union([.tag]), sourceLocation: sourceLocation)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    @Test("a new post waits above every list of its feed — the rows do not move — until shown")
    func posted() async {
        let (session, _) = await session(answering: [.page, .interaction])
        session.navigator.push(.list(.feed(.tag("t"))))
        session.navigator.push(.list(.feed(.home)))
        await session.settle()
        guard case .list(let second) = session.navigator.top, case .list(let tag) = session.navigator.screens[1] else {
            Issue.record("expected two lists on top of the root")
            return
        }
        let rowsBefore = session.root.rows
        var published = 0
        let subscription = session.root.snapshot.observe { _ in published += 1 }
        published = 0
        session.apply(.posted(makePost("new1"), in: .home))
        session.apply(.posted(makePost("new2"), in: .home))
        #expect(session.root.rows == rowsBefore, "nothing moves under the reader")
        #expect(session.root.status.waiting == 2)
        #expect(second.status.waiting == 2)
        #expect(tag.status.waiting == 0, "another feed's list learns nothing")
        #expect(published == 2, "each arrival publishes the status (the waiting count)")
        // A favourite made on a waiting post elsewhere shows once it is on top.
        session.store.toggle(.favourite, "new1")
        session.root.showWaiting()
        #expect(session.root.rows.prefix(2).map(\.id) == [.post("new2"), .post("new1")])
        #expect(session.root.rows[1].post?.interaction.favourited == true)
        #expect(Array(session.root.rows.dropFirst(2)) == Array(rowsBefore))
        #expect(session.root.status.waiting == 0)
        #expect(second.status.waiting == 2, "each list shows its waiting rows on its own")
        subscription.cancel()
        await session.settle()
    }

    @Test("a deleted original leaves every list with its boosts; a deleted boost takes only its row; an open detail says so")
    func deleted() async {
        var posts = makePosts(20)
        posts.insert(makePost("b5", author: Author(id: "9", displayName: "Booster", handle: "booster"), reblog: posts[4]), at: 2)
        let (session, _) = await session(posts: posts, answering: [.page, .post, .context])
        session.navigator.push(.list(.feed(.home)))
        await session.settle()
        session.navigator.open("p5")
        await session.settle()
        guard case .post(let detail) = session.navigator.top, case .list(let other) = session.navigator.screens[1] else {
            Issue.record("expected a list and a detail on the stack")
            return
        }
        #expect(session.root.rows.contains(.post("b5")) && session.root.rows.contains(.post("p5")))
        session.apply(.deleted("b5"))
        #expect(!session.root.rows.contains(.post("b5")))
        #expect(session.root.rows.contains(.post("p5")), "deleting a boost leaves the original")
        #expect(!detail.current.deleted)
        session.apply(.deleted("p5"))
        #expect(!session.root.rows.contains(.post("p5")))
        #expect(!other.rows.contains(.post("p5")) && !other.rows.contains(.post("b5")))
        #expect(detail.current.deleted)
        #expect(!detail.toggle(.favourite), "a deleted post cannot be favourited")
        #expect(session.root.state.checkInvariants().isEmpty)
        await session.settle()
    }

    @Test("an edit reaches every row and detail, and never undoes a pending favourite")
    func edited() async {
        let (session, service) = await session(answering: [.page, .post, .context, .interaction])
        session.navigator.open("p3")
        await session.settle()
        guard case .post(let detail) = session.navigator.top else { return }
        service.hold(.interaction)
        session.root.toggle(.favourite, row: .post("p3"))
        var edit = makePost("p3", text: "edited text")
        edit.editedAt = testNow
        session.apply(.edited(edit))
        let row = session.root.rows[id: .post("p3")]?.post
        #expect(row?.text == "edited text")
        #expect(row?.content.editedAt == testNow)
        #expect(row?.interaction.favourited == true, "the edit's copy (not favourited) does not undo the pending favourite")
        #expect(detail.current.post?.text == "edited text")
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        #expect(session.root.rows[id: .post("p3")]?.post?.interaction.favourited == true)
    }

    @Test("a notification waits above the notifications list, merged into its group")
    func notified() async {
        let (session, _) = await session(answering: [.page, .notifications])
        session.navigator.push(.list(.notifications))
        await session.settle()
        guard case .list(let notifications) = session.navigator.top else { return }
        let ana = Author(id: "a", displayName: "Ana", handle: "ana")
        let bo = Author(id: "b", displayName: "Bo", handle: "bo")
        func group(_ who: Author, _ id: String) -> NotificationGroup {
            NotificationGroup(id: "favourite-p1", kind: .favourite, accounts: [who], count: 1, post: makePost("p1"), latestAt: testNow, newestID: ItemID(id))
        }
        session.apply(.notified(group(ana, "n1")))
        session.apply(.notified(group(bo, "n2")))
        #expect(notifications.status.waiting == 1)
        notifications.showWaiting()
        #expect(notifications.rows.first?.notification?.group.summary == "Bo and Ana favourited your post")
        #expect(notifications.rows.first?.notification?.group.newestID == "n2")
        #expect(session.root.status.waiting == 0)
        await session.settle()
    }

    @Test("a catch-up asks for what is newer than everything known, and keeps it waiting")
    func catchUp() async {
        let (session, service) = await session(answering: [.page, .newer])
        // live1 came by the stream; missed1 came while it was down.
        service.arrive([makePost("missed1"), makePost("live1")])
        session.apply(.posted(makePost("live1"), in: .home))
        session.catchUp()
        await session.settle()
        #expect(service.asked.last == "newer(home, than: live1, olderThan: nil)")
        #expect(session.root.state.waiting.map(\.id) == [.post("missed1"), .post("live1")])
        session.root.showWaiting()
        #expect(session.root.rows.prefix(3).map(\.id) == [.post("missed1"), .post("live1"), .post("p1")])
        #expect(session.root.state.checkInvariants().isEmpty)
    }

    // MARK: - Found by the stream model check (StreamModelCheckTests)

    @Test("a post waiting above stays in the store however small its cache: shown, it takes toggles and deletes")
    func waitingHeldInStore() async {
        var posts = makePosts(3)
        posts.insert(makePost("b9", author: bob, reblog: makePost("x1")), at: 0)
        let service = GatedServer(posts: posts, answering: [.page, .interaction])
        let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: 0)
        session.root.appeared()
        await session.settle()
        session.apply(.posted(makePost("n1"), in: .home))
        session.apply(.posted(makePost("b8", author: bob, reblog: makePost("p2")), in: .home))
        // A favourite settles: the store forgets what nothing holds.
        session.root.toggle(.favourite, row: .post("p1"))
        await session.settle()
        #expect(session.store.post("n1") != nil, "a waiting post is held, not forgotten")
        session.apply(.edited(makePost("n1", text: "edited while waiting")))
        session.root.showWaiting()
        #expect(session.root.rows[id: .post("n1")]?.post?.text == "edited while waiting")
        #expect(session.root.toggle(.favourite, row: .post("n1")))
        #expect(session.store.interaction("n1")?.favourited == true)
        await session.settle()
        // A boost waiting above leaves with its original.
        session.apply(.posted(makePost("b7", author: bob, reblog: makePost("p3")), in: .home))
        session.apply(.deleted("p3"))
        #expect(!session.root.state.waiting.contains(.post("b7")))
        #expect(!session.root.rows.contains(.post("p3")))
    }

    @Test("a page on its way when a post is deleted does not bring it back; one asked for later is believed")
    func deletedWhileAPageCame() async {
        let service = GatedServer(posts: makePosts(3))
        service.hold(.page, .newer)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await quiesce(session, service)
        service.answer(at: 0)
        await quiesce(session, service)
        session.root.refresh()
        await quiesce(session, service)
        // The server read n3, n2 and Bob's boost of p3 before the stream deleted two of them.
        service.arrive([makePost("n3"), makePost("n2"), makePost("b1", author: bob, reblog: makePost("p3"))])
        session.apply(.deleted("n2"))
        session.apply(.deleted("b1"))
        #expect(service.waiting.map(\.description) == ["newer(home, than: p1, olderThan: nil)"])
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(session.root.rows.map(\.id) == [.post("n3"), .post("p1"), .post("p2"), .post("p3")])
        // A page asked for after the delete is the server's word.
        // The server lists n2 above n3 now.
        service.serve([makePost("n2"), makePost("n3")] + makePosts(3))
        session.root.refresh()
        await quiesce(session, service)
        #expect(service.waiting.map(\.description) == ["newer(home, than: n3, olderThan: nil)"])
        service.answer(at: 0)
        await session.settle()
        #expect(session.root.rows.first?.id == .post("n2"))
    }

    @Test("a favourite's reply does not undo an edit the stream brought while it ran")
    func replyOlderThanEdit() async {
        let service = GatedServer(posts: makePosts(3))
        service.hold(.page, .interaction)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await quiesce(session, service)
        service.answer(at: 0)
        await quiesce(session, service)
        session.root.toggle(.favourite, row: .post("p2"))
        await quiesce(session, service)
        session.apply(.edited(makePost("p2", text: "edited")))
        // The server answered before it saw the edit.
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p2)"])
        service.answer(at: 0)
        await session.settle()
        let row = session.root.rows[id: .post("p2")]?.post
        #expect(row?.text == "edited")
        #expect(row?.interaction.favourited == true)
    }

    @Test("a stream drop tells every list on the stack, once; the catch-up asks above what waited before it")
    func dropReachesLists() async {
        let (session, _) = await session(answering: [.page, .newer])
        session.navigator.push(.list(.feed(.tag("t"))))
        await session.settle()
        session.streamStateChanged(.live)
        session.apply(.posted(makePost("s1"), in: .home))
        session.streamStateChanged(.reconnecting(after: .seconds(1), attempt: 1))
        #expect(session.root.state.waitingRows.missedSince?.arrivals == 1)
        #expect(session.navigator.top.list?.state.waitingRows.missedSince != nil)
        session.streamStateChanged(.reconnecting(after: .seconds(2), attempt: 2))
        session.streamStateChanged(.live)
        session.apply(.posted(makePost("s2"), in: .home))
        session.catchUp()
        #expect(session.root.state.inFlight?.kind == .catchUp(above: "s1"))
        await session.settle()
    }

    @Test("a list a front keeps off the stack hears a drop as it hears what the stream brings: what waits there is marked as maybe missing posts")
    func dropReachesKeptLists() async {
        let (session, _) = await session(answering: [.page, .newer])
        session.navigator.push(.list(.feed(.tag("t"))))
        await session.settle()
        // A tab or a cache holds the list; the stack lets it go.
        let kept = session.navigator.top.list
        session.navigator.pop()
        #expect(kept != nil && session.navigator.top.list !== kept)
        session.streamStateChanged(.live)
        session.apply(.posted(makePost("s1"), in: .tag("t")))
        #expect(kept?.state.waitingRows.missedSince == nil)
        session.streamStateChanged(.reconnecting(after: .seconds(1), attempt: 1))
        #expect(kept?.state.waitingRows.missedSince != nil, "the kept list waits with s1 and does not know posts may be missing after it")
        #expect(session.root.state.waitingRows.missedSince != nil)
        withExtendedLifetime(kept) {}
    }

    @Test("the stream state is published as transports report it")
    func streamState() {
        let session = FeedSession(service: GatedServer(posts: [], answering: []))
        var seen: [StreamState] = []
        let subscription = session.streamState.observe { seen.append($0) }
        session.streamStateChanged(.connecting)
        session.streamStateChanged(.live)
        session.streamStateChanged(.live)
        session.streamStateChanged(.reconnecting(after: .seconds(2), attempt: 1))
        #expect(seen == [.off, .connecting, .live, .reconnecting(after: .seconds(2), attempt: 1)])
        subscription.cancel()
    }
}
