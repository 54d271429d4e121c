@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Lists of accounts (followers, mutes, follow requests) and search results: account rows show
/// the one relationship store, so a change made anywhere shows on every row and header of the
/// account at once; answered follow requests leave every list of requests.
@MainActor
@Suite("Account lists and search")
struct AccountListSessionTests {
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol")
    static let bobID = AccountID(bob.id)
    static let carolID = AccountID(carol.id)

    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, author: alice, text: "Tea with lemon"),
            makePost("b1", minutesAgo: 2, author: bob, text: "Green tea is best"),
            makePost("c1", minutesAgo: 3, author: carol, text: "Coffee"),
        ]
    }

    static func accounts(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.account?.id.rawValue }
    }

    func session(_ server: GatedServer) -> FeedSession {
        FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
    }

    @Test("followers page by cursor to the end; every row shows the store's relationship once loaded")
    func followersPage() async throws {
        let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: Self.bobID, following: true)])
        server.update { $0.relationships.followers["9"] = [alice, bob, Self.carol].map { AccountID($0.id) } }
        let session = session(server)
        session.navigator.push(.list(.accounts(.followers("9"))))
        let list = try #require(session.navigator.top.list)
        await session.settle()
        #expect(Self.accounts(list) == [alice.id, bob.id])
        #expect(!list.status.reachedEnd)
        list.loadMore()
        await session.settle()
        #expect(Self.accounts(list) == [alice.id, bob.id, Self.carol.id])
        #expect(list.status.reachedEnd)
        #expect(list.rows[id: .account(Self.bobID)]?.account?.relationship?.relationship.following == true)
        #expect(list.rows[id: .account(Self.carolID)]?.account?.relationship?.relationship.following == false)
    }

    @Test("a follow made on a profile header shows at once on the account's row two screens below, and the answer settles both")
    func rowFollowsHeader() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = session(server)
        session.root.appeared()
        session.navigator.push(.list(.accounts(.followers(AccountID(alice.id)))))
        session.navigator.push(.list(.feed(.account(Self.carolID))))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let followers = lists[1]
        let profile = try #require(lists[2].profile)
        #expect(profile.set(.follow, true))
        #expect(followers.rows[id: .account(Self.carolID)]?.account?.relationship?.relationship.following == true)
        #expect(followers.rows[id: .account(Self.carolID)]?.account?.relationship?.pending == [.follow])
        #expect(followers.current.changes.updates.map(\.element.id) == [.account(Self.carolID)], "an update in place, not a move")
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(followers.rows[id: .account(Self.carolID)]?.account?.relationship?.pending == [])
        #expect(server.truth(Self.carolID).following)
    }

    @Test("accepting a request shows accepting… at once, then the row leaves every requests screen and the relationship says they follow you")
    func acceptLeavesEveryRequestsList() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        server.answerEverything()
        server.setRequesters([Self.bobID, Self.carolID])
        let session = session(server)
        session.navigator.push(.list(.accounts(.requests)))
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.accounts(.requests)))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let first = lists[1]
        let second = lists[3]
        #expect(Self.accounts(first) == [bob.id, Self.carol.id])
        #expect(second.answerRequest(row: .account(Self.bobID), accept: true))
        #expect(first.rows[id: .account(Self.bobID)]?.account?.relationship?.requestAnswer == ToggleDisplay(isOn: true, pending: true))
        #expect(!first.answerRequest(row: .account(Self.bobID), accept: false), "one answer at a time")
        await session.settle()
        #expect(Self.accounts(first) == [Self.carol.id])
        #expect(Self.accounts(second) == [Self.carol.id])
        let shown = try #require(session.relationships.relationship(Self.bobID))
        #expect(shown.relationship.followedBy)
        #expect(!shown.relationship.requestedBy)
        #expect(shown.requestAnswer?.isSettled == true)
        #expect(first.answerRequest(row: .account(Self.carolID), accept: true))
        await session.settle()
        #expect(server.answers.map(\.0) == [Self.bobID, Self.carolID])
        #expect(Self.accounts(first).isEmpty)
        // A requests screen opened afterwards does not show what the (lagging) page still lists.
        server.setRequesters([Self.bobID])
        session.navigator.push(.list(.accounts(.requests)))
        await session.settle()
        #expect(Self.accounts(try #require(session.navigator.top.list)).isEmpty)
    }

    @Test("a refused answer keeps the row, says why on it, and answering again sends it again")
    func refusedAnswerStays() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        server.answerEverything()
        server.setRequesters([Self.bobID])
        server.refuseAnswers(true)
        let session = session(server)
        session.navigator.push(.list(.accounts(.requests)))
        await session.settle()
        let list = try #require(session.navigator.top.list)
        #expect(list.answerRequest(row: .account(Self.bobID), accept: false))
        await session.settle()
        let answer = try #require(list.rows[id: .account(Self.bobID)]?.account?.relationship?.requestAnswer)
        #expect(answer.failure == "Could not reject the follow request: Forbidden.")
        #expect(!answer.pending)
        server.refuseAnswers(false)
        #expect(list.answerRequest(row: .account(Self.bobID), accept: false))
        await session.settle()
        #expect(Self.accounts(list).isEmpty)
        #expect(server.answers.count == 2)
        #expect(server.truth(Self.bobID).followedBy == false)
    }

    @Test("search shows accounts, then hashtags, then posts; its posts share the store's state, and a block takes the account's posts off it while its account row stays")
    func searchSections() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        server.answerEverything()
        let session = session(server)
        session.root.appeared()
        session.navigator.push(.list(.search("tea")))
        await session.settle()
        let search = try #require(session.navigator.top.list)
        #expect(search.rows.map(\.id.description) == ["tag:tea", "post:a1", "post:b1"])
        session.navigator.pop()
        session.navigator.push(.list(.search("b")))
        await session.settle()
        let found = try #require(session.navigator.top.list)
        #expect(found.rows.map(\.id.description) == ["account:2", "tag:b", "post:b1"])
        // A favourite on the home row shows on the search row.
        session.root.toggle(.favourite, row: .post("b1"))
        #expect(found.rows[id: .post("b1")]?.post?.interaction.favourited == true)
        session.set(.block, true, account: Self.bobID)
        #expect(found.rows.map(\.id.description) == ["account:2", "tag:b"])
        #expect(found.rows[id: .account(Self.bobID)]?.account?.relationship?.relationship.blocking == true)
        await session.settle()
    }

    @Test("a list of accounts the service does not serve fails with its sentence")
    func unsupported() async throws {
        let server = GatedServer(answering: [.page])
        server.fail(.accounts, with: AccountsUnsupported())
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.accounts(.mutes)))
        await session.settle()
        let list = try #require(session.navigator.top.list)
        #expect(list.status.failure?.message == AccountsUnsupported().errorDescription)
    }

    @Test("row ids of accounts and hashtags read back from their descriptions; account lists and routes too")
    func descriptions() {
        for id in [RowID.account("109"), .tag("birds"), .post("1"), .gap(below: "4"), .notification("k")] {
            #expect(RowID(id.description) == id)
        }
        #expect(RowID("tag:Birds") == .tag("birds"))
        for list in [AccountList.followers("1"), .following("@kemi@fieldnotes.science"), .endorsed("7"), .mutes, .blocks, .requests] {
            #expect(AccountList(list.description) == list)
            #expect(Route.list(.accounts(list)).listSource == .accounts(list))
        }
        #expect(AccountList("followers:") == nil)
        #expect(AccountList("endorsed:") == nil)
        #expect(Route.list(.search("tea")).listSource == .search("tea"))
        #expect(Route.post("p1").listSource == nil)
    }

    @Test("an answer is forgotten once a relationship fetched after it says they ask again: a new request can be answered")
    func askingAgainIsANewRequest() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        server.answerEverything()
        server.setRequesters([Self.bobID])
        let session = session(server)
        session.navigator.push(.list(.accounts(.requests)))
        await session.settle()
        let list = try #require(session.navigator.top.list)
        #expect(list.answerRequest(row: .account(Self.bobID), accept: false))
        await session.settle()
        #expect(session.relationships.relationship(Self.bobID)?.requestAnswer?.isSettled == true)
        server.setRequesters([Self.bobID])
        session.loadRelationships([Self.bobID])
        await session.settle()
        let shown = try #require(session.relationships.relationship(Self.bobID))
        #expect(shown.requestAnswer == nil)
        #expect(shown.relationship.requestedBy)
        list.refresh()
        await session.settle()
        #expect(Self.accounts(list) == [bob.id])
        #expect(list.answerRequest(row: .account(Self.bobID), accept: true))
        await session.settle()
        #expect(server.answers.map(\.1) == [false, true])
    }
}

