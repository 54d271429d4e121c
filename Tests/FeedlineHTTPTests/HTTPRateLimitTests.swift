@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// A favourite refused with 429 waits in the outbox until the server's reset, not the 2 s
/// backoff, and says why and when it is sent again.
@MainActor
@Suite("HTTP rate limits and the outbox", .timeLimit(.minutes(10)))
struct HTTPRateLimitTests {
    @Test("a favourite refused with 429 and Retry-After: 300 is queued with the reason and sent again after 300 s, not 2 s")
    func rateLimitedFavouriteWaitsForTheReset() async throws {
        let statuses = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let retryClock = ManualClock()
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: retryClock)
            let timeline = session.root
            timeline.appeared()
            await session.settle()
            let target = try #require(statuses.first { $0.reblog == nil && $0.favourited != true })
            let row = RowID.post(PostID(target.id))
            let path = "/api/v1/statuses/\(target.id)/favourite"
            fake.enqueue(.init(method: "POST", pathPrefix: path, status: 429, headers: ["Retry-After": "300"], body: #"{"error":"Too many requests"}"#))
            #expect(timeline.toggle(.favourite, row: row))
            await session.settle()
            let queued = try #require(timeline.rows[id: row]?.post?.interaction)
            #expect(queued.favourited && queued.queued == [.favourite])
            let change = try #require(queued.queuedChanges.first)
            #expect(change.retryAfter == .seconds(300))
            #expect(change.reason.contains("rate limiting"))
            await retryClock.waitForSleepers(1)
            #expect(retryClock.requestedSleeps.last == .seconds(300))
            // Well past the 2 s backoff, the wait still sleeps and nothing is sent.
            retryClock.advance(by: .seconds(60))
            #expect(retryClock.sleeperCount == 1)
            #expect(fake.requests.filter { $0.path == path }.count == 1)
            // At the reset it is sent, once, and confirmed.
            retryClock.advance(by: .seconds(240))
            let sent = await firstValue(of: timeline.snapshot) { $0.rows[id: row]?.post?.interaction.pending.isEmpty == true }
            #expect(fake.requests.filter { $0.path == path }.count == 2)
            let interaction = try #require(sent?.rows[id: row]?.post?.interaction)
            #expect(interaction.favourited && interaction.queuedChanges.isEmpty)
            #expect(session.store.outbox.isEmpty)
        }
    }
}
