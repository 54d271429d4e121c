@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Issue 35's proof features over HTTP: pin / unpin and mute / unmute of a conversation POST to
/// Mastodon's paths and read `pinned` / `muted` back; a sixth pin is refused with the server's
/// sentence; a profile's first page asks for its pinned posts and puts them on top, once each.
@Suite("HTTP pins and muted conversations")
struct HTTPPinTests {
    @Test("pin, unpin, mute and unmute POST to their paths with the token and return the original with its flag")
    func paths() async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try #require(statuses.first { $0.reblog == nil && $0.visibility == .public })
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let id = PostID(target.id)
            let pinned = try await service.set(.pin, to: true, postID: id)
            #expect(pinned.id == id && pinned.pinned && pinned.isOn(.pin))
            let unpinned = try await service.set(.pin, to: false, postID: id)
            #expect(!unpinned.pinned)
            let muted = try await service.set(.muteThread, to: true, postID: id)
            #expect(muted.muted && muted.isOn(.muteThread) && !muted.pinned)
            let unmuted = try await service.set(.muteThread, to: false, postID: id)
            #expect(!unmuted.muted)
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == ["pin", "unpin", "mute", "unmute"].map { "POST /api/v1/statuses/\(target.id)/\($0)" })
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a sixth pin is refused with Mastodon's sentence (422), not sent again")
    func sixthPinRefused() async throws {
        let statuses = try FixtureStatuses.timeline()
        let originals = statuses.filter { $0.reblog == nil }.prefix(6)
        try #require(originals.count == 6)
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            for status in originals.prefix(5) { _ = try await service.set(.pin, to: true, postID: PostID(status.id)) }
            let sixth = try #require(originals.last)
            do {
                _ = try await service.set(.pin, to: true, postID: PostID(sixth.id))
                Issue.record("the sixth pin was accepted")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("Validation failed: You have already pinned the maximum number of posts"), "\(failure.message)")
                #expect(!failure.isTransient, "a refusal, not worth a retry")
            }
            #expect(fake.requests.count == 6)
        }
    }

    @Test("a profile's first page asks for its pinned posts and shows them on top, each once; older pages do not ask again")
    func profilePinnedFirst() async throws {
        let statuses = try FixtureStatuses.timeline()
        let byAccount = Dictionary(grouping: statuses.filter { $0.reblog == nil && $0.visibility != .direct }) { $0.account.id }
        let (accountID, own) = try #require(byAccount.max { $0.value.count < $1.value.count })
        try #require(own.count >= 3)
        let oldest = try #require(own.min { $0.createdAt < $1.createdAt })
        let newest = try #require(own.max { $0.createdAt < $1.createdAt })
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server, pageSize: 2)
            _ = try await service.set(.pin, to: true, postID: PostID(oldest.id))
            _ = try await service.set(.pin, to: true, postID: PostID(newest.id))
            let first = try await service.page(of: .account(AccountID(accountID)), after: nil)
            // Mastodon's order of pins (the fake keeps the feed's), then the newest posts without them.
            #expect(first.onTop == 2)
            #expect(Set(first.posts.prefix(2).map(\.id)) == [PostID(oldest.id), PostID(newest.id)])
            #expect(first.posts.prefix(2).allSatisfy { $0.pinned })
            #expect(Set(first.posts.map(\.id)).count == first.posts.count, "each post once")
            let asked = fake.requests.filter { $0.path == "/api/v1/accounts/\(accountID)/statuses" }
            // The two requests run side by side: in either order.
            #expect(asked.map { $0.query["pinned"] ?? "-" }.sorted() == ["-", "true"])
            let next = try await service.page(of: .account(AccountID(accountID)), after: first.next)
            #expect(next.onTop == 0)
            #expect(fake.requests.filter { $0.query["pinned"] == "true" }.count == 1)
        }
    }
}
