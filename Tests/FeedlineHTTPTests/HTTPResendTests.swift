@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// `POST /api/v1/statuses` sent again with its `Idempotency-Key` after its post was deleted:
/// Mastodon answers 404 `Record not found` while it remembers the key (an hour), which the
/// client reads as `PublishedPostDeleted`; a 404 that names a reply's missing target stays
/// what it says.
@Suite("HTTP: a resent post whose post was deleted", .timeLimit(.minutes(10)))
struct HTTPResendTests {
    @Test("the resend within the hour is PublishedPostDeleted and makes nothing; after the hour the key makes the post again")
    func deletedKey() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            let draft = Draft(id: DraftID("d1"), text: "Gone soon", createdAt: ContractRun.now)
            let made = try await service.publish(draft, idempotencyKey: "key-1")
            #expect(try await service.publish(draft, idempotencyKey: "key-1").id == made.id, "a resend is the same post")
            _ = try await service.delete(made.id)
            await #expect(throws: PublishedPostDeleted()) { try await service.publish(draft, idempotencyKey: "key-1") }
            #expect(fake.requests.filter { $0.method == "POST" && $0.path == "/api/v1/statuses" }.map(\.idempotencyKey) == ["key-1", "key-1", "key-1"])
            fake.state.withLock { $0.server.now += ServerWriting<String>.keyLifetime + 1 }
            let again = try await service.publish(draft, idempotencyKey: "key-1")
            #expect(again.id != made.id)
            #expect(again.text == "Gone soon")
        }
    }

    @Test("a reply to a post gone is the server's 404 sentence, not a deleted post")
    func replyTargetGone() async throws {
        try await withFixtureServer { _, server in
            let service = try makeService(server)
            let draft = Draft(id: DraftID("d2"), text: "Replying", inReplyTo: "404404", createdAt: ContractRun.now)
            await #expect(throws: MastodonHTTPError.notFound(serverMessage: FakeMastodon.replyTargetGone)) {
                try await service.publish(draft, idempotencyKey: "key-2")
            }
        }
    }
}
