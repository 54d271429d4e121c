@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A server of direct conversations (their last posts are its posts) whose reads and
/// removals wait until the test answers (or fails) them; pages of `pageSize`, a direct reply
/// posts at once.
private func conversationServer(_ conversations: [Conversation], pageSize: Int = 20, sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
    var model = ServerModel(conversations.compactMap(\.lastPost))
    model.conversations = ServerConversations(conversations)
    let server = GatedServer(
        model, me: Author(id: "9", displayName: "Me", handle: "me"), pageSize: pageSize,
        answering: [.conversations, .post, .context, .interaction, .composeSettings, .publish], sourceLocation: sourceLocation
    )
    server.hold(.markConversationRead, .removeConversation)
    return server
}

extension GatedCall {
    /// A conversation change as `read c1` or `remove c1`.
    fileprivate var change: String { "\(kind == .removeConversation ? "remove" : "read") \(key)" }
}

extension GatedServer {
    /// The conversation changes asked so far, as `read c1`, in order.
    fileprivate var changesSent: [String] { calls.filter { [.markConversationRead, .removeConversation].contains($0.kind) }.map(\.change) }

    /// The changes waiting for an answer, as `read c1`, in the order they came.
    fileprivate var changesWaiting: [String] { held.calls.map(\.change) }

    /// The conversations as the server has them: `c1*` when unread.
    fileprivate var summary: [String] { model.conversations.conversations.map { $0.id + ($0.unread ? "*" : "") } }

    /// A new post in conversation `id` (added when the server has none of that id): unread, on top.
    fileprivate func newPost(in id: String, _ post: Post, participant: Author) -> Conversation {
        update { model in
            model.add([post])
            return model.conversations.receive(post, in: id, from: participant)
        }
    }

    /// Refuses the change waiting at `index` ("Forbidden.").
    fileprivate func fail(at index: Int) {
        failHeld(at: index, with: ServerRefusal("Forbidden."))
    }

}

/// Direct conversations: one state per conversation on every screen — read, removed, moved up.
@MainActor
@Suite("Conversations")
struct ConversationSessionTests {
    static func conversation(_ id: String, with author: Author = alice, unread: Bool = false, minutesAgo: Double = 1) -> Conversation {
        let post = Post(
            id: PostID("\(id)-last"), author: author, text: "last of \(id)", createdAt: testNow.addingTimeInterval(-minutesAgo * 60),
            visibility: .direct
        )
        return Conversation(id: id, participants: [author], unread: unread, lastPost: post)
    }

    /// `id` with `*` when unread and `!` when it shows a refusal.
    static func shown(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.conversation.map { "\($0.id)\($0.unread ? "*" : "")\($0.failure == nil ? "" : "!")" } }
    }

    /// A session with two conversations screens on the stack.
    func twoScreens(_ server: GatedServer) async -> (FeedSession, FeedListViewModel, FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.conversations))
        session.navigator.push(.list(.conversations))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        return (session, lists[1], lists[2])
    }

    @Test("opening an unread conversation shows its thread and clears unread at once on every screen; one request")
    func openMarksRead() async throws {
        let server = conversationServer([Self.conversation("c1", unread: true), Self.conversation("c2", with: bob)])
        let (session, first, second) = await twoScreens(server)
        #expect(Self.shown(first) == ["c1*", "c2"])
        #expect(second.rows.first?.conversation?.participantHandles == "@alice")
        #expect(session.openConversation(row: .conversation("c1"), in: second))
        #expect(session.navigator.top.route == .list(.thread("c1-last")))
        #expect(Self.shown(first) == ["c1", "c2"])
        #expect(Self.shown(second) == ["c1", "c2"])
        #expect(session.conversations.isPending("c1"))
        // Opened again (from the other screen) while it waits: no second request.
        #expect(first.openConversation(row: .conversation("c1")) == "c1-last")
        #expect(!session.markConversationRead("c1"))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.changesSent == ["read c1"])
        #expect(!session.conversations.isPending("c1"))
        #expect(!session.hasFailures)
        // A read conversation opens without a request.
        #expect(session.openConversation(row: .conversation("c2"), in: first))
        await session.settle()
        #expect(server.changesSent == ["read c1"])
        #expect(!session.openConversation(row: .conversation("nope"), in: first))
    }

    @Test("a refused read shows the conversation unread again on every screen, with the reason; retry does not send it again, opening it does")
    func refusedRead() async throws {
        let server = conversationServer([Self.conversation("c1", unread: true)])
        let (session, first, second) = await twoScreens(server)
        #expect(session.markConversationRead("c1"))
        #expect(Self.shown(first) == ["c1"])
        await server.waitForHeld(1)
        server.fail(at: 0)
        await session.settle()
        #expect(Self.shown(first) == ["c1*!"])
        #expect(Self.shown(second) == ["c1*!"])
        #expect(session.conversations.failure("c1") == "Could not mark the conversation with @alice read: Forbidden.")
        #expect(!session.hasFailures)
        #expect(!session.retry())
        #expect(Self.shown(second) == ["c1*!"])
        #expect(session.markConversationRead("c1"))
        #expect(Self.shown(second) == ["c1"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(!session.hasFailures)
        #expect(server.changesSent == ["read c1", "read c1"])
    }

    @Test("removing takes the conversation off every screen at once; refused, it comes back where it was with the reason")
    func removal() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob), Self.conversation("c3")])
        let (session, first, second) = await twoScreens(server)
        #expect(second.removeConversation(row: .conversation("c2")))
        #expect(!session.removeConversation("c2"), "one removal at a time")
        #expect(Self.shown(first) == ["c1", "c3"])
        #expect(Self.shown(second) == ["c1", "c3"])
        await server.waitForHeld(1)
        server.fail(at: 0)
        await session.settle()
        #expect(Self.shown(first) == ["c1", "c2!", "c3"])
        #expect(Self.shown(second) == ["c1", "c2!", "c3"])
        #expect(session.conversations.failure("c2") == "Could not remove the conversation with @bob@example.social: Forbidden.")
        // Again, and the server takes it: gone for good, also from a reload.
        #expect(session.removeConversation("c2"))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.shown(first) == ["c1", "c3"])
        first.refresh()
        await session.settle()
        #expect(Self.shown(first) == ["c1", "c3"])
        #expect(!session.hasFailures)
        #expect(server.changesSent == ["remove c2", "remove c2"])
    }

    @Test("a read and a removal the server could not be reached for stay shown and wait, with no refusal; sent again after the backoff, or at once by a retry")
    func lostChangesWait() async throws {
        let server = conversationServer([Self.conversation("c1", unread: true), Self.conversation("c2", with: bob), Self.conversation("c3", unread: true)])
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.navigator.push(.list(.conversations))
        await session.settle()
        let list = try #require(session.navigator.top.list)
        #expect(session.markConversationRead("c1"))
        #expect(session.removeConversation("c2"))
        await server.waitForHeld(2)
        server.lose(at: 0)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.shown(list) == ["c1", "c3*"], "the read stays, the removed conversation stays away, no refusal shows")
        #expect(session.hasFailures)
        #expect(session.conversations.isPending("c1") && session.conversations.isPending("c2"))
        #expect(!session.markConversationRead("c1") && !session.removeConversation("c2"))
        try #require(session.retry())
        await server.waitForHeld(2)
        #expect(Set(server.changesWaiting) == ["read c1", "remove c2"])
        server.answerHeld(at: 0)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.shown(list) == ["c1", "c3*"])
        #expect(!session.hasFailures && !session.conversations.isPending("c1"))
        // Lost again: the backoff ends and it is sent again by itself.
        #expect(session.markConversationRead("c3"))
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.shown(list) == ["c1", "c3"])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.summary == ["c1", "c3"])
        // The read and the removal are two requests at once, first and again: either may come first.
        let sent = server.changesSent
        #expect(sent.count == 6 && Set(sent.prefix(2)) == ["read c1", "remove c2"] && Set(sent.dropFirst(2).prefix(2)) == ["read c1", "remove c2"], "\(sent)")
        #expect(Array(sent.dropFirst(4)) == ["read c3", "read c3"])
        #expect(!session.hasFailures)
    }

    @Test("a page begun before a removal or a read does not undo it")
    func staleFetch() async throws {
        let server = conversationServer([Self.conversation("c1", unread: true), Self.conversation("c2")])
        let (session, first, second) = await twoScreens(server)
        let epoch = session.conversations.beginFetch()
        session.markConversationRead("c1")
        session.removeConversation("c2")
        let kept = session.conversations.ingest(try await server.conversations(after: nil).items, fetchedAt: epoch)
        #expect(kept.map(\.id) == ["c1"])
        #expect(kept.first?.unread == false)
        #expect(Self.shown(first) == ["c1"])
        #expect(Self.shown(second) == ["c1"])
        await server.waitForHeld(2)
        server.answerHeld(at: 0)
        server.answerHeld(at: 0)
        await session.settle()
    }

    @Test("a favourite on a conversation's last post shows in its row and in the thread alike")
    func sharedPost() async throws {
        let server = conversationServer([Self.conversation("c1")])
        let (session, _, second) = await twoScreens(server)
        #expect(second.toggle(.favourite, row: .conversation("c1")))
        #expect(second.rows.first?.conversation?.lastPost?.interaction.favourited == true)
        #expect(session.store.interaction("c1-last")?.favourited == true)
        await session.settle()
        #expect(second.rows.first?.conversation?.lastPost?.interaction.favourited == true)
        session.navigator.push(.list(.thread("c1-last")))
        await session.settle()
        let thread = try #require(session.navigator.top.list)
        #expect(thread.rows.first?.post?.interaction.favourited == true)
        #expect(thread.toggle(.favourite, row: .post("c1-last")))
        #expect(second.rows.first?.conversation?.lastPost?.interaction.favourited == false)
        await session.settle()
    }

    @Test("a reload that brings a conversation's new last post: the row shows that post's state from then on, not the old one's")
    func reloadSwapsThePost() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob)])
        let (session, first, _) = await twoScreens(server)
        // The top conversation has a newer post the stream did not bring: it stays where it is.
        _ = server.newPost(in: "c1", Post(id: "n1", author: alice, text: "newer", createdAt: testNow, visibility: .direct), participant: alice)
        first.refresh()
        await session.settle()
        #expect(Self.shown(first) == ["c1*", "c2"])
        #expect(first.rows.first?.conversation?.lastPost?.text == "newer")
        #expect(session.toggle(.favourite, post: "n1"))
        #expect(first.rows.first?.conversation?.lastPost?.interaction.favourited == true, "the row hears of its new post")
        #expect(session.toggle(.favourite, post: "c1-last"))
        #expect(first.rows.first?.conversation?.lastPost?.interaction.favourited == true, "and no more of the old one")
        #expect(first.rows.first?.conversation?.lastPost?.post.id == "n1")
        await session.settle()
    }

    @Test("the server's copy of a conversation after a read (Mastodon streams one) or without a newer post changes its row in place: nothing moves")
    func echoesDoNotMove() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob), Self.conversation("c3", unread: true, minutesAgo: 5)])
        let (session, first, second) = await twoScreens(server)
        #expect(first.openConversation(row: .conversation("c3")) != nil)
        // The server's echo of the read, and a stale copy still unread while the read is on its way.
        session.apply(.conversation(Self.conversation("c3", unread: true, minutesAgo: 5)))
        #expect(Self.shown(first) == ["c1", "c2", "c3"], "the read stays; nothing moves")
        #expect(Self.shown(second) == ["c1", "c2", "c3"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        session.apply(.conversation(Self.conversation("c3", minutesAgo: 5)))
        #expect(Self.shown(first) == ["c1", "c2", "c3"])
    }

    @Test("a conversation's last post deleted: the conversation stays on every screen, showing no post until the server says which is last")
    func lastPostDeleted() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob)])
        let (session, first, second) = await twoScreens(server)
        session.store.deleted("c1-last")
        #expect(Self.shown(first) == ["c1", "c2"])
        #expect(Self.shown(second) == ["c1", "c2"])
        #expect(first.rows.first?.conversation?.lastPost == nil)
        // The server's next copy (the stream) brings the post before as the last, in place.
        var earlier = Self.conversation("c1", minutesAgo: 30)
        earlier.lastPost?.text = "the one before"
        session.apply(.conversation(earlier))
        #expect(Self.shown(first) == ["c1", "c2"])
        #expect(first.rows.first?.conversation?.lastPost?.text == "the one before")
    }

    @Test("a conversation with a new post (the stream) moves to the top of every conversations list; an unknown one comes on top")
    func streamedMovesUp() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob), Self.conversation("c3")])
        let (session, first, second) = await twoScreens(server)
        var newer = Self.conversation("c3", unread: true, minutesAgo: 0)
        newer.lastPost = Post(id: "c3-new", author: alice, text: "new in c3", createdAt: testNow, visibility: .direct)
        let changes = first.snapshot.observe { _ in }
        session.apply(.conversation(newer))
        #expect(Self.shown(first) == ["c3*", "c1", "c2"])
        #expect(Self.shown(second) == ["c3*", "c1", "c2"])
        #expect(second.rows.first?.conversation?.lastPost?.text == "new in c3")
        #expect(first.current.changes.deletions == [2])
        #expect(first.current.changes.insertions.map(\.index) == [0])
        _ = changes
        session.apply(.conversation(Self.conversation("c4", with: bob, unread: true, minutesAgo: 0)))
        #expect(Self.shown(second) == ["c4*", "c3*", "c1", "c2"])
        // The moved row still hears of its post's changes.
        second.toggle(.favourite, row: .conversation("c3"))
        #expect(first.rows.first(where: { $0.id == .conversation("c3") })?.conversation?.lastPost?.interaction.favourited == true)
        await session.settle()
    }

    @Test("your direct reply to a conversation's last post becomes its last post, and it moves to the top")
    func replyMovesUp() async throws {
        let server = conversationServer([Self.conversation("c1"), Self.conversation("c2", with: bob, unread: true)])
        let (session, first, second) = await twoScreens(server)
        #expect(session.openConversation(row: .conversation("c2"), in: second))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        let draft = session.drafts.startReply(to: try #require(session.store.post("c2-last")))
        #expect(session.drafts.all.first?.draft.visibility == .direct)
        session.drafts.update(draft) { $0.text += "thanks!" }
        #expect(session.drafts.send(draft).isEmpty)
        await session.settle()
        #expect(Self.shown(first) == ["c2", "c1"])
        #expect(Self.shown(second) == ["c2", "c1"])
        #expect(first.rows.first?.conversation?.lastPost?.text == "@bob@example.social thanks!")
        #expect(session.conversations.conversation("c2")?.lastPostID == "post1")
    }

    @Test("conversations page by the service's cursor; row ids round-trip through their description")
    func paging() async throws {
        let server = conversationServer((1...5).map { Self.conversation("c\($0)") }, pageSize: 2)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.conversations))
        await session.settle()
        let list = try #require(session.navigator.top.list)
        #expect(Self.shown(list) == ["c1", "c2"])
        list.loadMore()
        await session.settle()
        list.loadMore()
        await session.settle()
        #expect(Self.shown(list) == ["c1", "c2", "c3", "c4", "c5"])
        #expect(list.status.reachedEnd)
        #expect(RowID(RowID.conversation("c9").description) == .conversation("c9"))
        #expect(RowID.conversation("c9").description == "conversation:c9")
        #expect(Route.list(.conversations).listSource == .conversations)
    }

    static var walks: Int { ProcessInfo.processInfo.environment["FEEDLINE_WALKS"].flatMap(Int.init) ?? 300 }

    @Test("300 seeded walks of reads, removals, refusals, new posts and stale pages: every screen shows the store, one request per change, and all converge to the server")
    func seededWalks() async throws {
        let seed = testSeed(0x434F_4E56)
        print("conversation walks: \(Self.walks) walks from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for walk in 0..<Self.walks {
            if try await !run(walk: walk, seed: seed, random: &random) { break }
        }
    }

    /// One walk; `false` when it broke a rule (recorded).
    private func run(walk: Int, seed: UInt64, random: inout SeededGenerator) async throws -> Bool {
        let ids = ["c1", "c2", "c3", "c4"]
        let server = conversationServer(ids.prefix(3).map { Self.conversation($0, unread: random.next(below: 2) == 0) })
        let (session, first, second) = await twoScreens(server)
        var log: [String] = []
        var stale: (epoch: StoreEpoch, items: [Conversation])?
        /// The conversations changed here since the page in `stale` began: that page must not undo them.
        var changedSinceStale: Set<String> = []
        var posts = 0
        func broken(_ message: String) -> Bool {
            Issue.record("walk \(walk) (seed \(seed)): \(message)\n\(log.joined(separator: "\n"))")
            return true
        }
        func check() -> Bool {
            if Self.shown(first) != Self.shown(second) { return broken("the screens differ: \(Self.shown(first)) / \(Self.shown(second))") }
            for row in first.rows.compactMap(\.conversation) {
                guard let known = session.conversations.conversation(row.id) else { return broken("\(row.id) shows but the store has it removed") }
                if known.unread != row.unread { return broken("\(row.id) shows unread \(row.unread), the store says \(known.unread)") }
            }
            let waiting = server.changesWaiting
            if Set(waiting).count != waiting.count { return broken("two requests for one change: \(waiting)") }
            return false
        }
        for _ in 0..<20 {
            let id = ids[random.next(below: ids.count)]
            let before = server.changesWaiting.count
            switch random.next(below: 7) {
            case 0:
                log.append("markRead \(id)")
                if session.markConversationRead(id) {
                    changedSinceStale.insert(id)
                    await server.waitForHeld(before + 1)
                }
            case 1:
                log.append("remove \(id)")
                if session.removeConversation(id) {
                    changedSinceStale.insert(id)
                    await server.waitForHeld(before + 1)
                }
            case 2, 3:
                guard before > 0 else { continue }
                let index = random.next(below: before)
                let refuse = random.next(below: 3) == 0
                log.append("\(refuse ? "refuse" : "answer") \(server.changesWaiting[index])")
                if refuse { server.fail(at: index) } else { server.answerHeld(at: index) }
                // The answer reaches the session (nothing else runs meanwhile).
                await session.conversations.waitForRequests(atMost: before - 1)
            case 4:
                posts += 1
                log.append("new post \(posts) in \(id)")
                let post = Post(id: PostID("n\(posts)"), author: alice, text: "new \(posts)", createdAt: testNow, visibility: .direct)
                session.apply(.conversation(server.newPost(in: id, post, participant: alice)))
                changedSinceStale.insert(id)
                let removing = session.conversations.isPending(id) && session.conversations.conversation(id) == nil
                if !removing, session.conversations.conversation(id)?.unread != true { return !broken("a new post in \(id) does not show it unread") }
            case 5:
                log.append("a page begins")
                stale = (session.conversations.beginFetch(), try await server.conversations(after: nil).items)
                changedSinceStale = []
            default:
                guard let page = stale else { continue }
                log.append("the page begun earlier arrives")
                stale = nil
                let before = changedSinceStale.map { ($0, session.conversations.conversation($0)?.unread) }
                _ = session.conversations.ingest(page.items, fetchedAt: page.epoch)
                for (changed, shown) in before where session.conversations.conversation(changed)?.unread != shown {
                    return !broken("the page begun earlier undid the change of \(changed)")
                }
            }
            if check() { return false }
        }
        // Every change answered, then both screens load again: they show the server.
        while !server.changesWaiting.isEmpty { server.answerHeld(at: 0) }
        await session.settle()
        first.refresh()
        second.refresh()
        await session.settle()
        if Self.shown(first).map({ $0.replacingOccurrences(of: "!", with: "") }) != server.summary {
            return !broken("after answering everything and loading again: \(Self.shown(first)), the server: \(server.summary)")
        }
        return !check()
    }
}
