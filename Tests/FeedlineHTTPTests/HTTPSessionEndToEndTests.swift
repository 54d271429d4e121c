@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The core's session and its home feed list view model driven over the HTTP service and a real
/// server: the two layers agree on paging, refresh, gaps, interactions and failures.
@MainActor
@Suite("HTTP session end to end")
struct HTTPSessionEndToEndTests {
    @Test("loads, scrolls to the end, refreshes into a gap and fills it, favourites and boosts; errors keep the timeline")
    func session() async throws {
        let statuses = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            // Queued interactions are sent again only by retry: the retry clock never moves.
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
            let timeline = session.root
            timeline.appeared()
            await session.settle()
            #expect(timeline.rows.count == 20)

            var guardrail = 0
            while !timeline.status.reachedEnd, let last = timeline.rows.last, guardrail < 20 {
                timeline.rowWillDisplay(last.id)
                await session.settle()
                guardrail += 1
            }
            let walked = timeline.rows.compactMap(\.post?.id)
            #expect(timeline.status.reachedEnd)
            #expect(walked == statuses.map { PostID($0.id) })

            // Favourite and boost a post: the server agrees and the row shows it.
            let target = try #require(statuses.first { $0.reblog == nil && $0.favourited != true && $0.reblogged != true })
            let rowID = RowID.post(PostID(target.id))
            #expect(timeline.toggle(.favourite, row: rowID))
            #expect(timeline.toggle(.reblog, row: rowID))
            await session.settle()
            let row = try #require(timeline.rows[id: rowID]?.post?.interaction)
            #expect(row.favourited && row.reblogged)
            #expect(row.favouritesCount == target.favouritesCount + 1)
            #expect(fake.status(target.id)?.favourited == true)
            #expect(fake.status(target.id)?.reblogged == true)

            // A favourite the server cannot do now (503) stays, queued in the outbox …
            let other = try #require(statuses.last { $0.reblog == nil && $0.favourited != true })
            let otherID = RowID.post(PostID(other.id))
            fake.enqueue(.init(method: "POST", pathPrefix: "/api/v1/statuses/\(other.id)/favourite", status: 503, body: "<html/>"))
            #expect(timeline.toggle(.favourite, row: otherID))
            await session.settle()
            let queued = try #require(timeline.rows[id: otherID]?.post?.interaction)
            #expect(queued.favourited && queued.favouritesCount == other.favouritesCount + 1)
            #expect(queued.queued == [.favourite] && queued.failure == nil)
            #expect(session.store.outbox == [OutboxEntry(postID: PostID(other.id), kind: .favourite, value: true)])
            // … and sent again by retry, when the server refuses it (403): that rolls back with
            // the message. The rows stay.
            fake.fail("/api/v1/statuses/\(other.id)/favourite", method: "POST", status: 403)
            #expect(session.retry())
            await session.settle()
            let otherRow = try #require(timeline.rows[id: otherID]?.post?.interaction)
            #expect(!otherRow.favourited)
            #expect(otherRow.favouritesCount == other.favouritesCount)
            #expect(
                otherRow.failure?.message
                    == "Could not favourite this post: The server does not allow this; the access token may lack the permission it needs."
            )
            #expect(session.store.outbox.isEmpty)
            #expect(timeline.rows.compactMap(\.post?.id) == walked)

            // A refresh that fails keeps every row and says why.
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 500, body: "oops"))
            timeline.refresh()
            await session.settle()
            #expect(timeline.status.failure?.message == "The server failed with an internal error (HTTP 500). Try again later.")
            #expect(timeline.rows.compactMap(\.post?.id) == walked)

            // 28 posts arrive: the retried refresh brings the newest 20 above a gap; opening it brings 8.
            let arrivals = try FixtureStatuses.arrivals()
            fake.post(arrivals)
            timeline.retry()
            await session.settle()
            #expect(timeline.status.failure == nil)
            let gap = try #require(timeline.rows.compactMap(\.gap).first)
            #expect(timeline.rows.firstIndex { $0.gap != nil } == 20)
            timeline.openGap(gap.id)
            await session.settle()
            #expect(timeline.rows.allSatisfy { $0.gap == nil })
            #expect(timeline.rows.compactMap(\.post?.id) == arrivals.map { PostID($0.id) } + walked)
            expectNoToken(timeline.status)
        }
    }
}
