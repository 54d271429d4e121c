import FeedlineTestSupport
@_spi(FeedService) import Feedline
import Synchronization
import Foundation
import Testing

@MainActor
@Suite("Shared post state", .timeLimit(.minutes(30)))
struct SharedStateTests {
    /// A timeline with an original `o1` and `b1`, a reblog entry of it by Bob, plus `p2`.
    private func loadedSession(answering: Set<GatedCall.Kind>, sourceLocation: SourceLocation = #_sourceLocation) async -> (FeedSession, GatedServer) {
        let original = makePost("o1", minutesAgo: 10, favourites: 2, reblogs: 1)
        let posts = [makePost("b1", minutesAgo: 1, author: bob, reblog: original), makePost("p2", minutesAgo: 5), original]
        let service = GatedServer(posts: posts, answering: answering, sourceLocation: sourceLocation)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    private func row(_ session: FeedSession, _ id: PostID) -> PostRow? {
        session.root.rows.compactMap(\.post).first { $0.id == id }
    }

    /// The oldest call waiting for an answer; when none waits but something is queued in the
    /// outbox, retries first (the server is back), so the outbox drains too.
    private func nextCall(_ session: FeedSession, _ service: GatedServer) async -> GatedCall? {
        if service.waiting.isEmpty, !session.store.outbox.isEmpty {
            session.retry()
            await quiesce(session, service)
        }
        return service.waiting.first
    }

    @Test("a toggle in the detail shows on the timeline row at once, and the other way round")
    func detailAndRow() async throws {
        let (session, service) = await loadedSession(answering: [.page, .post, .context, .interaction])
        session.navigator.open("o1")
        guard case .post(let detail) = session.navigator.top else {
            Issue.record("no detail on top")
            return
        }
        detail.toggleFavourite()
        // At once, before the server answers.
        #expect(detail.current.interaction?.favourited == true)
        #expect(row(session, "o1")?.interaction.favourited == true)
        #expect(row(session, "o1")?.interaction.favouritesCount == 3)
        await session.settle()
        #expect(row(session, "o1")?.interaction.pending == [])
        #expect(service.model.original(of: "o1")?.favourited == true)

        // Row → detail.
        let rowHandle = try #require(session.root.rowHandle("o1"))
        rowHandle.toggleReblog()
        #expect(detail.current.interaction?.reblogged == true)
        #expect(detail.current.interaction?.reblogsCount == 2)
        await session.settle()
        #expect(detail.current.interaction == row(session, "o1")?.interaction)
    }

    @Test("a reblog entry and its original in the same timeline move together")
    func twins() async throws {
        let (session, _) = await loadedSession(answering: [.page, .interaction])
        let boost = try #require(session.root.rowHandle("b1"))
        var updates: [Changeset<ListRow>] = []
        let recorder = Locked<[Changeset<ListRow>]>([])
        let subscription = session.root.snapshot.subscribe { snapshot in recorder.withLock { $0.append(snapshot.changes) } }
        boost.toggleFavourite()
        updates = recorder.withLock { $0 }
        #expect(row(session, "b1")?.interaction.favourited == true)
        #expect(row(session, "o1")?.interaction.favourited == true)
        #expect(row(session, "b1")?.interaction == row(session, "o1")?.interaction)
        // One snapshot updated both rows.
        #expect(updates.last?.updates.map(\.newIndex) == [0, 2])
        await session.settle()
        #expect(row(session, "b1")?.interaction.favouritesCount == 3)
        #expect(row(session, "o1")?.interaction.favouritesCount == 3)
        subscription.cancel()
    }

    @Test("a row's value in the list's snapshots follows the shared state")
    func rowValueFollowsSharedState() async throws {
        let (session, _) = await loadedSession(answering: [.page, .interaction])
        let second = try #require(session.root.rowHandle("b1"))
        let seen = Locked<[Bool]>([])
        let favourited = session.root.snapshot.map { $0.rows[id: .post("o1")]?.post?.interaction.favourited ?? false }
        let subscription = favourited.removeDuplicates().subscribe { value in
            seen.withLock { $0.append(value) }
        }
        second.toggleFavourite()
        await session.settle()
        #expect(seen.withLock { $0 } == [false, true])
        subscription.cancel()
    }

    @Test("a favourite the server refuses rolls back everywhere and shows the error on that post")
    func rollback() async throws {
        let (session, service) = await loadedSession(answering: [.page, .interaction])
        service.failNext(1, .interaction, with: ServerRefusal("Not allowed."))
        let p2 = try #require(session.root.rowHandle("p2"))
        p2.toggleFavourite()
        #expect(p2.favourited)
        await session.settle()
        #expect(!p2.favourited)
        #expect(row(session, "p2")?.interaction.failure
            == InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Not allowed.", isTransient: false))
        #expect(row(session, "o1")?.interaction.failure == nil)
    }

    @Test("impatient double taps send one request and end where the user left it")
    func doubleTaps() async throws {
        let service = GatedServer(posts: [makePost("p1", favourites: 1)])
        service.hold(.page, .interaction)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        let p1 = try #require(session.root.rowHandle("p1"))
        p1.toggleFavourite()
        p1.toggleFavourite()
        p1.toggleFavourite()
        await service.waitForHeld(1)
        #expect(service.asked.last == "interaction(favourite true p1)")
        #expect(p1.favourited && p1.favouritesCount == 2)
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(service.waiting.isEmpty)
        #expect(service.calls.count == 2)  // page + one favourite
        p1.toggleFavourite()
        p1.toggleFavourite()
        await quiesce(session, service)
        // The first tap sent an unfavourite; the second only moved the desired value back.
        #expect(service.waiting.map(\.description) == ["interaction(favourite false p1)"])
        // Mastodon's lagging unfavourite reply: flag off, count not yet decremented (the server's
        // count is one more than it showed, so its unfavourite answers 2).
        service.edit("p1") { $0.favouritesCount = 3 }
        service.answer(at: 0)
        await quiesce(session, service)
        // The user wants it favourited again: exactly one more request.
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p1)"])
        // The count caught up: its favourite answers 2.
        service.edit("p1") { $0.favouritesCount = 1 }
        service.answer(at: 0)
        await session.settle()
        #expect(p1.favourited && p1.favouritesCount == 2)
    }

    @Test("a page that arrives after a toggle settled does not flip it back")
    func stalePageAfterToggle() async throws {
        let service = GatedServer(posts: [makePost("p1")])
        service.hold(.page, .interaction)
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let timeline = session.root
        timeline.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        // A reload starts (it reads the server before the favourite lands) ...
        timeline.reload()
        await service.waitForHeld(1)
        timeline.rowHandle("p1")?.toggleFavourite()
        await service.waitForHeld(2)
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service)
        #expect(service.model.original(of: "p1")?.favourited == true)
        // ... and arrives after the favourite settled, carrying the old state of p1.
        service.answerHeld(at: try #require(service.waitingIndex(.page)), asAsked: true)
        await session.settle()
        #expect(timeline.rowHandle("p1")?.favourited == true)
        #expect(timeline.rows.count == 1)
    }

    /// Random toggles from rows and details, replies in random order, failures (for lack of a
    /// connection, or refusals) and copies, all through the real store and view models; after
    /// settling (queued interactions retried), the display equals the server.
    @Test("10,000 seeded random schedules through the store converge, one request per post and kind")
    func randomSchedulesThroughTheStore() async throws {
        let seed = testSeed(424_242)
        var random = SeededGenerator(seed: seed)
        // FEEDLINE_SCHEDULES sets the count (CI's ThreadSanitizer pass runs fewer; the plain pass all).
        let schedules = ProcessInfo.processInfo.environment["FEEDLINE_SCHEDULES"].flatMap(Int.init) ?? 10_000
        for schedule in 0..<schedules {
            // The server's a, Bob's boost w of b, and b, which replies to a (so each one's thread
            // brings a copy of the other); pages of three, so one older page can come, with Bob's
            // boost v of a (a copy of a again).
            var b = makeReply("b", to: "a")
            b.interactions = ServerInteractions(favourited: true, favourites: 3, reblogs: 2)
            let a = makePost("a", favourites: 1)
            let service = GatedServer(
                posts: [a, makePost("w", author: bob, reblog: b), b, makePost("v", minutesAgo: 1, author: bob, reblog: a)], pageSize: 3
            )
            service.hold(.page, .newer, .post, .context, .interaction)
            // A clock nobody advances: queued interactions are sent again only by retry().
            let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: ManualClock())
            let fail = { (message: String) in _ = Issue.record("schedule \(schedule) (seed \(seed)): \(message)") }
            session.root.appeared()
            await service.waitForHeld(1)
            service.answer(at: 0)
            await session.settle()
            var details: [PostDetailViewModel] = []
            // What the user last asked for, per post and kind: only a failure may change it back.
            var intent: [String: Bool] = [:]
            func shown(_ id: PostID, _ kind: InteractionKind) -> Bool? { session.store.interaction(id)?.isOn(kind) }
            for id: PostID in ["a", "b"] { for kind in InteractionKind.allCases { intent["\(id) \(kind)"] = shown(id, kind) } }
            for _ in 0..<Int.random(in: 3...12, using: &random) {
                var failedKey: String?
                let id: PostID = Bool.random(using: &random) ? "a" : "b"
                let kind: InteractionKind = Bool.random(using: &random) ? .favourite : .reblog
                switch Int.random(in: 0..<8, using: &random) {
                case 0, 1:
                    let entry: PostID = id == "b" && Bool.random(using: &random) ? "w" : id
                    let row = session.root.rowHandle(entry)
                    if kind == .favourite { row?.toggleFavourite() } else { row?.toggleReblog() }
                    intent["\(id) \(kind)"]?.toggle()
                case 2:
                    if details.isEmpty || Bool.random(using: &random) {
                        session.navigator.open(id)
                        if case .post(let detail) = session.navigator.top { details.append(detail) }
                    }
                    if let detail = details.randomElement(using: &random) {
                        if kind == .favourite { detail.toggleFavourite() } else { detail.toggleReblog() }
                        intent["\(detail.id) \(kind)"]?.toggle()
                    }
                case 3:
                    if session.root.state.inFlight == nil { session.root.loadMore() }
                default:
                    let pending = service.waiting
                    guard !pending.isEmpty else { continue }
                    let index = Int.random(in: 0..<pending.count, using: &random)
                    let failing = Int.random(in: 0..<5, using: &random) == 0
                    // A failure for lack of a connection keeps the wish (queued); a refusal undoes it.
                    let refused = failing && Bool.random(using: &random)
                    if let (kind, _, target) = pending[index].interaction {
                        if failing {
                            if refused { failedKey = "\(target) \(kind)" }
                            if refused { service.refuse(at: index) } else { service.lose(at: index) }
                            break
                        }
                        service.answer(at: index)
                    } else {
                        // A read answers with the server's copies as they are now.
                        service.answer(at: index)
                    }
                }
                await quiesce(session, service)
                if let failedKey, let id = failedKey.split(separator: " ").first {
                    intent[failedKey] = shown(PostID(String(id)), failedKey.hasSuffix("favourite") ? .favourite : .reblog)
                }
                for id: PostID in ["a", "b"] {
                    for kind in InteractionKind.allCases where shown(id, kind) != intent["\(id) \(kind)"] {
                        fail("\(id) \(kind) shows \(String(describing: shown(id, kind))) but the user asked for \(String(describing: intent["\(id) \(kind)"]))")
                    }
                }
                var inFlight: [String: Int] = [:]
                for call in service.waiting {
                    guard let (kind, _, id) = call.interaction else { continue }
                    inFlight["\(kind) \(id)", default: 0] += 1
                }
                if inFlight.values.contains(where: { $0 > 1 }) { fail("two requests of one kind in flight: \(service.waiting)") }
            }
            // Settle everything successfully; what waits in the outbox is retried.
            while await nextCall(session, service) != nil {
                service.answer(at: 0)
                await quiesce(session, service)
            }
            await session.settle()
            for id: PostID in ["a", "b"] {
                let s = service.model.interactions(of: id) ?? ServerInteractions()
                let shown = session.store.interaction(id)
                if shown?.favourited != s.favourited || shown?.favouritesCount != s.favourites || shown?.reblogged != s.reblogged
                    || shown?.reblogsCount != s.reblogs {
                    fail("\(id) shows \(String(describing: shown)), server has \(s)")
                }
                for row in session.root.rows.compactMap(\.post) where row.originalID == id {
                    if row.interaction != shown { fail("row \(row.id) shows \(row.interaction), store \(String(describing: shown))") }
                }
            }
            for detail in details where detail.current.interaction != session.store.interaction(detail.id) {
                fail("detail \(detail.id) disagrees with the store")
            }
        }
    }
}
