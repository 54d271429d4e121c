@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The core's home feed list view model driven on the sandbox with the shipped fixtures: the
/// two layers agree on paging, refresh, gaps and interactions.
@MainActor
@Suite("Sandbox end to end")
struct SandboxTimelineEndToEndTests {
    private func session(_ folder: String) throws -> (FeedSession, SandboxService) {
        let fixture = try FixtureLoader.load(from: FixturePaths.directory(folder))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        let now = Date(timeIntervalSince1970: 1_795_348_800)
        // Queued interactions are sent again only by retry: the retry clock never moves.
        return (FeedSession(service: service, clock: .fixed(now), retryClock: ManualClock()), service)
    }

    private func postIDs(_ rows: [ListRow]) -> [PostID] { rows.compactMap(\.post?.id) }

    @Test("pages to the end, refreshes into a gap, fills it, and every post shows once")
    func pagingRefreshAndGap() async throws {
        let (session, _) = try session("timeline")
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        #expect(timeline.rows.count == 20)

        // Scroll: display the last row until the end is reached.
        var guardrail = 0
        while !timeline.status.reachedEnd, guardrail < 20 {
            guard let last = timeline.rows.last else { break }
            timeline.rowWillDisplay(last.id)
            await session.settle()
            guardrail += 1
        }
        #expect(timeline.status.reachedEnd)
        let firstWalk = postIDs(Array(timeline.rows))
        #expect(firstWalk.count == 125)
        #expect(Set(firstWalk).count == firstWalk.count)

        // 28 posts arrived after the first page: a refresh brings 20 and leaves a gap.
        timeline.refresh()
        await session.settle()
        let gaps = timeline.rows.compactMap(\.gap)
        #expect(gaps.count == 1)
        #expect(timeline.rows.firstIndex { $0.gap != nil } == 20)
        #expect(timeline.status.failure == nil)

        let gap = try #require(gaps.first)
        timeline.openGap(gap.id)
        await session.settle()
        #expect(timeline.rows.allSatisfy { $0.gap == nil })
        let ids = postIDs(Array(timeline.rows))
        #expect(ids.count == 125 + 28)
        #expect(Set(ids).count == ids.count)
        // Newest first: the arrivals sit above everything that was there.
        #expect(Array(ids.suffix(125)) == firstWalk)
        let dates = timeline.rows.compactMap { $0.post?.post.createdAt }
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test("a page that fails is retried with its cursor; a favourite the server fails stays queued; a refused bookmark rolls back with the reason")
    func failures() async throws {
        let (session, service) = try session("faults")
        let timeline = session.root
        timeline.appeared()
        await session.settle()
        #expect(timeline.rows.count == 5)

        // The second page fails once.
        timeline.loadMore()
        await session.settle()
        let failure = try #require(timeline.status.failure)
        #expect(failure.intent == .olderPage)
        #expect(timeline.rows.count == 5)
        // Displaying the last row again does not ask again (no request-fail loop).
        let cursorBefore = timeline.state.older
        timeline.rowWillDisplay(try #require(timeline.rows.last).id)
        #expect(timeline.state.inFlight == nil)
        timeline.retry()
        #expect(timeline.state.older == cursorBefore)
        await session.settle()
        #expect(timeline.status.failure == nil)
        #expect(timeline.rows.count == 10)

        // Favouriting this post always fails.
        let target = PostID("117649322034651655")
        var guardrail = 0
        while timeline.state.index(of: .post(target)) == nil, !timeline.status.reachedEnd, guardrail < 10 {
            timeline.loadMore()
            await session.settle()
            guardrail += 1
        }
        let rowID = RowID.post(target)
        let before = try #require(timeline.rows[id: rowID]?.post?.interaction)
        #expect(timeline.toggle(.favourite, row: rowID))
        #expect(timeline.rows[id: rowID]?.post?.interaction.favourited != before.favourited)
        #expect(timeline.rows[id: rowID]?.post?.interaction.pending == [.favourite])
        await session.settle()
        // The server failed (HTTP 500): not rolled back, queued in the outbox.
        let after = try #require(timeline.rows[id: rowID]?.post?.interaction)
        #expect(after.favourited != before.favourited)
        #expect(after.favouritesCount == before.favouritesCount + 1)
        #expect(after.pending == [.favourite] && after.queued == [.favourite] && after.failure == nil)
        #expect(session.store.outbox == [OutboxEntry(postID: target, kind: .favourite, value: !before.favourited)])
        let shown = try #require(timeline.rows.compactMap(\.post).first { $0.id == target })
        #expect(shown.interaction == after)
        let server = try await service.post(target)
        #expect(server.favourited == before.favourited)

        // Bookmarking this one is forbidden: a refusal rolls back, with the reason.
        let refused = RowID.post("117648968273705780")
        let unbookmarked = try #require(timeline.rows[id: refused]?.post?.interaction)
        #expect(timeline.toggle(.bookmark, row: refused))
        await session.settle()
        let rolledBack = try #require(timeline.rows[id: refused]?.post?.interaction)
        #expect(rolledBack.bookmarked == unbookmarked.bookmarked && rolledBack.pending.isEmpty)
        #expect(rolledBack.failure == InteractionFailure(
            kind: .bookmark, value: !unbookmarked.bookmarked, message: "Could not bookmark this post: This action is not allowed.", isTransient: false))
    }
}
