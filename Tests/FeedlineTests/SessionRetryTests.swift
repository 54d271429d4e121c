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
        let service = MemoryService(posts: makePosts(30), pageSize: 10, expecting: [.pages, .newer])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let list = session.root
        list.appeared()
        await session.settle()
        service.failNext("page(p10)")
        list.loadMore()
        await session.settle()
        service.failNext("newer(p1")
        list.refresh()
        await session.settle()
        #expect(list.status.failure?.intent == .refresh)
        #expect(list.status.olderFailure != nil)
        #expect(session.hasFailures)
        #expect(session.retry())
        await session.settle()
        #expect(service.calls.suffix(2) == ["newer(p1, nil)", "page(p10)"])
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
        let service = MemoryService(posts: makePosts(3), expecting: [.pages, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        service.failNext("favourite", refused: true)
        #expect(session.root.toggle(.favourite, row: .post("p2")))
        await session.settle()
        #expect(session.store.interaction("p2")?.favourited == false)
        #expect(session.store.interaction("p2")?.failure?.kind == .favourite)
        #expect(!session.hasFailures, "nothing a retry would send")
        #expect(session.store.retryableInteractions.isEmpty)
        #expect(!session.retry())
        await session.settle()
        #expect(service.calls.filter { $0.hasPrefix("favourite") } == ["favourite(true, p2)"])
        #expect(session.store.interaction("p2")?.failure?.kind == .favourite, "still there for a front to show")
        #expect(session.root.toggle(.favourite, row: .post("p2")))
        await session.settle()
        #expect(service.calls.filter { $0.hasPrefix("favourite") } == ["favourite(true, p2)", "favourite(true, p2)"])
        #expect(session.store.interaction("p2") == PostInteraction(favourited: true, favouritesCount: 1, reblogged: false, reblogsCount: 0))
    }

    @Test("a detail whose post failed to load ignores taps, even once another screen taught the store the post")
    func detailTapsWaitForItsPost() async throws {
        let service = ControlledService(expecting: [.pages, .posts, .contexts, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.navigator.open("p5")
        let detail = try #require(session.navigator.top.detail)
        await service.waitForPending(2)
        service.fail(.post("p5"), message: "Down.")
        service.answer(.context("p5"), with: .context(PostContext()))
        await quiesce(session, service)
        #expect(detail.current.post == nil)
        // The root list (beneath) loads a page that holds p5: the store knows it now.
        session.root.appeared()
        await service.waitForPending(1)
        service.answer(.page(nil), with: .page(Page(posts: makePosts(6), next: nil)))
        await quiesce(session, service)
        #expect(session.store.post("p5") != nil)
        #expect(!detail.toggle(.favourite))
        #expect(detail.current.interaction == nil)
        #expect(service.pending.isEmpty)
        #expect(session.store.interaction("p5")?.favourited == false)
        // Retry loads the post; then taps count.
        session.retry()
        await service.waitForPending(1)
        service.answer(.post("p5"), with: .post(makePost("p5")))
        await quiesce(session, service)
        #expect(detail.toggle(.favourite))
        await service.waitForPending(1)
        #expect(service.pending == [.favourite(true, "p5")])
    }

    @Test("one input, one snapshot: a page that brings a fresher copy of a row already shown publishes once")
    func oneSnapshotPerInput() async throws {
        let service = ControlledService(expecting: .pages)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let list = session.root
        let snapshots = Locked(0)
        let subscription = list.snapshot.subscribe { _ in snapshots.withLock { $0 += 1 } }
        list.appeared()
        await service.waitForPending(1)
        service.answer(.page(nil), with: .page(Page(posts: makePosts(3), next: PageCursor("p3"))))
        await quiesce(session, service)
        let before = snapshots.withLock { $0 }
        list.loadMore()
        await service.waitForPending(1)
        let afterRequest = snapshots.withLock { $0 }
        #expect(afterRequest == before + 1)  // the status line: loading older posts
        // The next page repeats p2 with new text and more favourites, and adds p4.
        service.answer(.page(PageCursor("p3")), with: .page(Page(posts: [makePost("p2", text: "edited", favourites: 5), makePost("p4")], next: nil)))
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
        let service = MemoryService(posts: makePosts(5), expecting: .pages)
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
