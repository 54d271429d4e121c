@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Synchronization
import Testing

/// What a front with one Retry button needs: everything failed, anywhere, runs again.
@MainActor
@Suite("Session retry and snapshots", .timeLimit(.minutes(10)))
struct SessionRetryTests {
    @Test("retry after a failed page and a failed refresh retries both; status says what a refresh brought")
    func pageAndRefresh() async throws {
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page, .newer])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let list = session.root
        list.appeared()
        await session.settle()
        service.failNext(1, .page, with: ServerUnreachable())
        list.loadMore()
        await session.settle()
        service.failNext(1, .newer, with: ServerUnreachable())
        list.refresh()
        await session.settle()
        #expect(list.status.failure?.intent == .refresh)
        #expect(list.status.olderFailure != nil)
        #expect(session.hasFailures)
        #expect(session.retry())
        await session.settle()
        #expect(service.asked.suffix(2) == ["newer(home, than: p1, olderThan: nil)", "page(home, after: p10)"])
        #expect(list.rows.count == 20)
        #expect(list.status.failure == nil && list.status.olderFailure == nil)
        #expect(list.status.lastRefresh == 0)
        #expect(!session.hasFailures)
        #expect(!session.retry())
        service.arrive([makePost("n1")])
        list.refresh()
        await session.settle()
        #expect(list.status.lastRefresh == 1)
    }

    @Test("retry does not send a refused favourite again (the server would refuse it again): the refusal stays to be shown, and a toggle asks again")
    func refusedFavouriteIsNotRetried() async throws {
        let service = GatedServer(posts: makePosts(3), answering: [.page, .interaction])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        service.failNext(1, .interaction, with: ServerRefusal("Not allowed."))
        #expect(session.root.toggle(.favourite, row: .post("p2")))
        await session.settle()
        #expect(session.store.interaction("p2")?.favourited == false)
        #expect(session.store.interaction("p2")?.failure?.kind == .favourite)
        #expect(!session.hasFailures, "nothing a retry would send")
        #expect(session.store.retryableInteractions.isEmpty)
        #expect(!session.retry())
        await session.settle()
        #expect(service.asked.filter { $0.hasPrefix("interaction(favourite") } == ["interaction(favourite true p2)"])
        #expect(session.store.interaction("p2")?.failure?.kind == .favourite, "still there for a front to show")
        #expect(session.root.toggle(.favourite, row: .post("p2")))
        await session.settle()
        #expect(service.asked.filter { $0.hasPrefix("interaction(favourite") } == ["interaction(favourite true p2)", "interaction(favourite true p2)"])
        #expect(session.store.interaction("p2") == PostInteraction(favourited: true, favouritesCount: 1, reblogged: false, reblogsCount: 0))
    }

    @Test("a detail whose post failed to load ignores taps, even once another screen taught the store the post")
    func detailTapsWaitForItsPost() async throws {
        let service = GatedServer(posts: makePosts(6))
        service.hold(.page, .post, .context, .interaction)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.navigator.open("p5")
        let detail = try #require(session.navigator.top.detail)
        await service.waitForHeld(2)
        service.lose(at: try #require(service.waitingIndex(.post, key: "p5")))
        service.answer(at: try #require(service.waitingIndex(.context, key: "p5")))
        await quiesce(session, service)
        #expect(detail.current.post == nil)
        // The root list (beneath) loads a page that holds p5: the store knows it now.
        session.root.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(session.store.post("p5") != nil)
        #expect(!detail.toggle(.favourite))
        #expect(detail.current.interaction == nil)
        #expect(service.waiting.isEmpty)
        #expect(session.store.interaction("p5")?.favourited == false)
        // Retry loads the post; then taps count.
        session.retry()
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["post(p5)"])
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(detail.toggle(.favourite))
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p5)"])
    }

    @Test("one input, one snapshot: a page that brings a fresher copy of a row already shown publishes once")
    func oneSnapshotPerInput() async throws {
        // Pages of three: the first has more below it.
        let service = GatedServer(posts: makePosts(4), pageSize: 3)
        service.hold(.page)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let list = session.root
        let snapshots = Locked(0)
        let subscription = list.snapshot.subscribe { _ in snapshots.withLock { $0 += 1 } }
        list.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await quiesce(session, service)
        let before = snapshots.withLock { $0 }
        list.loadMore()
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(home, after: p3)"])
        let afterRequest = snapshots.withLock { $0 }
        #expect(afterRequest == before + 1)  // the status line: loading older posts
        // The next page repeats p2 with new text and more favourites, and adds p4.
        service.serve([makePost("p1"), makePost("p3"), makePost("p2", text: "edited", favourites: 5), makePost("p4")])
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(snapshots.withLock { $0 } == afterRequest + 1)
        let changes = list.current.changes
        #expect(changes.insertions.map(\.index) == [3])
        #expect(changes.updates.map(\.newIndex) == [1])
        #expect(list.rows[1].post?.text == "edited" && list.rows[1].post?.interaction.favouritesCount == 5)
        subscription.cancel()
    }

    @Test("a row's index is O(1) on a snapshot, and the changeset maps to a front's own row type")
    func snapshotIndexAndMap() async throws {
        let service = GatedServer(posts: makePosts(5), answering: [.page])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        let snapshot = session.root.current
        #expect(snapshot.rows.index(of: .post("p4")) == 3)
        struct Line: Identifiable, Equatable { var id: RowID; var text: String }
        let mapped = snapshot.changes.map { Line(id: $0.id, text: $0.post?.text ?? "gap") }
        #expect(mapped.insertions.map(\.element.text) == ["post p1", "post p2", "post p3", "post p4", "post p5"])
    }
}
