@_spi(FeedService) import Feedline
import FeedlineObservation
import FeedlineTestSupport
import Observation
import Synchronization
import Testing

/// The `@Observable` faces of the list, row and detail view models, as SwiftUI would read them.
@MainActor
@Suite("Observation", .timeLimit(.minutes(10)))
struct ObservationTests {
    private func loadedSession() async -> FeedSession {
        let session = FeedSession(service: GatedServer(posts: makePosts(12), answering: [.page, .post, .context, .interaction]), clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return session
    }

    @Test("a favourite made on the detail invalidates the list's observed row, and only that row")
    func detailFavouriteInvalidatesOneRow() async throws {
        let session = await loadedSession()
        let list = ObservableFeedList(session.root)
        #expect(list.rows.count == 12)
        session.navigator.open("p3")
        let detail = try #require(session.navigator.top.detail)
        let observedDetail = ObservablePostDetail(detail)
        await session.settle()

        let third = list.rows[2]
        let others = list.rows.enumerated().filter { $0.offset != 2 }.map(\.element)
        let rowFired = Mutex(false)
        let othersFired = Mutex(false)
        let listFired = Mutex(false)
        let detailFired = Mutex(false)
        withObservationTracking { _ = third.row } onChange: { rowFired.withLock { $0 = true } }
        withObservationTracking { for row in others { _ = row.row } } onChange: { othersFired.withLock { $0 = true } }
        withObservationTracking { _ = list.rows } onChange: { listFired.withLock { $0 = true } }
        withObservationTracking { _ = observedDetail.state } onChange: { detailFired.withLock { $0 = true } }

        #expect(observedDetail.toggle(.favourite))
        #expect(rowFired.withLock { $0 }, "the row of the favourited post was invalidated")
        #expect(!othersFired.withLock { $0 }, "no other row was invalidated")
        #expect(!listFired.withLock { $0 }, "the list of rows itself did not change")
        #expect(detailFired.withLock { $0 })
        #expect(third.row.post?.interaction.favourited == true)
        #expect(observedDetail.state.interaction?.favourited == true)
        await session.settle()
        #expect(third.row.post?.interaction.pending == [])
    }

    @Test("rows appended by a page change the list of rows; existing row objects are kept")
    func pageKeepsRowObjects() async throws {
        let session = FeedSession(service: GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page]), clock: .fixed(testNow))
        let list = ObservableFeedList(session.root)
        session.root.appeared()
        await session.settle()
        let first = try #require(list.rows.first)
        let fired = Mutex(false)
        withObservationTracking { _ = list.rows } onChange: { fired.withLock { $0 = true } }
        session.root.loadMore()
        await session.settle()
        #expect(fired.withLock { $0 })
        #expect(list.rows.count == 20)
        #expect(list.rows.first === first)
        #expect(list.rows.map(\.id) == session.root.rows.map(\.id))
        #expect(list.status == session.root.status)
    }

    @Test("a toggle through an observable row reaches the store and every face of the post")
    func rowToggle() async throws {
        let session = await loadedSession()
        let list = ObservableFeedList(session.root)
        let row = try #require(list.rows.first)
        #expect(row.toggle(.bookmark))
        #expect(row.row.post?.interaction.bookmarked == true)
        #expect(session.store.interaction("p1")?.bookmarked == true)
        await session.settle()
        #expect(row.row.post?.interaction.pending == [])
    }
}
