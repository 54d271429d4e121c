@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Who favourited or boosted a post, and whom an account features: lists of accounts like
/// followers (one `AccountList` case each on the account rows), so their rows show the one relationship store — a follow made on
/// one shows at once on every screen of the account.
@MainActor
@Suite("Who favourited or boosted a post")
struct ReactedBySessionTests {
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol")
    static let dan = Author(id: "4", displayName: "Dan", handle: "dan")

    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, author: alice, text: "Tea with lemon"),
            makePost("b1", minutesAgo: 2, author: bob, text: "Green tea is best"),
            makePost("c1", minutesAgo: 3, author: carol, text: "Coffee"),
            makePost("d1", minutesAgo: 4, author: dan, text: "Cocoa"),
        ]
    }

    static func accounts(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.account?.id.rawValue }
    }

    func session(_ server: GatedServer) -> FeedSession {
        FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
    }

    func server() -> GatedServer {
        let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: AccountID(Self.carol.id), following: true)])
        server.update { model in
            model.relationships.reacted[PostID("b1")] = [
                .favourite: [alice, Self.carol, Self.dan].map { AccountID($0.id) },
                .reblog: [Self.dan].map { AccountID($0.id) },
            ]
        }
        return server
    }

    @Test("favourited-by pages by cursor to the end, asking the post's list; rows show the relationship the store has")
    func favouritedByPages() async throws {
        let server = server()
        let session = session(server)
        session.navigator.push(.list(.accounts(.favouritedBy("b1"))))
        let list = try #require(session.navigator.top.list)
        await session.settle()
        #expect(Self.accounts(list) == [alice.id, Self.carol.id])
        #expect(!list.status.reachedEnd)
        list.loadMore()
        await session.settle()
        #expect(Self.accounts(list) == [alice.id, Self.carol.id, Self.dan.id])
        #expect(list.status.reachedEnd)
        #expect(list.rows[id: .account(AccountID(Self.carol.id))]?.account?.relationship?.relationship.following == true)
        #expect(list.rows[id: .account(AccountID(alice.id))]?.account?.relationship?.relationship.following == false)
        #expect(server.calls(.accounts).map(\.key) == ["favourited-by:b1", "favourited-by:b1"])
    }

    @Test("a follow made on a boosted-by row shows at once on the favourited-by screen and the profile below it, and the answer settles all three")
    func followShowsOnEveryScreen() async throws {
        let server = server()
        let session = session(server)
        let danID = AccountID(Self.dan.id)
        session.navigator.push(.list(.feed(.account(danID))))
        session.navigator.push(.list(.accounts(.favouritedBy("b1"))))
        session.navigator.push(.list(.accounts(.boostedBy("b1"))))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let (profile, favourited, boosted) = (try #require(lists[1].profile), lists[2], lists[3])
        favourited.loadMore()
        await session.settle()
        #expect(Self.accounts(boosted) == [Self.dan.id])
        #expect(Self.accounts(favourited).contains(Self.dan.id))
        #expect(session.set(.follow, true, account: danID) == nil)
        for list in [favourited, boosted] {
            #expect(list.rows[id: .account(danID)]?.account?.relationship?.relationship.following == true)
            #expect(list.rows[id: .account(danID)]?.account?.relationship?.pending == [.follow])
        }
        #expect(profile.current.relationship?.relationship.following == true)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        for list in [favourited, boosted] {
            #expect(list.rows[id: .account(danID)]?.account?.relationship?.pending == [])
        }
        #expect(server.truth(danID).following)
    }

    @Test("endorsed lists the accounts a profile features, in the server's order and paged; a follow made there shows on the profile at once")
    func endorsedRowsShareRelationships() async throws {
        let server = server()
        let (aliceID, danID) = (AccountID(alice.id), AccountID(Self.dan.id))
        server.update { $0.relationships.endorsed[aliceID] = [Self.dan, Self.carol, bob].map { AccountID($0.id) } }
        let session = session(server)
        session.navigator.push(.list(.feed(.account(danID))))
        session.navigator.push(.list(.accounts(.endorsed(aliceID))))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let (profile, endorsed) = (try #require(lists[1].profile), lists[2])
        while !endorsed.status.reachedEnd {
            endorsed.loadMore()
            await session.settle()
        }
        #expect(Self.accounts(endorsed) == [Self.dan.id, Self.carol.id, bob.id])
        #expect(Set(server.calls(.accounts).map(\.key)) == ["endorsed:\(alice.id)"])
        #expect(endorsed.rows[id: .account(AccountID(Self.carol.id))]?.account?.relationship?.relationship.following == true)
        #expect(session.set(.follow, true, account: danID) == nil)
        #expect(endorsed.rows[id: .account(danID)]?.account?.relationship?.pending == [.follow])
        #expect(profile.current.relationship?.relationship.following == true)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(endorsed.rows[id: .account(danID)]?.account?.relationship?.pending == [])
        #expect(server.truth(danID).following)
    }

    @Test("the user's own favourite is first once the server has it")
    func ownFavouriteFirst() async throws {
        let server = server()
        server.answerEverything()
        server.update { $0.relationships.profiles[AccountID(Post.signedInUser.id)] = Profile(author: Post.signedInUser) }
        let session = session(server)
        session.root.appeared()
        await session.settle()
        #expect(session.toggle(.favourite, post: "b1"))
        await session.settle()
        session.navigator.push(.list(.accounts(.favouritedBy("b1"))))
        let list = try #require(session.navigator.top.list)
        await session.settle()
        #expect(Self.accounts(list) == [Post.signedInUser.id, alice.id])
    }
}
