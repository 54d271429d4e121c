@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// The outbox through the session: what fails for lack of a connection stays pending and is
/// sent again (backoff on the retry clock, retry, the next start); refusals still roll back.
/// The retry clock is a ``ManualClock``: time passes only when a test says so.
@MainActor
@Suite("Outbox", .timeLimit(.minutes(10)))
struct OutboxTests {
    private let queuedFavourite = PostInteraction(
        favourited: true, favouritesCount: 4, reblogged: false, reblogsCount: 0, pending: [.favourite], queued: [.favourite])

    /// p1 (3 favourites) loaded, its favourite toggled and failed once for lack of a connection.
    private func deferredFavourite() async -> (FeedSession, GatedServer, ManualClock) {
        let (session, service, clock) = await outboxSession([makePost("p1", favourites: 3)])
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        service.lose(at: 0)
        await quiesce(session, service, clock)
        return (session, service, clock)
    }

    @Test("a favourite that fails for lack of a connection stays pending, queued, and is sent again after 2 s, 4 s, 8 s … at most 60 s")
    func backoff() async throws {
        let (session, service, clock) = await deferredFavourite()
        var delays: [Duration] = []
        for attempt in 1...7 {
            #expect(session.root.interaction("p1")?.withoutReasons == queuedFavourite, "attempt \(attempt)")
            // It says why it waits and when it is sent again.
            #expect(session.root.interaction("p1")?.queuedChanges == [
                QueuedChange(kind: .favourite, value: true, reason: "The server could not be reached.", failedAttempts: attempt, retryAfter: clock.requestedSleeps.last)
            ])
            #expect(session.root.interaction("p1")?.failure == nil)
            #expect(session.store.outbox == [OutboxEntry(postID: "p1", kind: .favourite, value: true)])
            #expect(session.hasFailures)
            #expect(service.waiting.isEmpty && clock.sleeperCount == 1)
            let delay = try #require(clock.requestedSleeps.last)
            delays.append(delay)
            // Not a moment early …
            clock.advance(by: delay - .milliseconds(1))
            await quiesce(session, service, clock)
            #expect(service.waiting.isEmpty && clock.sleeperCount == 1)
            // … and then once.
            clock.advance(by: .milliseconds(1))
            await service.waitForHeld(1)
            await quiesce(session, service, clock)
            #expect(service.waiting.map(\.description) == ["interaction(favourite true p1)"])
            // Sending again, still queued: the server has not been reached yet.
            #expect(session.root.interaction("p1")?.withoutReasons == queuedFavourite)
            if attempt < 7 { service.lose(at: try #require(service.waitingIndex(.interaction, key: "p1"))) }
            await quiesce(session, service, clock)
        }
        #expect(delays == [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p1") == PostInteraction(favourited: true, favouritesCount: 4, reblogged: false, reblogsCount: 0))
        #expect(session.store.outbox.isEmpty && clock.sleeperCount == 0 && !session.hasFailures)
        // The first request and seven re-sends.
        #expect(service.asked.filter { $0 == "interaction(favourite true p1)" }.count == 8)
    }

    @Test("every row and detail of the post shows it queued")
    func everywhere() async throws {
        let original = makePost("o1", favourites: 3)
        let (session, service, clock) = await outboxSession(
            [makePost("w1", author: bob, reblog: original), original], holding: [.post, .context]
        )
        session.navigator.open("o1")
        // The detail asks for the thread, and for a fresh copy of the post it knows.
        await service.waitForHeld(2)
        service.answer(at: try #require(service.waitingIndex(.post, key: "o1")))
        service.answer(at: try #require(service.waitingIndex(.context, key: "o1")))
        await quiesce(session, service, clock)
        let detail = try #require(session.navigator.top.detail)
        #expect(session.root.toggle(.favourite, row: .post("w1")))
        await service.waitForHeld(1)
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "o1")))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("w1")?.withoutReasons == queuedFavourite)
        #expect(session.root.interaction("o1")?.withoutReasons == queuedFavourite)
        #expect(detail.current.interaction?.withoutReasons == queuedFavourite)
    }

    @Test("retry sends a queued favourite at once, cancelling its wait, and never twice")
    func retrySendsAtOnce() async throws {
        let (session, service, clock) = await deferredFavourite()
        #expect(session.retry())
        await service.waitForHeld(1)
        await quiesce(session, service, clock)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p1)"])
        #expect(clock.sleeperCount == 0 && session.store.resendsWaiting == 0)
        // Sent: nothing more for retry to do, and no second request of the same post and kind.
        #expect(!session.hasFailures)
        #expect(!session.retry())
        clock.advance(by: .seconds(120))
        await quiesce(session, service, clock)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p1)"])
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        #expect(session.store.outbox.isEmpty)
        #expect(service.asked.filter { $0 == "interaction(favourite true p1)" }.count == 2)
        #expect(clock.requestedSleeps == [.seconds(2)])
    }

    @Test("toggling back while queued drops the entry: nothing is sent, ever")
    func toggleBackDrops() async throws {
        let (session, service, clock) = await deferredFavourite()
        let recorder = OutboxRecorder(session.store)
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        #expect(session.root.interaction("p1") == PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 0))
        #expect(session.store.outbox.isEmpty && recorder.values == [[]])
        #expect(clock.sleeperCount == 0 && session.store.resendsWaiting == 0)
        clock.advance(by: .seconds(600))
        await quiesce(session, service, clock)
        #expect(service.waiting.isEmpty)
        #expect(service.asked.filter { $0 == "interaction(favourite true p1)" || $0 == "interaction(favourite false p1)" }.count == 1)
        #expect(!session.hasFailures)
    }

    @Test("a refusal still rolls back, with its reason, and queues nothing")
    func refusalRollsBack() async throws {
        let (session, service, clock) = await outboxSession([makePost("p1", favourites: 3)])
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        service.failHeld(at: try #require(service.waitingIndex(.interaction, key: "p1")), with: RecordNotFound())
        await quiesce(session, service, clock)
        let failure = InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Record not found", isTransient: false)
        #expect(session.root.interaction("p1") == PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 0, failure: failure))
        #expect(session.store.outbox.isEmpty && clock.sleeperCount == 0 && clock.requestedSleeps.isEmpty)
        // … also when it comes after a failure for lack of a connection.
        let (queued, queuedService, queuedClock) = await deferredFavourite()
        queuedClock.advance(by: .seconds(2))
        await queuedService.waitForHeld(1)
        queuedService.failHeld(at: try #require(queuedService.waitingIndex(.interaction, key: "p1")), with: RecordNotFound())
        await quiesce(queued, queuedService, queuedClock)
        #expect(queued.root.interaction("p1") == PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 0, failure: failure))
        #expect(queued.store.outbox.isEmpty && queuedClock.sleeperCount == 0)
    }

    @Test("a later server copy that shows the queued value confirms it and ends the entry; one that does not keeps it")
    func copyConfirms() async throws {
        let (session, service, clock) = await deferredFavourite()
        // A copy arrives (an edit the stream brings): the server still says "not favourited",
        // with a new count.
        session.apply(.edited(makePost("p1", text: "edited", favourites: 5)))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p1")?.withoutReasons == PostInteraction(
            favourited: true, favouritesCount: 6, reblogged: false, reblogsCount: 0, pending: [.favourite], queued: [.favourite]))
        #expect(session.store.outbox == [OutboxEntry(postID: "p1", kind: .favourite, value: true)])
        #expect(clock.sleeperCount == 1)
        // A later one shows it favourited (the favourite had landed after all).
        session.apply(.edited(makePost("p1", text: "edited again", favourited: true, favourites: 6)))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p1") == PostInteraction(favourited: true, favouritesCount: 6, reblogged: false, reblogsCount: 0))
        #expect(session.store.outbox.isEmpty && clock.sleeperCount == 0 && !session.hasFailures)
        clock.advance(by: .seconds(120))
        await quiesce(session, service, clock)
        #expect(service.asked.filter { $0 == "interaction(favourite true p1)" }.count == 1)
    }

    @Test("observers are told each change of the outbox, in order, with the whole outbox")
    func observed() async throws {
        let (session, service, clock) = await outboxSession([makePost("p1"), makePost("p2")])
        let recorder = OutboxRecorder(session.store)
        let p1 = OutboxEntry(postID: "p1", kind: .favourite, value: true)
        let p2 = OutboxEntry(postID: "p2", kind: .reblog, value: true)
        #expect(session.root.toggle(.reblog, row: .post("p2")))
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(2)
        // Failing for lack of a connection changes nothing the outbox holds.
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        // Changing one's mind while a request is out changes the value wanted.
        #expect(session.root.toggle(.reblog, row: .post("p2")))
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p2")))
        await quiesce(session, service, clock)
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p2")))
        await quiesce(session, service, clock)
        #expect(session.retry())
        await service.waitForHeld(1)
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        let p2Undo = OutboxEntry(postID: "p2", kind: .reblog, value: false)
        #expect(recorder.values == [[p2], [p1, p2], [p1, p2Undo], [p1]] + [[]])
    }

    @Test("restore(outbox:) at start sends each entry once, by id, and rows show it pending when the posts arrive")
    func restore() async throws {
        // The server's p1, p2 (5 favourites) and p3 (2 boosts, bookmarked).
        var p3 = makePost("p3", reblogs: 2)
        p3.bookmarked = true
        let service = GatedServer(posts: [makePost("p1"), makePost("p2", favourites: 5), p3])
        service.hold(.page, .interaction)
        let clock = ManualClock()
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: clock)
        let recorder = OutboxRecorder(session.store)
        let saved = [
            OutboxEntry(postID: "p3", kind: .reblog, value: true),
            OutboxEntry(postID: "p2", kind: .favourite, value: false),
            OutboxEntry(postID: "p3", kind: .bookmark, value: false),
            OutboxEntry(postID: "p2", kind: .favourite, value: true),  // the later entry wins
        ]
        session.store.restore(outbox: saved)
        let expected = [saved[3], saved[0], saved[2]]
        #expect(session.store.outbox == expected)
        #expect(recorder.values.last == expected)
        await service.waitForHeld(3)
        await quiesce(session, service, clock)
        #expect(Set(service.asked) == ["interaction(favourite true p2)", "interaction(reblog true p3)", "interaction(bookmark false p3)"] && service.calls.count == 3)
        // Nothing shows them yet: the store does not know the posts.
        #expect(session.store.post("p2") == nil && session.store.interaction("p2") == nil)
        // The first page arrives while the requests are out: every row shows the saved wishes.
        session.root.appeared()
        await service.waitForHeld(4)
        service.answer(at: try #require(service.waitingIndex(.page)))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p2") == PostInteraction(favourited: true, favouritesCount: 6, reblogged: false, reblogsCount: 0, pending: [.favourite]))
        #expect(session.root.interaction("p3") == PostInteraction(
            favourited: false, favouritesCount: 0, reblogged: true, reblogsCount: 3, bookmarked: false, pending: [.reblog, .bookmark]))
        // The server answers; everything settles, with no request sent twice.
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p2")))
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p3")))
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p3")))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p2") == PostInteraction(favourited: true, favouritesCount: 6, reblogged: false, reblogsCount: 0))
        #expect(session.root.interaction("p3") == PostInteraction(favourited: false, favouritesCount: 0, reblogged: true, reblogsCount: 3))
        #expect(session.store.outbox.isEmpty && recorder.values.last == [])
        #expect(service.calls.count == 4)
    }

    @Test("a restored entry that fails for lack of a connection is queued like any other, and shows so once its post arrives")
    func restoreQueued() async throws {
        let service = GatedServer(posts: [makePost("p1", favourites: 3)])
        service.hold(.page, .interaction)
        let clock = ManualClock()
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: clock)
        session.store.restore(outbox: [OutboxEntry(postID: "p1", kind: .favourite, value: true)])
        await service.waitForHeld(1)
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        #expect(session.store.outbox == [OutboxEntry(postID: "p1", kind: .favourite, value: true)] && clock.sleeperCount == 1)
        session.root.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p1")?.withoutReasons == queuedFavourite)
        clock.advance(by: .seconds(2))
        await service.waitForHeld(1)
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        await quiesce(session, service, clock)
        #expect(session.root.interaction("p1") == PostInteraction(favourited: true, favouritesCount: 4, reblogged: false, reblogsCount: 0))
        #expect(session.store.outbox.isEmpty)
    }

    @Test("a restored entry the server refuses, for a post never seen, is dropped without a trace")
    func restoreRefused() async throws {
        // The server has no post "gone".
        let service = GatedServer()
        service.hold(.interaction)
        let clock = ManualClock()
        let session = FeedSession(service: service, clock: .fixed(testNow), retryClock: clock)
        session.store.restore(outbox: [OutboxEntry(postID: "gone", kind: .bookmark, value: true)])
        await service.waitForHeld(1)
        service.answer(at: 0)
        await quiesce(session, service, clock)
        #expect(session.store.outbox.isEmpty && session.store.state("gone") == nil && session.store.count == 0)
        #expect(!session.hasFailures)
    }

    @Test("the cache never forgets a post with something in the outbox; it does once that settles")
    func evictionKeepsOutboxPosts() async throws {
        let (session, service, clock) = await outboxSession(makePosts(3), cacheCapacity: 0)
        for tag in ["x", "z", "zz"] { service.serve([makePost("\(tag)1")], on: .tag(tag)) }
        service.answer(.tag)  // each hashtag list's header
        service.update { $0.add([makePost("y1")]) }
        // x1, shown by a feed that is then closed, queued for lack of a connection.
        session.navigator.push(.list(.feed(.tag("x"))))
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(tag:x, after: nil)"])
        service.answer(at: 0)
        await quiesce(session, service, clock)
        #expect(session.navigator.top.list?.toggle(.favourite, row: .post("x1")) == true)
        await service.waitForHeld(1)
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "x1")))
        await quiesce(session, service, clock)
        #expect(session.navigator.pop())
        // y1, restored and never shown, queued too.
        session.store.restore(outbox: [OutboxEntry(postID: "y1", kind: .reblog, value: true)])
        await service.waitForHeld(1)
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "y1")))
        await quiesce(session, service, clock)
        // Other feeds come and go; the cache holds nothing that nothing shows, but these two.
        for tag in ["z", "zz"] {
            session.navigator.push(.list(.feed(.tag(tag))))
            await service.waitForHeld(1)
            #expect(service.waiting.map(\.description) == ["page(tag:\(tag), after: nil)"])
            service.answer(at: 0)
            await quiesce(session, service, clock)
            #expect(session.navigator.pop())
        }
        #expect(session.store.post("z1") == nil && session.store.post("zz1") == nil)
        #expect(session.store.post("x1") != nil && session.store.state("y1") != nil)
        #expect(session.store.outbox == [
            OutboxEntry(postID: "x1", kind: .favourite, value: true), OutboxEntry(postID: "y1", kind: .reblog, value: true),
        ])
        // Sent and confirmed: both are forgotten like any other post nothing shows.
        #expect(session.retry())
        await service.waitForHeld(2)
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "x1")))
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "y1")))
        await quiesce(session, service, clock)
        #expect(session.store.outbox.isEmpty)
        #expect(session.store.state("x1") == nil && session.store.state("y1") == nil)
        #expect(session.store.count == 3)
    }

    @Test("finish waits for requests in flight up to its limit, on the retry clock, and returns what is left to save")
    func finish() async throws {
        let (session, service, clock) = await outboxSession([makePost("p1"), makePost("p2"), makePost("p3")])
        // Nothing out: at once, nothing to save.
        #expect(await session.finish().isEmpty)
        #expect(clock.requestedSleeps.isEmpty)
        // p2's boost queued, p1's favourite out: finish waits for the favourite's answer.
        #expect(session.root.toggle(.reblog, row: .post("p2")))
        await service.waitForHeld(1)
        service.lose(at: try #require(service.waitingIndex(.interaction, key: "p2")))
        await quiesce(session, service, clock)
        #expect(session.root.toggle(.favourite, row: .post("p1")))
        await service.waitForHeld(1)
        let finished = Locked(false)
        let finishing = Task { @MainActor in
            defer { finished.withLock { $0 = true } }
            return await session.finish()
        }
        await clock.waitForSleepers(2)  // the boost's re-send, and finish's limit
        #expect(clock.requestedSleeps == [.seconds(2), .seconds(2)])
        #expect(!finished.withLock { $0 })
        service.answer(at: try #require(service.waitingIndex(.interaction, key: "p1")))
        #expect(await finishing.value == [OutboxEntry(postID: "p2", kind: .reblog, value: true)])
        // The limit passes with p3's favourite still out: it is saved, and not cancelled.
        #expect(session.root.toggle(.favourite, row: .post("p3")))
        await service.waitForHeld(1)
        let limited = Task { @MainActor in await session.finish(waitingAtMost: .seconds(1)) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        #expect(await limited.value == [OutboxEntry(postID: "p2", kind: .reblog, value: true), OutboxEntry(postID: "p3", kind: .favourite, value: true)])
        #expect(service.waiting.map(\.description) == ["interaction(favourite true p3)"])
    }
}
