@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's own profile through the session: an edit shows at once on your profile's header
/// and as your name on your posts on every list, is confirmed or rolled back with the server's
/// sentence, and waits for a connection like the other changes — a configuration of the
/// convergence engine, by the injected clocks.
@MainActor
@Suite("Your profile across the stack")
struct ProfileEditSessionTests {
    /// alice's a1 and bob's b1 on home, alice's a1 on her profile; signed in as alice, whose
    /// bio is "Hello" and one field.
    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        let posts = [makePost("a1", minutesAgo: 1, author: alice), makePost("b1", minutesAgo: 2, author: bob)]
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.map(\.id)
        model.timelines.feeds[.account(AccountID(alice.id))] = ["a1"]
        model.relationships.profiles[AccountID(alice.id)] = Profile(author: alice, bio: "Hello", fields: [Profile.Field(name: "Home", value: "here")])
        model.ownProfile = OwnProfile(author: alice, bio: "Hello", fields: [Profile.Field(name: "Home", value: "here")])
        return GatedServer(model, me: alice, answering: [.page, .newer, .profile, .relationships, .ownProfile], sourceLocation: sourceLocation)
    }

    /// Home, alice's profile, then home again: three lists that show a1.
    static func stack(_ server: GatedServer) async -> (FeedSession, [FeedListViewModel], profile: FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        session.navigator.push(.list(.feed(.home)))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        for list in lists { list.appeared() }
        await session.settle()
        return (session, lists, lists[1])
    }

    /// The name each list shows on alice's a1.
    static func names(_ lists: [FeedListViewModel]) -> [String] {
        lists.map { list in list.rows.first { $0.id == .post(PostID("a1")) }?.post?.post.author.displayName ?? "-" }
    }

    @Test("an edit shows at once on your header and your posts on every list, then is confirmed")
    func optimisticEverywhere() async throws {
        let server = Self.server()
        let (session, lists, profile) = await Self.stack(server)
        let log = OutcomeLog(session)
        #expect(Self.names(lists) == ["Alice", "Alice", "Alice"])
        server.hold(.updateProfile)
        try session.editProfile(ProfileEdit(displayName: "Alice L.", bio: "Birds, mostly.", locked: true))
        // The profile is loaded first (answered), then the change is sent and waits.
        await server.waitForHeld(1)
        #expect(Self.names(lists) == ["Alice L.", "Alice L.", "Alice L."])
        let header = try #require(profile.profile?.current.profile)
        #expect(header.author.displayName == "Alice L." && header.bio == "Birds, mostly." && header.locked)
        #expect(header.fields.map(\.name) == ["Home"], "what the edit does not give stays")
        #expect(server.calls(.updateProfile).count == 1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.names(lists) == ["Alice L.", "Alice L.", "Alice L."])
        #expect(server.model.ownProfile?.author.displayName == "Alice L.")
        #expect(server.model.ownProfile?.bio == "Birds, mostly.")
        #expect(log.heard == [.done(.profile)])
        // A page fetched later, whose copy of a1 still has the old name, shows the new one.
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        let again = try #require(session.navigator.screens.last?.list)
        again.appeared()
        await session.settle()
        #expect(server.calls(.page).count > 3)
        #expect(Self.names([again] + lists) == ["Alice L.", "Alice L.", "Alice L.", "Alice L."])
    }

    @Test("your new name reaches your posts in one order every run: newest first")
    func nameReachesPostsInOneOrder() async throws {
        let posts = (100..<116).map { makePost(String($0), minutesAgo: Double(200 - $0), author: alice) }
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.reversed().map(\.id)
        model.ownProfile = OwnProfile(author: alice)
        let server = GatedServer(model, me: alice, answering: [.page, .ownProfile, .updateProfile])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        let heard = Locked<[PostID]>([])
        let subscription = session.store.observe { change in heard.withLock { $0.append(change.originalID) } }
        try session.editProfile(ProfileEdit(displayName: "Alice L."))
        await session.settle()
        withExtendedLifetime(subscription) {}
        #expect(heard.withLock { $0 } == (100..<116).reversed().map { PostID(String($0)) })
    }

    @Test("your boosts name you as their booster on every list at once, and on a page fetched later; a refusal puts the old name back")
    func boostsNameYou() async throws {
        // alice's boost w1 of bob's b1, on home and on her profile.
        let original = makePost("b1", minutesAgo: 10, author: bob)
        let posts = [makePost("w1", minutesAgo: 1, author: alice, reblog: original), original, makePost("a1", minutesAgo: 2, author: alice)]
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = ["w1", "a1"]
        model.timelines.feeds[.account(AccountID(alice.id))] = ["w1", "a1"]
        model.ownProfile = OwnProfile(author: alice)
        let server = GatedServer(model, me: alice, answering: [.page, .newer, .profile, .relationships, .ownProfile])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        for list in lists { list.appeared() }
        await session.settle()
        let boosters = { (lists: [FeedListViewModel]) in
            lists.map { list in list.rows.first { $0.id == .post(PostID("w1")) }?.post?.boostedBy?.displayName ?? "-" }
        }
        #expect(boosters(lists) == ["Alice", "Alice"])
        // The server cannot be reached: the change is shown, and waits to be sent again.
        server.fail(.updateProfile, with: ServerUnreachable())
        try session.editProfile(ProfileEdit(displayName: "Alice L."))
        await session.settle()
        #expect(session.ownProfile.unsent == ["change your profile"])
        #expect(boosters(lists) == ["Alice L.", "Alice L."])
        #expect(lists.map { $0.rows.first { $0.id == .post(PostID("w1")) }?.post?.author.displayName } == ["Bob", "Bob"], "the original keeps its author")
        // A page fetched meanwhile, whose boost still names the old name, names the new one.
        session.navigator.push(.list(.feed(.home)))
        let again = try #require(session.navigator.screens.last?.list)
        again.appeared()
        await session.settle()
        #expect(boosters([again]) == ["Alice L."])
        server.fail(.updateProfile, with: ServerRefusal("Validation failed"))
        #expect(session.retry())
        await session.settle()
        #expect(boosters(lists + [again]) == ["Alice", "Alice", "Alice"])
    }

    @Test("a refusal puts everything back with the server's sentence")
    func refusalRollsBack() async throws {
        let server = Self.server()
        let (session, lists, profile) = await Self.stack(server)
        let log = OutcomeLog(session)
        server.hold(.updateProfile)
        try session.editProfile(ProfileEdit(displayName: "A name far too long for any server to keep"))
        await server.waitForHeld(1)
        #expect(Self.names(lists) == Array(repeating: "A name far too long for any server to keep", count: 3))
        server.failHeld(at: 0, with: ServerRefusal("Validation failed: Display name is too long (maximum is 30 characters)"))
        await session.settle()
        #expect(Self.names(lists) == ["Alice", "Alice", "Alice"])
        #expect(profile.profile?.current.profile?.author.displayName == "Alice")
        #expect(log.heard == [.refused(.profile, sentence: "Validation failed: Display name is too long (maximum is 30 characters)")])
        #expect(session.ownProfile.refusal == "Validation failed: Display name is too long (maximum is 30 characters)")
        #expect(server.model.ownProfile?.author.displayName == "Alice")
    }

    @Test("without a connection the change stays shown, queued, and is sent again")
    func unreachableQueues() async throws {
        let server = Self.server()
        let (session, lists, _) = await Self.stack(server)
        let log = OutcomeLog(session)
        server.fail(.updateProfile, with: ServerUnreachable())
        try session.editProfile(ProfileEdit(bio: "Offline edit"))
        await session.settle()
        #expect(session.shownOwnProfile?.bio == "Offline edit")
        #expect(session.hasFailures)
        #expect(session.ownProfile.unsent == ["change your profile"])
        server.answer(.updateProfile)
        #expect(session.retry())
        await session.settle()
        #expect(!session.hasFailures)
        #expect(server.model.ownProfile?.bio == "Offline edit")
        #expect(Self.names(lists) == ["Alice", "Alice", "Alice"])
        #expect(log.heard == [.queued(.profile, reason: "The server could not be reached.", resendAfter: .seconds(2)), .done(.profile)])
    }

    @Test("an edit that changes nothing, or has too many fields, sends nothing")
    func nothingSent() async throws {
        let server = Self.server()
        let (session, _, _) = await Self.stack(server)
        session.loadOwnProfile()
        await session.settle()
        #expect(throws: FeedFailure(message: ProfileProblem.nothingChanged.message, isTransient: false)) {
            try session.editProfile(ProfileEdit(displayName: "Alice", bio: "Hello"))
        }
        let five = (1...5).map { Profile.Field(name: "F\($0)", value: "v") }
        #expect(throws: FeedFailure(message: ProfileProblem.tooManyFields(5).message, isTransient: false)) {
            try session.editProfile(ProfileEdit(fields: five))
        }
        #expect(server.calls(.updateProfile).isEmpty)
    }

    @Test("only what changed is sent; a second edit asked meanwhile goes after the first answer")
    func onlyChangesSent() async throws {
        let server = Self.server()
        let (session, _, _) = await Self.stack(server)
        server.hold(.updateProfile)
        try session.editProfile(ProfileEdit(displayName: "First"))
        await server.waitForHeld(1)
        try session.editProfile(ProfileEdit(bot: true))
        #expect(session.shownOwnProfile?.bot == true && session.shownOwnProfile?.author.displayName == "First")
        server.answerHeld(at: 0)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.calls(.updateProfile).map(\.description) == ["updateProfile(name=First)", "updateProfile(bot=true)"])
        #expect(server.model.ownProfile?.bot == true && server.model.ownProfile?.author.displayName == "First")
    }
}
