@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's scheduled posts over HTTP, on the real endpoints and payload shapes: a scheduled
/// draft is `POST /api/v1/statuses` with `scheduled_at` (ISO 8601, UTC) and its one
/// `Idempotency-Key`, answered by a `ScheduledStatus`; the list is paged by `Link`; a move is
/// `PUT /api/v1/scheduled_statuses/:id`, a cancel `DELETE`, a refusal the server's sentence.
@Suite("HTTP scheduled posts")
struct HTTPScheduledTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z

    static func draft(at date: Date) -> Draft {
        Draft(id: DraftID("1"), text: "Advent calendar, door 1", contentWarning: "calendar", visibility: .unlisted, scheduledAt: date, createdAt: now)
    }

    @Test("a scheduled draft POSTs scheduled_at in UTC with its key; the ScheduledStatus answers, and the same key answers it again")
    func schedule() async throws {
        try await withFakeServer { fake, server in
            fake.state.withLock { $0.server.now = Self.now }
            let service = try makeService(server)
            let at = Self.now.addingTimeInterval(7_200)
            let made = try await service.schedule(Self.draft(at: at), idempotencyKey: "k-1")
            #expect(made == ScheduledPost(id: "1", scheduledAt: at, text: "Advent calendar, door 1", contentWarning: "calendar", visibility: .unlisted))
            let again = try await service.schedule(Self.draft(at: at), idempotencyKey: "k-1")
            #expect(again == made)
            #expect(fake.scheduledPosts.count == 1, "one scheduled post per key")
            let posts = fake.requests.filter { $0.method == "POST" }
            #expect(posts.map(\.path) == ["/api/v1/statuses", "/api/v1/statuses"])
            #expect(posts.map(\.idempotencyKey) == ["k-1", "k-1"])
            let body = try #require(posts.first?.json)
            #expect(body["scheduled_at"] as? String == "2026-11-22T14:00:00.000Z")
            #expect(body["status"] as? String == "Advent calendar, door 1" && body["visibility"] as? String == "unlisted")
            #expect(fake.status("2") == nil && fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a time the server finds too soon is refused with its sentence")
    func tooSoon() async throws {
        try await withFakeServer { fake, server in
            fake.state.withLock { $0.server.now = Self.now }
            let service = try makeService(server)
            do {
                _ = try await service.schedule(Self.draft(at: Self.now.addingTimeInterval(300)), idempotencyKey: "k-2")
                Issue.record("scheduled 5 minutes ahead")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains(FakeMastodon.scheduledTooSoon))
                #expect(!failure.isTransient)
            }
            #expect(fake.scheduledPosts.isEmpty)
        }
    }

    @Test("the list follows Link to the next page; each ScheduledStatus's params become the post")
    func listPaged() async throws {
        try await withFakeServer { fake, server in
            fake.schedule((1...3).map { ScheduledPost(id: String($0), scheduledAt: Self.now.addingTimeInterval(Double($0) * 3_600), text: "Later \($0)") })
            let service = try makeService(server, pageSize: 2)
            let first = try await service.scheduledPosts(after: nil)
            #expect(first.items.map(\.id) == ["3", "2"])
            #expect(first.items.first?.scheduledAt == Self.now.addingTimeInterval(3 * 3_600))
            #expect(first.items.first?.text == "Later 3" && first.items.first?.visibility == .public)
            let next = try #require(first.next)
            let second = try await service.scheduledPosts(after: next)
            #expect(second.items.map(\.id) == ["1"])
            #expect(second.next == nil)
            #expect(fake.requests.map(\.description) == [
                "GET /api/v1/scheduled_statuses [(key: \"limit\", value: \"2\")]",
                "GET /api/v1/scheduled_statuses [(key: \"limit\", value: \"2\"), (key: \"max_id\", value: \"2\")]",
            ])
        }
    }

    @Test("a move PUTs scheduled_at and answers the post moved; a cancel DELETEs it; a post gone is the server's 404")
    func moveAndCancel() async throws {
        try await withFakeServer { fake, server in
            fake.state.withLock { $0.server.now = Self.now }
            fake.schedule([ScheduledPost(id: "7", scheduledAt: Self.now.addingTimeInterval(3_600), text: "Later")])
            let service = try makeService(server)
            let moved = try await service.reschedule("7", to: Self.now.addingTimeInterval(86_400))
            #expect(moved.id == "7" && moved.scheduledAt == Self.now.addingTimeInterval(86_400))
            let put = try #require(fake.requests.last)
            #expect(put.method == "PUT" && put.path == "/api/v1/scheduled_statuses/7")
            #expect(put.form["scheduled_at"] == "2026-11-23T12:00:00.000Z")
            try await service.cancelScheduled("7")
            #expect(fake.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /api/v1/scheduled_statuses/7")
            #expect(fake.scheduledPosts.isEmpty)
            do {
                try await service.cancelScheduled("7")
                Issue.record("cancelled a post gone")
            } catch {
                #expect(!FeedFailure(error).isTransient)
            }
        }
    }
}
