@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// After an unmute or unblock, the lists that left that account's posts out load again (a list
/// loaded to its end has no other way to get them back); every list can be reloaded by hand.
@MainActor
@Suite("Reloading lists after an unmute or unblock")
struct UnhideReloadTests {
    typealias Fixture = RelationshipSessionTests
    static let bobID = Fixture.bobID

    /// home → local → bob's profile → #tag, every list loaded to its end; bob muted (or
    /// blocked) and the server's answer in.
    func hidden(_ kind: RelationshipKind) async -> (GatedServer, FeedSession) {
        let server = GatedServer.relationships(posts: Fixture.posts)
        let session = await RelationshipSessionTests().stack(server)
        session.set(kind, true, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        return (server, session)
    }

    @Test("an unmute the server took reloads every list that left bob's posts out: home, local and the hashtag get them back; his profile kept them and does not reload")
    func unmuteReloads() async throws {
        let (server, session) = await hidden(.mute)
        let lists = Fixture.lists(session)
        for index in [0, 1, 3] {
            #expect(Fixture.ids(lists[index]) == ["a1", "c1"], "list \(index)")
            #expect(lists[index].status.reachedEnd)
        }
        // Nothing brings them back by itself: a refresh has nothing newer, more nothing older.
        lists[0].refresh()
        lists[0].loadMore()
        await session.settle()
        #expect(Fixture.ids(lists[0]) == ["a1", "c1"])
        var profileSnapshots = 0
        let watch = lists[2].snapshot.observe { _ in profileSnapshots += 1 }
        profileSnapshots = 0
        session.set(.mute, false, account: Self.bobID)
        await server.waitForChanges(1)
        // Not before the server took it: its timelines may still leave them out.
        #expect(lists[0].status.loading == nil)
        server.answer(at: 0)
        await session.settle()
        for index in [0, 1, 3] { #expect(Fixture.ids(lists[index]) == ["a1", "b1", "w1", "c1", "w2"], "list \(index)") }
        #expect(Fixture.ids(lists[2]) == ["b1", "w1"])
        #expect(profileSnapshots == 0, "the profile kept his posts: nothing to load again")
        watch.cancel()
    }

    @Test("an unblock reloads his own profile too (the block had emptied it)")
    func unblockReloadsProfile() async throws {
        let (server, session) = await hidden(.block)
        let lists = Fixture.lists(session)
        #expect(Fixture.ids(lists[2]).isEmpty)
        session.set(.block, false, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(Fixture.ids(lists[2]) == ["b1", "w1"])
        #expect(Fixture.ids(lists[0]) == ["a1", "b1", "w1", "c1", "w2"])
    }

    @Test("a refused unmute reloads nothing: bob is still muted")
    func refusedUnmute() async throws {
        let (server, session) = await hidden(.mute)
        let lists = Fixture.lists(session)
        session.set(.mute, false, account: Self.bobID)
        await server.waitForChanges(1)
        server.fail(at: 0, transient: false)
        await session.settle()
        #expect(Fixture.ids(lists[0]) == ["a1", "c1"])
        #expect(session.relationships.relationship(Self.bobID)?.relationship.muting == true)
    }

    @Test("a list opened after the mute, whose page left bob's posts out, reloads too")
    func pageLeftThemOut() async throws {
        let (server, session) = await hidden(.mute)
        session.navigator.push(.list(.feed(.public)))
        await session.settle()
        guard case .list(let publicList) = session.navigator.top else {
            Issue.record("expected the public list on top")
            return
        }
        #expect(Fixture.ids(publicList) == ["a1", "c1"])
        session.set(.mute, false, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(Fixture.ids(publicList) == ["a1", "b1", "w1", "c1", "w2"])
    }

    @Test("reload keeps the rows while the first page comes, replaces them with it, and continues older pages below it; a failed reload keeps them and retry runs it again")
    func reloadByHand() async throws {
        // Pages of two: 3 and 2, then 1.
        let service = GatedServer(posts: [makePost("3"), makePost("2"), makePost("1")], pageSize: 2)
        service.hold(.page)
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: ManualClock())
        let list = session.root
        list.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        list.loadMore()
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(home, after: 2)"])
        service.answer(at: 0)
        await session.settle()
        #expect(list.rows.map(\.id) == [.post("3"), .post("2"), .post("1")])
        #expect(list.status.reachedEnd)
        list.reload()
        #expect(list.status.loading == .reload)
        #expect(list.rows.count == 3, "the rows stay while it loads")
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(home, after: nil)"])
        service.lose(at: 0)
        await session.settle()
        #expect(list.rows.count == 3, "a failed reload keeps the rows")
        #expect(list.status.failure?.intent == .reload)
        #expect(session.hasFailures)
        // Since then 4 came on top.
        service.arrive([makePost("4")])
        session.retry()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        #expect(list.rows.map(\.id) == [.post("4"), .post("3")])
        #expect(list.status.failure == nil)
        #expect(!list.status.reachedEnd)
        list.loadMore()
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(home, after: 3)"])
        service.answer(at: 0)
        await session.settle()
        #expect(list.rows.map(\.id) == [.post("4"), .post("3"), .post("2"), .post("1")])
    }
}

/// `boosts off @user`: their boosts leave home (and your lists) at once and stay out of what
/// later pages and the stream bring, as a mute keeps their posts out; `boosts on` brings them back.
@MainActor
@Suite("Hiding an account's boosts")
struct HiddenBoostsTests {
    static let carolID = AccountID(RelationshipSessionTests.carol.id)

    func session() async -> (GatedServer, FeedSession) {
        let server = GatedServer.relationships(
            posts: RelationshipSessionTests.posts, relationships: [Relationship(accountID: Self.carolID, following: true)]
        )
        let session = await RelationshipSessionTests().stack(server)
        session.loadRelationships([Self.carolID])
        await session.settle()
        return (server, session)
    }

    @Test("boosts off takes carol's boost off home at once (her own post stays, other lists keep it); a boost she makes later does not arrive live, her own posts do; boosts on brings them back")
    func boostsOffFiltersTheStream() async throws {
        let (server, session) = await session()
        let lists = RelationshipSessionTests.lists(session)
        let home = lists[0]
        #expect(RelationshipSessionTests.ids(home) == ["a1", "b1", "w1", "c1", "w2"])
        session.set(.boosts, false, account: Self.carolID)
        #expect(RelationshipSessionTests.ids(home) == ["a1", "b1", "w1", "c1"])
        #expect(RelationshipSessionTests.ids(lists[1]) == ["a1", "b1", "w1", "c1", "w2"], "local is not home: her boost stays")
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(server.truth(Self.carolID).showingBoosts == false)
        // Live: her boost of alice's post stays out; her own post and bob's boost come.
        let carol = RelationshipSessionTests.carol
        session.apply(.posted(makePost("w3", minutesAgo: 0, author: carol, reblog: makePost("a3", minutesAgo: 50, author: alice)), in: .home))
        session.apply(.posted(makePost("c2", minutesAgo: 0, author: carol), in: .home))
        #expect(home.waiting.map(\.id) == [.post("c2")])
        home.showWaiting()
        #expect(RelationshipSessionTests.ids(home) == ["c2", "a1", "b1", "w1", "c1"])
        // A page that still has her boost (the server's copy may lag) leaves it out too.
        home.reload()
        await session.settle()
        #expect(!RelationshipSessionTests.ids(home).contains("w2"))
        session.set(.boosts, true, account: Self.carolID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(RelationshipSessionTests.ids(home).contains("w2"), "boosts on: home loads again and shows her boost")
    }
}

/// A refusal (the server said no: a 4xx) is not sent again by `retry`: only what could not
/// reach the server is.
@MainActor
@Suite("Retry leaves refusals alone")
struct RefusalRetryTests {
    @Test("a refused mute is not sent again by retry; a mute that could not reach the server is")
    func relationshipRefusal() async throws {
        let server = GatedServer.relationships(posts: RelationshipSessionTests.posts)
        let session = await RelationshipSessionTests().stack(server)
        session.set(.mute, true, account: RelationshipSessionTests.bobID)
        await server.waitForChanges(1)
        server.fail(at: 0, transient: false)
        await session.settle()
        #expect(session.relationships.relationship(RelationshipSessionTests.bobID)?.failure != nil)
        #expect(!session.relationships.hasFailures)
        session.retry()
        await session.settle()
        #expect(server.sent.count == 1)
        #expect(session.relationships.relationship(RelationshipSessionTests.bobID)?.relationship.muting == false)
        let carol = AccountID(RelationshipSessionTests.carol.id)
        session.set(.mute, true, account: carol)
        await server.waitForChanges(1)
        server.fail(at: 0, transient: true)
        await session.settle()
        #expect(session.relationships.hasFailures)
        #expect(session.retry())
        await server.waitForChanges(1)
        #expect(server.sent.map(\.account) == [RelationshipSessionTests.bobID, carol, carol])
        server.answer(at: 0)
        await session.settle()
    }
}

/// A screen of accounts shows each row with the relationship the server has now, from its first
/// snapshot: never bare, never with an older copy the store held, then corrected.
@MainActor
@Suite("Account rows come with their relationship")
struct AccountRowRelationshipTests {
    @Test("requests shows a requester as asking to follow you from its first rows, though the store held an older relationship")
    func requestsNotStale() async throws {
        let bobID = RelationshipSessionTests.bobID
        let server = GatedServer.relationships(
            posts: RelationshipSessionTests.posts, relationships: [Relationship(accountID: bobID, following: true, followedBy: true)]
        )
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.loadRelationships([bobID])
        await session.settle()
        #expect(session.relationships.relationship(bobID)?.relationship.requestedBy == false)
        // Since then bob unfollowed and asks to follow.
        server.setRequesters([bobID])
        session.navigator.push(.list(.accounts(.requests)))
        guard case .list(let requests) = session.navigator.top else {
            Issue.record("expected the requests list on top")
            return
        }
        var shown: [RelationshipDisplay?] = []
        let watch = requests.snapshot.observe { snapshot in
            if let row = snapshot.rows.first?.account { shown.append(row.relationship) }
        }
        requests.appeared()
        await session.settle()
        watch.cancel()
        #expect(shown.first??.relationship.requestedBy == true, "the first rows already show the request: \(shown)")
        #expect(shown.allSatisfy { $0?.relationship.requestedBy == true })
    }

    @Test("search rows come with their relationships: no snapshot shows an account row without one")
    func searchRowsOnce() async throws {
        let server = GatedServer.relationships(posts: RelationshipSessionTests.posts)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.search("bob")))
        guard case .list(let search) = session.navigator.top else {
            Issue.record("expected the search list on top")
            return
        }
        var bare = 0
        var updates = 0
        let watch = search.snapshot.observe { snapshot in
            bare += snapshot.rows.count { $0.account != nil && $0.account?.relationship == nil }
            updates += snapshot.changes.updates.count { $0.element.account != nil }
        }
        search.appeared()
        await session.settle()
        watch.cancel()
        #expect(search.rows.contains { $0.account != nil })
        #expect(bare == 0)
        #expect(updates == 0, "no account row is changed after it first showed")
    }
}

/// A quote of a post by an account you muted or blocked is not shown, as Mastodon hides it.
@MainActor
@Suite("Quotes of muted accounts")
struct MutedQuoteTests {
    @Test("muting bob hides his post inside alice's quote on every row at once (saying why); unmuting shows it again")
    func mutedAuthorInQuote() async throws {
        let quoted = makePost("b9", minutesAgo: 60, author: bob)
        var quoting = makePost("q1", minutesAgo: 1, author: alice)
        quoting.quote = Quote(state: .accepted, post: quoted)
        let server = GatedServer.relationships(posts: [quoting, makePost("c1", minutesAgo: 2, author: RelationshipSessionTests.carol)])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        func quote() -> QuoteDisplay? { session.root.rows[id: .post("q1")]?.post?.quote }
        #expect(quote()?.quoted?.post.id == "b9")
        session.set(.mute, true, account: RelationshipSessionTests.bobID)
        #expect(quote() == .unavailable(.mutedAccount), "at once")
        #expect(session.root.rows.contains(.post("q1")), "alice's post stays")
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(quote() == .unavailable(.mutedAccount))
        // A page that brings the quote again still hides it.
        session.root.reload()
        await session.settle()
        #expect(quote() == .unavailable(.mutedAccount))
        session.set(.mute, false, account: RelationshipSessionTests.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(quote()?.quoted?.post.id == "b9")
    }
}

/// Notifications that arrive live join their group, as a page later shows them.
@MainActor
@Suite("Live notifications join their groups")
struct LiveNotificationGroupTests {
    static let post = makePost("mine", minutesAgo: 300, author: alice)

    static func favourite(_ key: String, by author: Author, minutesAgo: Double, id: String) -> NotificationGroup {
        NotificationGroup(
            id: key, kind: .favourite, accounts: [author], count: 1, post: post,
            latestAt: testNow.addingTimeInterval(-minutesAgo * 60), newestID: ItemID(id)
        )
    }

    @Test("two favourites of one post arriving while the screen is open join the group the page showed, though the stream keys them its own way; a favourite of another post is its own row")
    func favouritesJoin() async throws {
        let shown = Self.favourite("favourite-mine-100", by: RelationshipSessionTests.carol, minutesAgo: 60, id: "n1")
        let server = GatedServer.relationships(posts: [Self.post], notifications: [shown])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.notifications))
        guard case .list(let list) = session.navigator.top else {
            Issue.record("expected the notifications on top")
            return
        }
        list.appeared()
        await session.settle()
        #expect(list.rows.count == 1)
        session.apply(.notified(Self.favourite("favourite-mine-101", by: bob, minutesAgo: 2, id: "n2")))
        session.apply(.notified(Self.favourite("ungrouped-n3", by: RelationshipSessionTests.carol, minutesAgo: 1, id: "n3")))
        let other = makePost("other", minutesAgo: 400, author: alice)
        session.apply(.notified(NotificationGroup(id: "favourite-other-101", kind: .favourite, accounts: [bob], count: 1, post: other, latestAt: testNow, newestID: "n4")))
        list.showWaiting()
        let groups = list.rows.compactMap(\.notification?.group)
        #expect(groups.count == 2, "\(groups.map(\.id))")
        let joined = try #require(groups.first { $0.post?.id == "mine" })
        #expect(joined.id == "favourite-mine-100")
        #expect(joined.count == 3)
        #expect(joined.accounts.map(\.id) == [RelationshipSessionTests.carol.id, bob.id])
        #expect(joined.newestID == "n3")
    }

    @Test("a favourite more than 12 hours after the group's newest starts a group of its own, and a mention never joins one")
    func farApartStaysApart() async throws {
        let shown = Self.favourite("favourite-mine-1", by: RelationshipSessionTests.carol, minutesAgo: 13 * 60, id: "n1")
        let server = GatedServer.relationships(posts: [Self.post], notifications: [shown])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.notifications))
        guard case .list(let list) = session.navigator.top else { return }
        list.appeared()
        await session.settle()
        session.apply(.notified(Self.favourite("favourite-mine-2", by: bob, minutesAgo: 0, id: "n2")))
        session.apply(.notified(NotificationGroup(id: "ungrouped-n3", kind: .mention, accounts: [bob], count: 1, post: Self.post, latestAt: testNow, newestID: "n3")))
        list.showWaiting()
        #expect(list.rows.count == 3)
    }
}
