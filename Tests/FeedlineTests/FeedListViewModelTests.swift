@_spi(FeedService) import Feedline
import FeedlineTestSupport
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
        // Pages of three: the first has more below it.
        let service = GatedServer(posts: makePosts(4), pageSize: 3)
        service.hold(.page)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        #expect(timeline.status.loading == .firstPage)
        await service.waitForHeld(1)
        #expect(service.asked == ["page(home, after: nil)"])
        service.answer(at: 0)
        await session.settle()
        #expect(timeline.rows.map(\.id) == [.post("p1"), .post("p2"), .post("p3")])
        #expect(timeline.status == ListStatus())
        #expect(timeline.rowHandle("p2")?.row?.text == "post p2")
        #expect(timeline.rowHandle("p2")?.row?.relativeTime(.fixed(testNow)) == "2m")
    }

    @Test("reset cancels the request in flight, and its late response is dropped")
    func resetCancels() async {
        let service = GatedServer(posts: [makePost("stale")])
        service.hold(.page)
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await service.waitForHeld(1)
        timeline.reset()
        await service.waitForHeld(2)
        #expect(service.asked == ["page(home, after: nil)", "page(home, after: nil)"])
        // The first (cancelled) call answers late with posts; they must not show.
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(timeline.rows.isEmpty)
        service.serve(makePosts(2))
        service.answer(at: 0)
        await session.settle()
        #expect(timeline.rows.map(\.id) == [.post("p1"), .post("p2")])
        #expect(timeline.status.reachedEnd)
    }

    @Test("never two page loads at once: scrolling while loading asks nothing more")
    func oneAtATime() async {
        let service = GatedServer(posts: makePosts(60), pageSize: 20, answering: [.page])
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        await session.settle()
        #expect(service.asked == ["page(home, after: nil)", "page(home, after: p20)"])
        #expect(timeline.rows.count == 40)
    }

    @Test("a subscriber that applies every changeset to its own copy ends with the same rows")
    func changesetsRebuildRows() async {
        let service = GatedServer(posts: makePosts(45), pageSize: 10, answering: [.page, .newer, .interaction])
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
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page, .newer])
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
        #expect(service.asked == ["page(home, after: nil)", "newer(home, than: p1, olderThan: nil)", "newer(home, than: p1, olderThan: n10)"])
    }

    @Test("a failure names what failed as the loading it showed: the first page of an empty list, an older page below rows")
    func failureNamesWhatLoaded() async {
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page])
        let session = makeSession(service)
        let timeline = session.root
        service.failNext(1, .page, with: ServerUnreachable())
        timeline.appeared()
        #expect(timeline.status.loading == .firstPage)
        await session.settle()
        #expect(timeline.status.failure == ListStatus.Failure(intent: .firstPage, failure: "The server could not be reached."))
        timeline.retry()
        await session.settle()
        #expect(timeline.status.failure == nil && timeline.rows.count == 10)
        service.failNext(1, .page, with: ServerUnreachable())
        timeline.loadMore()
        #expect(timeline.status.loading == .olderPage)
        await session.settle()
        #expect(timeline.status.failure?.intent == .olderPage)
    }

    @Test("a failed page shows its error with what fixes it, and retry uses the same cursor")
    func failureAndRetry() async {
        let service = GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page])
        let session = makeSession(service)
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        service.failNext(1, .page, with: ServerUnreachable())
        timeline.loadMore()
        await session.settle()
        #expect(timeline.status.failure == ListStatus.Failure(intent: .olderPage, failure: "The server could not be reached."))
        #expect(timeline.status.olderFailure == "The server could not be reached.")
        for row in timeline.rows { timeline.rowWillDisplay(row.id) }
        await session.settle()
        timeline.retry()
        await session.settle()
        #expect(service.asked == ["page(home, after: nil)", "page(home, after: p10)", "page(home, after: p10)"])
        #expect(timeline.rows.count == 20)
        #expect(timeline.status.failure == nil)
    }

    @Test("a view model that is released drops its late response and does not stay alive")
    func releasedTimeline() async {
        let service = GatedServer(posts: makePosts(1))
        service.hold(.page)
        weak var released: FeedListViewModel?
        let activity = Activity()
        let store = PostStore(service: service, activity: activity)
        var timeline: FeedListViewModel? = FeedListViewModel(source: .feed(.home), service: service, store: store, activity: activity)
        released = timeline
        timeline?.appeared()
        // Its request reaches the server and waits there; then the screen goes.
        await service.waitForHeld(1)
        timeline = nil
        #expect(released == nil)
        service.answer(at: 0)
        await activity.idle()
        #expect(released == nil)
    }

    @Test("a view model released before its request began sends none")
    func releasedBeforeItsRequest() async {
        let service = GatedServer(posts: makePosts(1))
        service.hold(.page)
        weak var released: FeedListViewModel?
        let activity = Activity()
        do {
            let store = PostStore(service: service, activity: activity)
            let timeline = FeedListViewModel(source: .feed(.home), service: service, store: store, activity: activity)
            released = timeline
            // On the main actor, where this test runs: the load's task cannot begin before the
            // screen goes at the end of this scope, which cancels it.
            timeline.appeared()
        }
        #expect(released == nil)
        await activity.idle()
        #expect(service.calls(.page).isEmpty, "\(service.calls)")
        #expect(activity.total == 0)
    }
}
