@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Deletes reach rows and details the way every other change does: the store tells the holders
/// that show the post (nothing searches screens), an original takes its boosts and
/// notifications with it, a boost (an un-boost streams a delete of the wrapper) only its own
/// rows — the original and a detail of it stay.
@MainActor
@Suite("Deletes pushed by the store", .timeLimit(.minutes(10)))
struct DeletePushTests {
    /// Home shows `w1` (Bob's boost of `o1`), `p2` and `o1` itself.
    private func session() async -> (FeedSession, GatedServer) {
        let original = makePost("o1", minutesAgo: 10)
        let service = GatedServer(
            posts: [makePost("w1", minutesAgo: 1, author: bob, reblog: original), makePost("p2", minutesAgo: 5), original],
            answering: [.page, .post, .context, .interaction]
        )
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    private func ids(_ rows: some Sequence<ListRow>) -> [String] { ListStateStreamTests.ids(rows) }

    @Test("an un-boost (a delete of the wrapper) removes the boost row only; a detail opened from the boost row stays, not deleted")
    func unboostKeepsTheOriginal() async throws {
        let (session, _) = await session()
        session.navigator.push(.list(.thread("o1")))
        await session.settle()
        session.navigator.open("w1")
        await session.settle()
        let detail = try #require(session.navigator.top.detail)
        #expect(detail.current.post?.id == "o1")
        session.apply(.deleted("w1"))
        #expect(ids(session.root.rows) == ["p2", "o1"])
        #expect(!detail.current.deleted)
        #expect(detail.toggle(.favourite), "the original can still be favourited")
        let thread = try #require(session.navigator.screens[1].list)
        #expect(thread.rows.contains(.post("o1")))
    }

    @Test("deleting an original removes its row and its boosts' rows on every screen, and marks its details deleted, whichever id opened them")
    func originalTakesEverything() async throws {
        let (session, _) = await session()
        session.navigator.open("w1")
        await session.settle()
        let fromBoost = try #require(session.navigator.top.detail)
        session.navigator.open("o1")
        await session.settle()
        let fromOriginal = try #require(session.navigator.top.detail)
        session.apply(.deleted("o1"))
        #expect(ids(session.root.rows) == ["p2"])
        #expect(fromBoost.current.deleted && fromOriginal.current.deleted)
        #expect(!fromBoost.toggle(.favourite))
    }

    @Test("a thread whose focus is deleted while it loads does not show the focus")
    func threadFocusDeletedWhileLoading() async throws {
        // The server's thread: a, f replying to it, r replying to f.
        let service = GatedServer(ServerModel([makePost("a", minutesAgo: 9), makeReply("f", to: "a", minutesAgo: 5), makeReply("r", to: "f", minutesAgo: 1)]))
        service.hold(.post, .context)
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.thread("f")))
        await service.waitForHeld(2)
        let thread = try #require(session.navigator.top.list)
        // The post answer arrives; the stream deletes the focus; then the context lands.
        service.answer(at: try #require(service.waitingIndex(.post, key: "f")))
        await Task.yield()
        session.apply(.deleted("f"))
        service.answer(at: try #require(service.waitingIndex(.context, key: "f")))
        await session.settle()
        #expect(ids(thread.rows) == ["a", "r"])
        #expect(thread.state.checkInvariants().isEmpty)
    }

    @Test("a detail's replies drop a reply deleted while the thread loads, and follow later edits and deletes")
    func detailRepliesFollowTheStore() async throws {
        let replies = [makeReply("r1", to: "f", minutesAgo: 5), makeReply("r2", to: "f", minutesAgo: 4), makeReply("r3", to: "f", minutesAgo: 3)]
        let service = GatedServer(ServerModel([makePost("f", minutesAgo: 9)] + replies))
        service.hold(.post, .context)
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.open("f")
        await service.waitForHeld(2)
        let detail = try #require(session.navigator.top.detail)
        service.answer(at: try #require(service.waitingIndex(.post, key: "f")))
        // A reply is deleted while the thread comes.
        session.apply(.deleted("r1"))
        service.answer(at: try #require(service.waitingIndex(.context, key: "f")))
        await session.settle()
        #expect(detail.current.context?.descendants.map(\.id) == ["r2", "r3"])
        // An edit of a reply reaches the detail; so does a delete.
        session.apply(.edited(makePost("r2", minutesAgo: 4, text: "edited reply")))
        #expect(detail.current.context?.descendants.first?.text == "edited reply")
        session.apply(.deleted("r3"))
        #expect(detail.current.context?.descendants.map(\.id) == ["r2"])
        #expect(!detail.current.deleted)
    }
}
