@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The hashtags a profile features: asked with the profile's relationship and shown in its
/// header (the accounts it features are an `endorsed` list: see `ReactedBySessionTests`).
@MainActor
@Suite("Featured hashtags on a profile")
struct FeaturedTagsSessionTests {
    static let featured = [Hashtag(name: "Tea", accountPosts: 12, lastUsed: testNow), Hashtag(name: "lemons", accountPosts: 0)]

    func server() -> GatedServer {
        var model = ServerModel<Post>()
        let post = makePost("a1", minutesAgo: 1, author: alice)
        model.add([post])
        model.timelines.feeds[.account(AccountID(alice.id))] = [post.id]
        model.relationships.profiles[AccountID(alice.id)] = Profile(author: alice)
        model.relationships.featuredTags[AccountID(alice.id)] = Self.featured
        return GatedServer(model, answering: [.page, .profile, .relationships])
    }

    func profile(_ server: GatedServer) async throws -> (FeedSession, ProfileViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        let profile = try #require(session.navigator.top.list?.profile)
        await session.settle()
        return (session, profile)
    }

    @Test("the header shows the hashtags the profile features, in the server's order, with their counts")
    func headerShowsFeatured() async throws {
        let server = server()
        let (_, profile) = try await profile(server)
        #expect(profile.current.profile?.author == alice)
        #expect(profile.current.featuredTags == Self.featured)
        #expect(server.calls(.featuredTags).map(\.key) == [alice.id])
    }

    @Test("featured hashtags the server cannot give leave the header without them; the profile and relationship still show")
    func failureLeavesHeaderWithout() async throws {
        let server = server()
        server.fail(.featuredTags, with: ServerRefusal("Record not found"))
        let (_, profile) = try await profile(server)
        #expect(profile.current.profile?.author == alice)
        #expect(profile.current.relationship != nil)
        #expect(profile.current.featuredTags.isEmpty)
        #expect(profile.current.failure == nil)
    }
}
