@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The rows a pending mute takes stay counted in the store until the server answers: a
/// refusal puts them back without showing them again, the server's yes releases them.
@MainActor
@Suite("Rows held while a hiding is pending")
struct HidingHoldTests {
    static let bobID = AccountID(bob.id)

    /// alice's a1, bob's b1 and b3, alice's a2.
    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, author: alice),
            makePost("b1", minutesAgo: 2, author: bob),
            makePost("a2", minutesAgo: 3, author: alice),
            makePost("b3", minutesAgo: 4, author: bob),
        ]
    }

    static func ids(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in if case .post(let id) = row.id { id.rawValue } else { nil } }
    }

    /// home → local, both loaded.
    func stack(_ server: GatedServer) async -> (FeedSession, [FeedListViewModel]) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.local)))
        await session.settle()
        let lists = session.navigator.screens.compactMap { if case .list(let list) = $0 { list } else { nil } }
        #expect(lists.count == 2 && lists.allSatisfy { Self.ids($0) == ["a1", "b1", "a2", "b3"] })
        return (session, lists)
    }

    @Test("pending: the rows are gone but still counted; refused: back once, counted once — a later yes releases them")
    func refusedThenConfirmed() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let (session, lists) = await stack(server)
        #expect(session.store.holderCount(PostID("b1")) == 2)
        session.set(.mute, true, account: Self.bobID)
        #expect(lists.allSatisfy { Self.ids($0) == ["a1", "a2"] })
        #expect(session.store.holderCount(PostID("b1")) == 2, "pending: a refusal may put them back")
        await server.waitForChanges(1)
        server.fail(at: 0, transient: false)
        await session.settle()
        #expect(lists.allSatisfy { Self.ids($0) == ["a1", "b1", "a2", "b3"] })
        #expect(session.store.holderCount(PostID("b1")) == 2)
        // Muted for good this time: each list shows them once, so one release each and none is left.
        session.set(.mute, true, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(lists.allSatisfy { Self.ids($0) == ["a1", "a2"] })
        #expect(session.store.holderCount(PostID("b1")) == 0)
        #expect(session.store.holderCount(PostID("b3")) == 0)
        #expect(session.store.holderCount(PostID("a1")) == 2)
    }
}
