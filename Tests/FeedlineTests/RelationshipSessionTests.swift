@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// One relationship per account, on every screen at once: mutes, blocks and unfollows take the
/// account's posts off every list of the stack as ordinary changesets, pending until answered.
@MainActor
@Suite("Relationships across the stack")
struct RelationshipSessionTests {
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol")
    static let bobID = AccountID(bob.id)

    /// alice's a1, bob's b1, bob's boost of alice's a2, carol's c1, carol's boost of bob's b2.
    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, author: alice),
            makePost("b1", minutesAgo: 2, author: bob),
            makePost("w1", minutesAgo: 3, author: bob, reblog: makePost("a2", minutesAgo: 30, author: alice)),
            makePost("c1", minutesAgo: 4, author: carol),
            makePost("w2", minutesAgo: 5, author: carol, reblog: makePost("b2", minutesAgo: 40, author: bob)),
        ]
    }

    static func ids(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in if case .post(let id) = row.id { id.rawValue } else { nil } }
    }

    static func lists(_ session: FeedSession) -> [FeedListViewModel] {
        session.navigator.screens.compactMap { if case .list(let list) = $0 { list } else { nil } }
    }

    /// home → local → bob's profile → #tag, every list loaded.
    func stack(_ server: GatedServer) async -> FeedSession {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.feed(.account(Self.bobID))))
        session.navigator.push(.list(.feed(.tag("tea"))))
        await session.settle()
        return session
    }

    @Test("you cannot follow, mute or block yourself: refused with a sentence once the session knows you, nothing leaves a screen, nothing is sent")
    func notYourself() async throws {
        let server = GatedServer.relationships(posts: Self.posts, me: alice)
        let session = await stack(server)
        let me = AccountID(alice.id)
        let before = Self.lists(session).map(Self.ids)
        session.drafts.load()
        await session.settle()
        for (kind, verb) in [(RelationshipKind.block, "block"), (.mute, "mute"), (.follow, "follow")] {
            #expect(session.relationshipRefusal(kind, true, account: me)?.message == "You cannot \(verb) yourself.")
            #expect(session.set(kind, true, account: me)?.message == "You cannot \(verb) yourself.")
            #expect(session.toggle(kind, account: me)?.message == "You cannot \(verb) yourself.")
        }
        // By handle too, and undoing is never refused (nothing to undo, the server says so).
        #expect(session.relationshipRefusal(.block, true, account: AccountID(handle: "@Alice")) != nil)
        #expect(session.relationshipRefusal(.block, false, account: me) == nil)
        await session.settle()
        #expect(Self.lists(session).map(Self.ids) == before)
        #expect(server.sent.isEmpty)
        #expect(session.relationships.relationship(me) == nil)
        // Anyone else is muted as ever.
        #expect(session.set(.mute, true, account: Self.bobID) == nil)
        #expect(Self.ids(Self.lists(session)[0]) == ["a1", "c1"])
    }

    @Test("a mute from a list three screens deep takes bob's posts, his boosts and boosts of his posts off every list at once — but his own profile — and the answer settles it")
    func muteReachesEveryList() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        let lists = Self.lists(session)
        #expect(Self.ids(lists[0]) == ["a1", "b1", "w1", "c1", "w2"])
        #expect(Self.ids(lists[2]) == ["b1", "w1"])
        session.set(.mute, true, account: Self.bobID)
        // At once, before the server answers.
        for index in [0, 1, 3] { #expect(Self.ids(lists[index]) == ["a1", "c1"], "list \(index)") }
        #expect(Self.ids(lists[2]) == ["b1", "w1"], "his profile keeps his posts")
        #expect(session.relationships.relationship(Self.bobID)?.relationship.muting == true)
        #expect(session.relationships.relationship(Self.bobID)?.pending == [.mute])
        await server.waitForChanges(1)
        #expect(server.waiting.map(\.relationshipKind) == [.mute])
        server.answer(at: 0)
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "c1"])
        #expect(session.relationships.relationship(Self.bobID)?.pending == [])
        // A refresh that still brings his posts (the server's timelines lag) does not show them.
        lists[0].refresh()
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "c1"])
    }

    @Test("a refused mute puts every row it took back where it was, and says why")
    func refusedMuteRestores() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        let lists = Self.lists(session)
        session.set(.mute, true, account: Self.bobID)
        #expect(Self.ids(lists[0]) == ["a1", "c1"])
        await server.waitForChanges(1)
        server.fail(at: 0, transient: false)
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "b1", "w1", "c1", "w2"])
        #expect(Self.ids(lists[3]) == ["a1", "b1", "w1", "c1", "w2"])
        let display = try #require(session.relationships.relationship(Self.bobID))
        #expect(!display.relationship.muting)
        #expect(display.failure?.message == "Could not mute this account: Forbidden.")
        #expect(!session.hasFailures, "a refusal: nothing a retry would send")
    }

    @Test("a block takes bob's posts off his own profile too")
    func blockReachesHisProfile() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        let lists = Self.lists(session)
        session.set(.block, true, account: Self.bobID)
        #expect(Self.ids(lists[2]).isEmpty)
        #expect(Self.ids(lists[0]) == ["a1", "c1"])
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(server.truth(Self.bobID).blocking)
    }

    @Test("an unfollow takes bob's posts and boosts off home only; carol's boost of his post stays")
    func unfollowTakesHome() async throws {
        let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: Self.bobID, following: true)])
        let session = await stack(server)
        let lists = Self.lists(session)
        session.loadRelationships([Self.bobID])
        await session.settle()
        #expect(session.relationships.relationship(Self.bobID)?.relationship.following == true)
        session.set(.follow, false, account: Self.bobID)
        #expect(Self.ids(lists[0]) == ["a1", "c1", "w2"])
        #expect(Self.ids(lists[1]) == ["a1", "b1", "w1", "c1", "w2"], "other lists keep them")
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "c1", "w2"])
        #expect(!server.truth(Self.bobID).following)
    }

    @Test("taps while a request runs move only the wish: one request per account and kind in flight, none more when the last wish is what it asked")
    func oneInFlight() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        session.loadRelationships([Self.bobID])
        await session.settle()
        session.toggle(.follow, account: Self.bobID)
        session.toggle(.follow, account: Self.bobID)
        session.toggle(.follow, account: Self.bobID)
        await server.waitForChanges(1)
        #expect(server.sent.count == 1)
        #expect(session.relationships.relationship(Self.bobID)?.relationship.following == true)
        server.answer(at: 0)
        await session.settle()
        #expect(server.sent.map(\.value) == [true])
        #expect(server.truth(Self.bobID).following)
    }

    @Test("a locked account's follow shows as requested once the server says so; the profile header follows every change at once")
    func headerFollowsTheStore() async throws {
        let server = GatedServer.relationships(posts: Self.posts, locked: [Self.bobID])
        let session = await stack(server)
        let profile = try #require(Self.lists(session)[2].profile)
        #expect(profile.current.profile?.bio == "Bio of \(bob.name).")
        #expect(profile.current.relationship?.relationship.following == false)
        // Followed from home's row (the root), the header three screens up shows it at once.
        session.set(.follow, true, account: Self.bobID)
        #expect(profile.current.relationship?.relationship.following == true)
        #expect(profile.current.relationship?.pending == [.follow])
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(profile.current.relationship?.relationship.requested == true)
        #expect(profile.current.relationship?.relationship.following == false)
        #expect(profile.current.relationship?.line { _ in "" } == "requested")
    }

    /// bob followed you; alice and bob favourited your post; carol mentioned you.
    static var notifications: [NotificationGroup] {
        let mine = makePost("m1", minutesAgo: 50, author: Author(id: "0", displayName: "You", handle: "you"))
        return [
            NotificationGroup(id: "g1", kind: .follow, accounts: [bob], count: 1, latestAt: testNow, newestID: ItemID("n1")),
            NotificationGroup(id: "g2", kind: .favourite, accounts: [alice, bob], count: 2, post: mine, latestAt: testNow, newestID: ItemID("n2")),
            NotificationGroup(id: "g3", kind: .favourite, accounts: [bob], count: 1, post: mine, latestAt: testNow, newestID: ItemID("n3")),
            NotificationGroup(id: "g4", kind: .mention, accounts: [carol], count: 1, post: makePost("c9", minutesAgo: 60, author: carol), latestAt: testNow, newestID: ItemID("n4")),
            NotificationGroup(id: "g5", kind: .mention, accounts: [bob], count: 1, post: makePost("b9", minutesAgo: 70, author: bob), latestAt: testNow, newestID: ItemID("n5")),
        ]
    }

    static func groups(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.notification?.group.id }
    }

    @Test("a mute takes the notifications only from them off the notifications screen (a group with others stays); with their notifications kept, none goes")
    func muteTakesTheirNotifications() async throws {
        for keep in [false, true] {
            let server = GatedServer.relationships(posts: Self.posts, notifications: Self.notifications)
            let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
            session.root.appeared()
            session.navigator.push(.list(.notifications))
            await session.settle()
            let list = try #require(Self.lists(session).last)
            #expect(Self.groups(list) == ["g1", "g2", "g3", "g4", "g5"])
            session.mute(account: Self.bobID, notifications: !keep)
            #expect(Self.groups(list) == (keep ? ["g1", "g2", "g3", "g4", "g5"] : ["g2", "g4"]), "keep: \(keep)")
            await server.waitForChanges(1)
            #expect(server.waiting.first?.mute?.notifications == !keep)
            server.answer(at: 0)
            await session.settle()
            // A notifications screen opened now, whose page still brings them (the server lags), keeps them off.
            session.navigator.push(.list(.notifications))
            await session.settle()
            let again = try #require(Self.lists(session).last)
            #expect(again !== list)
            #expect(Self.groups(again) == (keep ? ["g1", "g2", "g3", "g4", "g5"] : ["g2", "g4"]), "keep: \(keep), a new screen")
        }
    }

    @Test("a mute made without options is Mastodon's default (no end, notifications too), not the options of an earlier mute")
    func muteWithoutOptionsIsTheDefault() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.mute(account: Self.bobID, for: .seconds(3_600), notifications: false)
        await server.waitForChanges(1)
        #expect(server.waiting.first?.mute == MuteOptions(duration: .seconds(3_600), notifications: false))
        server.answer(at: 0)
        session.set(.mute, false, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        session.toggle(.mute, account: Self.bobID)
        await server.waitForChanges(1)
        #expect(server.waiting.first?.mute == MuteOptions(), "a toggle mutes without end, hiding notifications")
        server.answer(at: 0)
        session.set(.mute, false, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        session.set(.mute, true, account: Self.bobID)
        await server.waitForChanges(1)
        #expect(server.waiting.first?.mute == MuteOptions(), "set mutes without end, hiding notifications")
        server.answer(at: 0)
        await session.settle()
        #expect(session.relationship(Self.bobID)?.relationship.mutingNotifications == true)
    }

    @Test("a change the server could not be reached for stays wanted and is listed as unsent; finishing waits for one in flight")
    func unsentAtTheEnd() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.root.appeared()
        await session.settle()
        session.set(.mute, true, account: Self.bobID)
        await server.waitForChanges(1)
        server.fail(at: 0, transient: true)
        await session.settle()
        #expect(session.relationships.relationship(Self.bobID)?.relationship.muting == true, "kept, not rolled back")
        #expect(session.relationships.unsent.map { "\($0.account) \($0.kind) \($0.value)" } == ["2 mute true"])
        // Retried now, and answered while the session finishes.
        #expect(session.retry())
        await server.waitForChanges(1)
        async let left = session.finish(waitingAtMost: .seconds(2))
        server.answer(at: 0)
        _ = await left
        #expect(session.relationships.unsent.isEmpty)
        #expect(server.truth(Self.bobID).muting)
    }

    @Test("an observer that changes the same account from its handler leaves no request stuck: everything is sent and answered")
    func observerReentrancy() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        session.loadRelationships([Self.bobID])
        await session.settle()
        var reacted = false
        let subscription = session.relationships.observe { change in
            guard change.accountID == Self.bobID, change.display.relationship.following, !reacted else { return }
            reacted = true
            session.set(.mute, true, account: Self.bobID)
        }
        session.set(.follow, true, account: Self.bobID)
        await server.waitForChanges(2)
        #expect(Set(server.waiting.map(\.relationshipKind)) == [.follow, .mute])
        server.answerEverything()
        await session.settle()
        let shown = try #require(session.relationships.relationship(Self.bobID))
        #expect(shown.pending.isEmpty && shown.relationship.following && shown.relationship.muting)
        #expect(server.sent.count == 2)
        subscription.cancel()
    }

    @Test("notify and boosts need a follow that stands: refused at once, with a sentence, and nothing sent")
    func notifyNeedsAFollow() async throws {
        let server = GatedServer.relationships(posts: Self.posts)
        let session = await stack(server)
        session.loadRelationships([Self.bobID])
        await session.settle()
        session.set(.notify, true, account: Self.bobID)
        let shown = try #require(session.relationships.relationship(Self.bobID))
        #expect(!shown.relationship.notifying && shown.pending.isEmpty)
        #expect(shown.failure?.message == "Could not turn on post notifications for this account: follow them first.")
        session.set(.follow, true, account: Self.bobID)
        session.set(.boosts, false, account: Self.bobID)
        #expect(session.relationships.relationship(Self.bobID)?.failure?.message == "Could not hide the boosts of this account: wait until the follow is answered.")
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        session.set(.notify, true, account: Self.bobID)
        await server.waitForChanges(1)
        server.answer(at: 0)
        await session.settle()
        #expect(server.sent.map(\.relationshipKind) == [.follow, .notify])
        #expect(server.truth(Self.bobID).notifying)
    }

    @Test("an unfollow while post notifications are being turned on waits for that answer (Mastodon sends it as a follow), so the account ends unfollowed")
    func unfollowWaitsForNotify() async throws {
        for option in [RelationshipKind.notify, .boosts] {
            let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: Self.bobID, following: true)])
            let session = await stack(server)
            session.loadRelationships([Self.bobID])
            await session.settle()
            session.set(option, option == .notify, account: Self.bobID)
            await server.waitForChanges(1)
            session.set(.follow, false, account: Self.bobID)
            #expect(session.relationships.requestsInFlight.map(\.1) == [option], "the unfollow is not sent beside the \(option) change")
            #expect(session.relationships.relationship(Self.bobID)?.pending == [option, .follow])
            server.answer(at: 0)
            await server.waitForChanges(1)
            #expect(server.waiting.map(\.relationshipKind) == [.follow])
            server.answer(at: 0)
            await session.settle()
            #expect(server.sent.map(\.relationshipKind) == [option, .follow])
            #expect(!server.truth(Self.bobID).following)
            let shown = try #require(session.relationships.relationship(Self.bobID))
            #expect(!shown.relationship.following && shown.pending.isEmpty && shown.failure == nil)
        }
    }

    @Test("an unfollow drops a notify or boosts change waiting to be sent again: neither the backoff nor a retry sends it beside or after the unfollow")
    func unfollowDropsWaitingNotify() async throws {
        for option in [RelationshipKind.notify, .boosts] {
            let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: Self.bobID, following: true)])
            let clock = ManualClock()
            let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
            session.root.appeared()
            session.loadRelationships([Self.bobID])
            await session.settle()
            session.set(option, option == .notify, account: Self.bobID)
            await server.waitForChanges(1)
            server.fail(at: 0, transient: true)
            await session.settle()
            #expect(session.relationships.relationship(Self.bobID)?.pending == [option], "waiting to be sent again")
            session.set(.follow, false, account: Self.bobID)
            #expect(session.relationships.requestsInFlight.map(\.1) == [.follow])
            #expect(session.relationships.relationship(Self.bobID)?.pending == [.follow], "the \(option) change is dropped")
            let retried = session.retry()
            #expect(!retried, "nothing waits to be sent again")
            clock.advance(by: .seconds(120))
            let inFlight = session.relationships.requestsInFlight.map(\.1)
            #expect(inFlight == [.follow], "the \(option) change is not sent again")
            // Held calls would never end: stop here when the change went.
            guard !retried, inFlight == [.follow] else { return }
            await server.waitForChanges(1)
            #expect(server.waiting.map(\.relationshipKind) == [.follow])
            server.answer(at: 0)
            await session.settle()
            let shown = try #require(session.relationships.relationship(Self.bobID))
            #expect(!shown.relationship.following && !shown.relationship.notifying && shown.pending.isEmpty)
            #expect(!server.truth(Self.bobID).following)
            #expect(session.relationships.unsent.isEmpty)
        }
    }

    @Test("a mute found in a fetched relationship takes the account's posts off the lists without a request")
    func fetchedMuteHides() async throws {
        let server = GatedServer.relationships(posts: Self.posts, relationships: [Relationship(accountID: Self.bobID, muting: true)])
        let session = await stack(server)
        session.loadRelationships([Self.bobID])
        await session.settle()
        #expect(Self.ids(Self.lists(session)[0]) == ["a1", "c1"])
        #expect(server.sent.isEmpty)
    }
}
