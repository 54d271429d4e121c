import Foundation
@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Synchronization
import Testing

@MainActor
@Suite("Navigator and detail", .timeLimit(.minutes(10)))
struct NavigatorTests {
    private func loadedSession(answering: Set<GatedCall.Kind>, sourceLocation: SourceLocation = #_sourceLocation) async -> (FeedSession, GatedServer) {
        let service = GatedServer(posts: makePosts(30), answering: answering, sourceLocation: sourceLocation)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    @Test("routes are data: push and pop publish the stack; the timeline stays at the bottom")
    func routes() async {
        let (session, _) = await loadedSession(answering: [.page, .post, .context])
        let navigator = session.navigator
        let seen = Locked<[[Route]]>([])
        let subscription = navigator.routes.subscribe { routes in seen.withLock { $0.append(routes) } }
        navigator.open("p1")
        navigator.push(.post("p2"))
        #expect(navigator.depth == 3)
        #expect(navigator.screens.map(\.route) == [.list(.feed(.home)), .post("p1"), .post("p2")])
        #expect(navigator.pop())
        navigator.popToRoot()
        #expect(!navigator.pop())
        #expect(navigator.top.route == .list(.feed(.home)))
        #expect(seen.withLock { $0 } == [
            [.list(.feed(.home))], [.list(.feed(.home)), .post("p1")], [.list(.feed(.home)), .post("p1"), .post("p2")],
            [.list(.feed(.home)), .post("p1")], [.list(.feed(.home))],
        ])
        subscription.cancel()
    }

    @Test("pushing and popping 1,000 detail routes leaves no detail alive and nothing held in the store")
    func lifetimes() async {
        let (session, _) = await loadedSession(answering: [.page, .post, .context, .interaction])
        let before = session.store.holderCount("p1")
        var weakDetails: [() -> PostDetailViewModel?] = []
        for round in 0..<1000 {
            let id = PostID("p\(round % 30 + 1)")
            session.navigator.open(id)
            if case .post(let detail) = session.navigator.top {
                weak let weakDetail = detail
                weakDetails.append { weakDetail }
                detail.toggleFavourite()
            }
            if round.isMultiple(of: 10) { await session.settle() }
            session.navigator.pop()
        }
        await session.settle()
        #expect(weakDetails.count == 1000)
        #expect(weakDetails.allSatisfy { $0() == nil })
        for index in 1...30 {
            let id = PostID("p\(index)")
            #expect(session.store.holderCount(id) == (session.root.rows.contains(.post(id)) ? before : 0))
        }
    }

    @Test("a detail loads its thread, and a post the store does not know")
    func detailLoads() async throws {
        // The server's x replies to root and has a reply; the test answers each call from it.
        var post = makePost("x", favourites: 4)
        post.inReplyToID = "root"
        var reply = makePost("reply")
        reply.inReplyToID = "x"
        let service = GatedServer(ServerModel([makePost("root"), post, reply]))
        service.hold(.post, .context, .interaction)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.navigator.open("x")
        guard case .post(let detail) = session.navigator.top else { throw Failure() }
        #expect(detail.current.postLoad == .loading && detail.current.contextLoad == .loading)
        await service.waitForHeld(2)
        #expect(Set(service.waiting.map(\.kind)) == [.post, .context] && Set(service.waiting.map(\.key)) == ["x"])
        let postCall = try #require(service.waiting.firstIndex { $0.kind == .post })
        service.failHeld(at: postCall, with: Unreachable())
        service.answer(at: 0)
        await session.settle()
        #expect(detail.current.postLoad == .failed("Record not found"))
        #expect(detail.current.failure == "Record not found")
        #expect(detail.current.context?.descendants.map(\.id) == ["reply"])
        detail.toggleFavourite()  // unknown post: nothing happens
        #expect(service.waiting.isEmpty)
        detail.retry()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        #expect(detail.current.post?.id == "x")
        #expect(detail.current.interaction?.favouritesCount == 4)
        #expect(detail.relativeTime == "now")
        detail.toggleFavourite()
        #expect(detail.current.interaction?.favouritesCount == 5)
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true x)"])
        service.answer(at: 0)
        await session.settle()
        #expect(service.model.original(of: "x")?.favourited == true)
        // Thread posts are in the store too, so opening a reply shares its state at once.
        #expect(session.store.interaction("reply") != nil)
    }

    @Test("opening a post the store knows shows that copy at once and asks once for a fresh one, quietly: an edit no stream reported reaches the detail and the rows")
    func detailRechecksAKnownPost() async throws {
        let service = GatedServer(posts: makePosts(5), pageSize: 5, answering: [.page, .post, .context])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let home = session.root
        home.appeared()
        await session.settle()
        service.edit("p2") { $0.text = "edited on the server" }
        session.navigator.open("p2")
        guard case .post(let detail) = session.navigator.top else { throw Failure() }
        // The known copy at once; the fresh copy is not a load the screen reports.
        #expect(detail.current.post?.text == makePost("p2").text)
        #expect(detail.current.postLoad == .loaded && detail.current.recheck == .loading)
        await session.settle()
        #expect(service.calls(.post).map(\.key) == ["p2"])
        #expect(detail.current.post?.text == "edited on the server")
        #expect(home.rows[id: .post("p2")]?.post?.post.text == "edited on the server")
        // A failed recheck is quiet: the known copy stays, nothing to retry.
        session.navigator.pop()
        service.failNext(1, .post, with: ServerUnreachable())
        session.navigator.open("p3")
        guard case .post(let other) = session.navigator.top else { throw Failure() }
        await session.settle()
        #expect(other.current.post?.id == "p3" && other.current.failure == nil)
        #expect(!session.hasFailures)
    }

    @Test("a detail opened from a reblog entry shows the original and shares its state")
    func detailOfReblog() async throws {
        let original = makePost("o", favourites: 1)
        let service = GatedServer(posts: [makePost("w", author: bob, reblog: original), original], answering: [.page, .post, .context, .interaction])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        session.navigator.open("w")
        guard case .post(let detail) = session.navigator.top else { throw Failure() }
        #expect(detail.current.post?.id == "o")
        #expect(detail.current.postLoad == .loaded)
        detail.toggleFavourite()
        await session.settle()
        #expect(session.root.rows.compactMap(\.post).allSatisfy { $0.interaction.favourited && $0.interaction.favouritesCount == 2 })
        #expect(service.asked.contains("interaction(favourite true o)"))
    }

    struct Failure: Error {}

    /// A post the server could not give this time (worth trying again).
    struct Unreachable: FeedServiceError {
        var isTransient: Bool { true }
        var errorDescription: String? { "Record not found" }
    }
}
