@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 35's proof features as configurations of the interaction engine: pinning one's own
/// post and muting a conversation are kinds like a favourite — shown at once on every screen,
/// one request, rolled back with the server's sentence — with their rules said before anything
/// is sent, and a profile that keeps its pinned posts on top.
@MainActor
@Suite("Pins and muted conversations across the stack")
struct PinAndMuteSessionTests {
    /// A server of alice's and bob's posts (home lists them all, a profile its author's),
    /// signed in as alice. Interaction requests wait for the test.
    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel(posts)
        model.timelines.feeds[.home] = posts.map(\.id)
        for author in [alice, bob] {
            model.timelines.feeds[.account(AccountID(author.id))] = posts.filter { $0.author.id == author.id }.map(\.id)
        }
        let server = GatedServer(model, me: alice, answering: [.page, .newer, .composeSettings, .post, .context, .profile], sourceLocation: sourceLocation)
        server.hold(.interaction)
        return server
    }

    /// alice's a1 (newest), bob's b1, alice's a2 (old, pinned), bob's b2 replying to a1, bob's
    /// b3 mentioning alice, and bob's direct message d1 to alice.
    static var posts: [Post] {
        var pinned = makePost("a2", minutesAgo: 600, author: alice)
        pinned.pinned = true
        var reply = makePost("b2", minutesAgo: 3, author: bob)
        reply.inReplyToID = "a1"
        var mention = makePost("b3", minutesAgo: 4, author: bob)
        mention.mentions = ["Alice"]
        var direct = makePost("d1", minutesAgo: 5, author: alice)
        direct.visibility = .direct
        return [makePost("a1", minutesAgo: 1, author: alice), makePost("b1", minutesAgo: 2, author: bob), reply, mention, direct, pinned]
    }

    static func post(_ list: FeedListViewModel, _ id: String) -> PostRow? {
        list.rows.first { $0.id == .post(PostID(id)) }?.post
    }

    static func ids(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in if case .post(let id) = row.id { id.rawValue } else { nil } }
    }

    /// home, then alice's profile, both loaded, who is signed in known.
    func stack(_ server: GatedServer) async -> (FeedSession, home: FeedListViewModel, profile: FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.account(AccountID(alice.id)))))
        await session.settle()
        session.drafts.load()
        await session.settle()
        guard case .list(let profile)? = session.navigator.screens.last else {
            Issue.record("no profile on top")
            return (session, session.root, session.root)
        }
        return (session, session.root, profile)
    }

    @Test("a pin shows at once on every screen, is sent once, and stays when the server agrees")
    func pinEverywhere() async throws {
        let server = Self.server()
        let (session, home, profile) = await stack(server)
        #expect(session.interactionRefusal(.pin, true, post: "a1") == nil)
        #expect(home.set(.pin, true, row: .post("a1")))
        #expect(Self.post(home, "a1")?.interaction.pinned == true && Self.post(profile, "a1")?.interaction.pinned == true)
        #expect(Self.post(profile, "a1")?.interaction.pending == [.pin])
        // Asked again while on its way: nothing more is sent.
        #expect(profile.set(.pin, true, row: .post("a1")))
        await server.held.waitFor(1)
        #expect(server.held.calls.map(\.description) == ["interaction(pin true a1)"])
        #expect(server.answerHeld(at: 0))
        await session.settle()
        #expect(server.model.entry("a1")?.pinned == true)
        #expect(Self.post(home, "a1")?.interaction.pinned == true && Self.post(home, "a1")?.interaction.pending == [])
        #expect(server.held.heldSoFar.count == 1)
    }

    @Test("a refused pin rolls back on every screen with the server's sentence")
    func pinRefused() async throws {
        let server = Self.server()
        let (session, home, profile) = await stack(server)
        #expect(profile.set(.pin, true, row: .post("a1")))
        await server.held.waitFor(1)
        let sentence = "Validation failed: You have already pinned the maximum number of posts"
        try #require(server.held.take(at: 0)).fail(FeedFailure(message: sentence, isTransient: false))
        await session.settle()
        for list in [home, profile] {
            let row = try #require(Self.post(list, "a1"))
            #expect(!row.interaction.pinned && row.interaction.pending.isEmpty)
            #expect(row.interaction.failure?.message == "Could not pin this post: \(sentence)")
        }
    }

    @Test("what Mastodon refuses is refused in words before anything is sent: someone else's post, a direct message, a conversation you take no part in")
    func refusedBeforeSending() async throws {
        let server = Self.server()
        let (session, home, _) = await stack(server)
        #expect(session.interactionRefusal(.pin, true, post: "b1")?.message == "Only your own posts can be pinned; this one is by @bob@example.social.")
        #expect(session.interactionRefusal(.pin, true, post: "d1")?.message == "A direct message cannot be pinned: only the people it mentions see it.")
        // Unpinning and unmuting are never refused; neither are the toggles that have no rule.
        #expect(session.interactionRefusal(.pin, false, post: "b1") == nil)
        #expect(session.interactionRefusal(.favourite, true, post: "b1") == nil)
        let notTakingPart = "Only a conversation you take part in can be muted: none of its posts shown here is yours or mentions you."
        #expect(session.interactionRefusal(.muteThread, true, post: "b1")?.message == notTakingPart)
        #expect(session.interactionRefusal(.muteThread, false, post: "b1") == nil)
        // Your own post, a reply to it (its ancestor is yours), a post mentioning you (any case).
        for id in ["a1", "b2", "b3"] { #expect(session.interactionRefusal(.muteThread, true, post: PostID(id)) == nil, "\(id)") }
        // Nothing was shown or sent for the refused ones.
        #expect(Self.post(home, "b1")?.interaction.pinned == false && server.held.heldSoFar.isEmpty)
    }

    @Test("before the session knows who is signed in, nothing is refused: the server decides")
    func unknownAccount() async {
        let server = Self.server()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        #expect(session.interactionRefusal(.pin, true, post: "b1") == nil)
    }

    @Test("a muted conversation shows on every screen at once and rolls back when refused")
    func muteThread() async throws {
        let server = Self.server()
        let (session, home, profile) = await stack(server)
        session.navigator.push(.post("a1"))
        await session.settle()
        guard case .post(let detail)? = session.navigator.screens.last else {
            Issue.record("no post screen")
            return
        }
        #expect(detail.set(.muteThread, true))
        #expect(detail.current.interaction?.muted == true && Self.post(home, "a1")?.interaction.muted == true)
        #expect(Self.post(profile, "a1")?.interaction.muted == true)
        await server.held.waitFor(1)
        try #require(server.held.take(at: 0)).fail(FeedFailure(message: "Record not found", isTransient: false))
        await session.settle()
        #expect(detail.current.interaction?.muted == false && Self.post(home, "a1")?.interaction.muted == false)
        #expect(detail.current.interaction?.failure?.message == "Could not mute the conversation of this post: Record not found")
    }

    @Test("a profile keeps its pinned posts on top: newer posts are asked above the first post below them and go below them")
    func pinnedOnTop() async throws {
        let server = Self.server()
        let (session, _, profile) = await stack(server)
        #expect(Self.ids(profile) == ["a2", "a1", "d1"])
        // alice posts a0 before the refresh.
        let profileFeed = Feed.account(AccountID(alice.id))
        server.update { model in
            model.add([makePost("a0", minutesAgo: 0, author: alice)])
            model.timelines.prepend("a0", to: [profileFeed])
        }
        profile.refresh()
        await session.settle()
        #expect(server.calls(.newer).map(\.description) == ["newer(\(profileFeed), than: a1, olderThan: nil)"])
        #expect(Self.ids(profile) == ["a2", "a0", "a1", "d1"])
    }
}
