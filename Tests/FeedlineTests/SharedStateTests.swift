import FeedlineTestSupport
@_spi(FeedService) import Feedline
import Synchronization
import Testing

@MainActor
@Suite("Shared post state", .timeLimit(.minutes(30)))
struct SharedStateTests {
    /// A timeline with an original `o1` and `b1`, a reblog entry of it by Bob, plus `p2`.
    private func loadedSession(expecting: FeedCalls, sourceLocation: SourceLocation = #_sourceLocation) async -> (FeedSession, MemoryService) {
        let original = makePost("o1", minutesAgo: 10, favourites: 2, reblogs: 1)
        let posts = [makePost("b1", minutesAgo: 1, author: bob, reblog: original), makePost("p2", minutesAgo: 5), original]
        let service = MemoryService(posts: posts, expecting: expecting, sourceLocation: sourceLocation)
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
    private func nextCall(_ session: FeedSession, _ service: ControlledService) async -> ControlledService.Call? {
        if service.pending.isEmpty, !session.store.outbox.isEmpty {
            session.retry()
            await quiesce(session, service)
        }
        return service.pending.first
    }

    @Test("a toggle in the detail shows on the timeline row at once, and the other way round")
    func detailAndRow() async throws {
        let (session, service) = await loadedSession(expecting: [.pages, .posts, .contexts, .interactions])
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
        #expect(service.serverPost("o1")?.favourited == true)

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
        let (session, _) = await loadedSession(expecting: [.pages, .interactions])
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
        let (session, _) = await loadedSession(expecting: [.pages, .interactions])
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
        let (session, service) = await loadedSession(expecting: [.pages, .interactions])
        service.failNext("favourite", refused: true)
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
        let service = ControlledService(expecting: [.pages, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await service.waitForPending(1)
        service.answer(.page(nil), with: .page(Page(posts: [makePost("p1", favourites: 1)], next: nil)))
        await session.settle()
        let p1 = try #require(session.root.rowHandle("p1"))
        p1.toggleFavourite()
        p1.toggleFavourite()
        p1.toggleFavourite()
        await service.waitForPending(1)
        #expect(service.log.last == .favourite(true, "p1"))
        #expect(p1.favourited && p1.favouritesCount == 2)
        service.answer(.favourite(true, "p1"), with: .post(makePost("p1", favourited: true, favourites: 2)))
        await quiesce(session, service)
        #expect(service.pending.isEmpty)
        #expect(service.log.count == 2)  // page + one favourite
        p1.toggleFavourite()
        p1.toggleFavourite()
        await quiesce(session, service)
        // The first tap sent an unfavourite; the second only moved the desired value back.
        #expect(service.pending == [.favourite(false, "p1")])
        // Mastodon's lagging unfavourite reply: flag off, count not yet decremented.
        service.answer(.favourite(false, "p1"), with: .post(makePost("p1", favourited: false, favourites: 2)))
        await quiesce(session, service)
        // The user wants it favourited again: exactly one more request.
        #expect(service.pending == [.favourite(true, "p1")])
        service.answer(.favourite(true, "p1"), with: .post(makePost("p1", favourited: true, favourites: 2)))
        await session.settle()
        #expect(p1.favourited && p1.favouritesCount == 2)
    }

    @Test("a page that arrives after a toggle settled does not flip it back")
    func stalePageAfterToggle() async throws {
        let service = ControlledService(expecting: [.pages, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        let timeline = session.root
        timeline.appeared()
        await service.waitForPending(1)
        service.answer(.page(nil), with: .page(Page(posts: [makePost("p1")], next: PageCursor("p1"))))
        await session.settle()
        // A page load starts (it will read the server before the favourite lands) ...
        timeline.loadMore()
        await service.waitForPending(1)
        timeline.rowHandle("p1")?.toggleFavourite()
        await service.waitForPending(2)
        service.answer(.favourite(true, "p1"), with: .post(makePost("p1", favourited: true, favourites: 1)))
        await quiesce(session, service)
        // ... and arrives after the favourite settled, carrying the old state of p1.
        service.answer(.page(PageCursor("p1")), with: .page(Page(posts: [makePost("p1"), makePost("p2")], next: nil)))
        await session.settle()
        #expect(timeline.rowHandle("p1")?.favourited == true)
        #expect(timeline.rows.count == 2)
    }

    /// Random toggles from rows and details, replies in random order, failures (for lack of a
    /// connection, or refusals) and copies, all through the real store and view models; after
    /// settling (queued interactions retried), the display equals the server.
    @Test("10,000 seeded random schedules through the store converge, one request per post and kind")
    func randomSchedulesThroughTheStore() async throws {
        let seed = testSeed(424_242)
        var random = SeededGenerator(seed: seed)
        for schedule in 0..<10_000 {
            let service = ControlledService(expecting: [.pages, .newer, .posts, .contexts, .interactions])
            // A clock nobody advances: queued interactions are sent again only by retry().
            let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: ManualClock())
            var server = ServerModel([
                makePost("a", favourites: 1), makePost("w", author: bob, reblog: makePost("b", favourited: true, favourites: 3, reblogs: 2)),
            ])
            func copy(_ id: PostID) -> Post { server.entry(id) ?? makePost(id.rawValue) }
            /// What the server answers an interaction call, having applied it.
            func interact(_ call: ControlledService.Call) -> Result<ControlledService.Response, ControlledService.Failure> {
                guard let (kind, value, id) = call.interaction, let answer = try? server.set(kind, to: value, on: id) else {
                    return .failure(.init(message: "Record not found", isTransient: false))
                }
                return .success(.post(answer))
            }
            let fail = { (message: String) in _ = Issue.record("schedule \(schedule) (seed \(seed)): \(message)") }
            session.root.appeared()
            await service.waitForPending(1)
            service.answer(.page(nil), with: .page(Page(posts: [copy("a"), copy("w"), copy("b")], next: PageCursor("b"))))
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
                    let pending = service.pending
                    guard !pending.isEmpty else { continue }
                    let index = Int.random(in: 0..<pending.count, using: &random)
                    let failing = Int.random(in: 0..<5, using: &random) == 0
                    // A failure for lack of a connection keeps the wish (queued); a refusal undoes it.
                    let refused = failing && Bool.random(using: &random)
                    switch pending[index] {
                    case .favourite(_, let target), .reblog(_, let target):
                        if failing {
                            if refused, let kind = pending[index].interaction?.kind { failedKey = "\(target) \(kind)" }
                            service.settle(at: index, with: .failure(.init(message: "Down.", isTransient: !refused)))
                            break
                        }
                        service.settle(at: index, with: interact(pending[index]))
                    case .page:
                        service.settle(at: index, with: .success(.page(Page(posts: [copy("b"), copy("a")], next: nil))))
                    case .context(let target):
                        service.settle(at: index, with: .success(.context(PostContext(ancestors: [], descendants: [copy(target == "a" ? "b" : "a")]))))
                    case .post(let target):
                        service.settle(at: index, with: .success(.post(copy(target))))
                    case .newer:
                        service.settle(at: index, with: .success(.newer(NewerPage(posts: [], hasMore: false))))
                    default:
                        fail("a call the schedule does not answer: \(pending[index])")
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
                for call in service.pending {
                    switch call {
                    case .favourite(_, let id): inFlight["fav \(id)", default: 0] += 1
                    case .reblog(_, let id): inFlight["reb \(id)", default: 0] += 1
                    default: break
                    }
                }
                if inFlight.values.contains(where: { $0 > 1 }) { fail("two requests of one kind in flight: \(service.pending)") }
            }
            // Settle everything successfully; what waits in the outbox is retried.
            while let call = await nextCall(session, service) {
                switch call {
                case .favourite, .reblog: service.settle(at: 0, with: interact(call))
                case .page: service.answer(call, with: .page(Page(posts: [], next: nil)))
                case .context: service.answer(call, with: .context(PostContext()))
                case .post(let target): service.answer(call, with: .post(copy(target)))
                case .newer: service.answer(call, with: .newer(NewerPage(posts: [], hasMore: false)))
                default:
                    fail("a call the schedule does not answer: \(call)")
                    service.settle(at: 0, with: .failure(.init(message: "unexpected")))
                }
                await quiesce(session, service)
            }
            await session.settle()
            for id: PostID in ["a", "b"] {
                let s = server.interactions(of: id) ?? ServerInteractions()
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
