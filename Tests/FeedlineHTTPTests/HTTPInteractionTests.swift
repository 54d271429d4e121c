@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Favourite, boost, their undos, a post and its thread, checked on the server side.
@Suite("HTTP interactions")
struct HTTPInteractionTests {
    @Test("favourite, unfavourite, reblog and unreblog POST to their paths with the token and return the original")
    func interactions() async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try #require(statuses.first { $0.reblog == nil && $0.favourited != true && $0.reblogged != true })
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let id = PostID(target.id)

            let favourited = try await service.set(.favourite, to: true, postID: id)
            #expect(favourited.id == id && favourited.favourited)
            #expect(favourited.favouritesCount == target.favouritesCount + 1)
            let unfavourited = try await service.set(.favourite, to: false, postID: id)
            #expect(!unfavourited.favourited && unfavourited.favouritesCount == target.favouritesCount)

            let reblogged = try await service.set(.reblog, to: true, postID: id)
            #expect(reblogged.id == id, "the original is taken from the boost the server answers with")
            #expect(reblogged.reblog == nil && reblogged.reblogged)
            #expect(reblogged.reblogsCount == target.reblogsCount + 1)
            let unreblogged = try await service.set(.reblog, to: false, postID: id)
            #expect(unreblogged.id == id && !unreblogged.reblogged)

            let seen = fake.requests.map { "\($0.method) \($0.path)" }
            #expect(
                seen == ["favourite", "unfavourite", "reblog", "unreblog"].map { "POST /api/v1/statuses/\(target.id)/\($0)" }
            )
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a post and its thread are read from the status endpoints")
    func postAndContext() async throws {
        let statuses = try FixtureStatuses.timeline()
        let reply = try #require(statuses.first { status in
            status.inReplyToID.map { parent in statuses.contains { $0.id == parent } } ?? false
        })
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let post = try await service.post(PostID(reply.id))
            #expect(post == Post(reply))
            let context = try await service.context(of: PostID(reply.inReplyToID ?? ""))
            #expect(context.descendants.map(\.id).contains(PostID(reply.id)))
            #expect(fake.requests.map(\.path) == ["/api/v1/statuses/\(reply.id)", "/api/v1/statuses/\(reply.inReplyToID ?? "")/context"])
        }
    }
}
