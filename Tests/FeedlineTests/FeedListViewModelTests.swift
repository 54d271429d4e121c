@_spi(FeedService) import Feedline
import Synchronization
import Testing

@MainActor
@Suite("Feed list view model", .timeLimit(.minutes(10)))
struct FeedListViewModelTests {
    private func makeSession(_ service: any FeedService, prefetch: Int = 5) -> FeedSession {
        FeedSession(service: service, clock: .fixed(testNow), prefetchDistance: prefetch)
    }

    @Test("appearing loads the first page; the snapshot's rows and status follow")
    func firstPage() async {
        let service = ControlledService(expecting: .pages)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        #expect(timeline.status.loading == .firstPage)
        await service.waitForPending(1)
        #expect(service.log == [.page(nil)])
        service.answer(.page(nil), with: .page(Page(posts: makePosts(3), next: PageCursor("p3"))))
        await session.settle()
        #expect(timeline.rows.map(\.id) == [.post("p1"), .post("p2"), .post("p3")])
        #expect(timeline.status == ListStatus())
        #expect(timeline.rowHandle("p2")?.row?.text == "post p2")
        #expect(timeline.rowHandle("p2")?.row?.relativeTime(.fixed(testNow)) == "2m")
    }

    @Test("reset cancels the request in flight, and its late response is dropped")
    func resetCancels() async {
        let service = ControlledService(expecting: .pages)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await service.waitForPending(1)
        timeline.reset()
        await service.waitForPending(2)
        #expect(service.log == [.page(nil), .page(nil)])
        // The first (cancelled) call answers late with posts; they must not show.
        service.answer(.page(nil), with: .page(Page(posts: [makePost("stale")], next: nil)))
        await quiesce(session, service)
        #expect(timeline.rows.isEmpty)
        service.answer(.page(nil), with: .page(Page(posts: makePosts(2), next: nil)))
        await session.settle()
        #expect(timeline.rows.map(\.id) == [.post("p1"), .post("p2")])
        #expect(timeline.status.reachedEnd)
    }

    @Test("never two page loads at once: scrolling while loading asks nothing more")
    func oneAtATime() async {
        let service = MemoryService(posts: makePosts(60), pageSize: 20, expecting: .pages)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        await session.settle()
        #expect(service.calls == ["page(nil)", "page(p20)"])
        #expect(timeline.rows.count == 40)
    }

    @Test("a subscriber that applies every changeset to its own copy ends with the same rows")
    func changesetsRebuildRows() async {
        let service = MemoryService(posts: makePosts(45), pageSize: 10, expecting: [.pages, .newer, .interactions])
        let session = makeSession(service)
        let timeline = session.root
        let rebuilt = Locked<[ListRow]?>(nil)
        let problems = Locked<[String]>([])
        let subscription = timeline.snapshot.subscribe { snapshot in
            rebuilt.withLock { rows in
                guard let current = rows else {
                    rows = Array(snapshot.rows)  // the replay: render as is
                    return
                }
                guard snapshot.changes.oldCount == current.count else {
                    problems.withLock { $0.append("changeset for \(snapshot.changes.oldCount) rows, have \(current.count)") }
                    rows = Array(snapshot.rows)
                    return
                }
                rows = snapshot.changes.apply(to: current)
            }
        }
        timeline.appeared()
        await session.settle()
        service.arrive(makePosts(25, prefix: "n"))
        timeline.refresh()
        await session.settle()
        for _ in 0..<6 {
            if let last = timeline.rows.last { timeline.rowWillDisplay(last.id) }
            await session.settle()
        }
        timeline.rowHandle("p3")?.toggleFavourite()
        await session.settle()
        if let gap = timeline.rows.first(where: { $0.gap != nil }) { timeline.openGap(gap.id) }
        await session.settle()
        timeline.reset()
        await session.settle()
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(rebuilt.withLock { $0 } == Array(timeline.rows))
        #expect(timeline.rows.count == 10)
        subscription.cancel()
    }

    @Test("refresh with a full page leaves a gap; opening it fills it without duplicates")
    func refreshAndGap() async {
        let service = MemoryService(posts: makePosts(30), pageSize: 10, expecting: [.pages, .newer])
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        service.arrive(makePosts(15, prefix: "n"))
        timeline.refresh()
        await session.settle()
        #expect(timeline.rows.count == 21)
        let gap = timeline.rows[10]
        #expect(gap.gap == Gap(below: "p1", above: "n10"))
        timeline.openGap(gap.id)
        await session.settle()
        #expect(timeline.rows.map(\.id) == (makePosts(15, prefix: "n") + makePosts(10)).map { .post($0.id) })
        #expect(service.calls == ["page(nil)", "newer(p1, nil)", "newer(p1, n10)"])
    }

    @Test("a failure names what failed as the loading it showed: the first page of an empty list, an older page below rows")
    func failureNamesWhatLoaded() async {
        let service = MemoryService(posts: makePosts(30), pageSize: 10, expecting: .pages)
        let session = makeSession(service)
        let timeline = session.root
        service.failNext("page(nil)")
        timeline.appeared()
        #expect(timeline.status.loading == .firstPage)
        await session.settle()
        #expect(timeline.status.failure == ListStatus.Failure(intent: .firstPage, failure: "The server is unavailable."))
        timeline.retry()
        await session.settle()
        #expect(timeline.status.failure == nil && timeline.rows.count == 10)
        service.failNext("page(p10)")
        timeline.loadMore()
        #expect(timeline.status.loading == .olderPage)
        await session.settle()
        #expect(timeline.status.failure?.intent == .olderPage)
    }

    @Test("a failed page shows its error with what fixes it, and retry uses the same cursor")
    func failureAndRetry() async {
        let service = MemoryService(posts: makePosts(30), pageSize: 10, expecting: .pages)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        service.failNext("page(p10)")
        timeline.loadMore()
        await session.settle()
        #expect(timeline.status.failure == ListStatus.Failure(intent: .olderPage, failure: "The server is unavailable."))
        #expect(timeline.status.olderFailure == "The server is unavailable.")
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        await session.settle()
        timeline.retry()
        await session.settle()
        #expect(service.calls == ["page(nil)", "page(p10)", "page(p10)"])
        #expect(timeline.rows.count == 20)
        #expect(timeline.status.failure == nil)
    }

    @Test("a view model that is released drops its late response and does not stay alive")
    func releasedTimeline() async {
        let service = ControlledService(expecting: .pages)
        weak var released: FeedListViewModel?
        let activity = Activity()
        do {
            let store = PostStore(service: service, activity: activity)
            let timeline = FeedListViewModel(source: .feed(.home), service: service, store: store, activity: activity)
            released = timeline
            timeline.appeared()
        }
        await service.waitForPending(1)
        #expect(released == nil)
        service.answer(.page(nil), with: .page(Page(posts: makePosts(1), next: nil)))
        await activity.idle()
        #expect(released == nil)
    }
}
