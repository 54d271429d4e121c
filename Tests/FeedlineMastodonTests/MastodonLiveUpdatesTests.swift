@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Live updates driving a session through a scripted user stream on a manual clock: what the
/// session shows, what it applies, when it catches up, and when it connects again. No test
/// sleeps: each waits for the thing it expects (a connection opened, a sleep begun on the clock,
/// a state shown), and the clock only moves when a test moves it.
@MainActor
@Suite("Live updates", .timeLimit(.minutes(10)))
struct MastodonLiveUpdatesTests {
    /// Numbers apart from each other, so each timer is told apart: the poll (600 s) never fires
    /// while a test moves the clock through backoffs (1, 2, 4, 8 s) or a stable connection (60 s).
    static let policy: StreamPolicy = {
        var policy = StreamPolicy()
        policy.firstBackoff = .seconds(1)
        policy.maximumBackoff = .seconds(8)
        policy.pollInterval = .seconds(600)
        policy.stableAfter = .seconds(60)
        return policy
    }()

    static let hostA = URL(string: "https://streaming.example.social/api/v1/streaming/user")!

    /// A session whose home timeline shows statuses 5…1, loaded.
    private func session() async -> (FeedSession, GatedServer) {
        let service = catchUpServer(posts: (1...5).reversed().map { Post(Build.status($0)) })
        let session = FeedSession(service: service, clock: .fixed(Build.epoch))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    /// Every stream state the session shows, from now on (the current one first).
    private func record(_ session: FeedSession) -> (Subscription, () -> [StreamState]) {
        let shown = Locked<[StreamState]>([])
        let subscription = session.streamState.observe { state in shown.withLock { $0.append(state) } }
        return (subscription, { shown.withLock { $0 } })
    }

    @Test("the stream opens; posts, deletes, edits and notifications reach the session in order; skipped payloads are kept")
    func events() async throws {
        let (session, service) = await session()
        session.navigator.push(.list(.notifications))
        await session.settle()
        guard case .list(let notifications) = session.navigator.top else {
            Issue.record("expected the notifications list on top")
            return
        }
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        #expect(session.streamState.value == .connecting)
        await stream.waitForOpens(1)
        #expect(stream.opened == [.sameHost])
        stream.send(.opened, on: 0)
        await firstValue(of: session.streamState) { $0 == .live }
        await session.settle()
        #expect(service.catchUps == ["newer(home)"], "the first connection catches up what came since the first page")

        let rowsBefore = session.root.rows.map(\.id)
        let favourite = Mastodon.Notification(id: "n1", type: "favourite", createdAt: Build.epoch, account: Build.account("bo"), status: Build.status(2))
        var decoder = MastodonStreamDecoder()
        let notified = decoder.decode(ServerSentEvent(type: "notification", data: String(decoding: try Mastodon.makeEncoder().encode(favourite), as: UTF8.self)))
        guard case .event(let notification) = notified else {
            Issue.record("a notification decodes: \(notified)")
            return
        }
        var edited = Build.status(4)
        edited.content = "<p>post 4, edited</p>"
        edited.editedAt = Build.epoch.addingTimeInterval(3600)
        stream.send(
            .event(.posted(Post(Build.status(6)), in: .home)), .skipped(type: "update", reason: "created_at: missing"),
            .event(.edited(Post(edited))), .event(notification), .event(.deleted("3")),
            on: 0
        )
        await firstValue(of: session.root.snapshot) { !$0.rows.contains(.post("3")) }
        #expect(session.root.rows.map(\.id) == rowsBefore.filter { $0 != .post("3") }, "nothing moves but the deleted row")
        #expect(session.root.status.waiting == 1, "the new post waits above")
        #expect(notifications.status.waiting == 1, "the notification waits above its list")
        #expect(session.root.rows[id: .post("4")]?.post?.text == "post 4, edited")
        #expect(live.skipped == ["update: created_at: missing"])
        session.root.showWaiting()
        #expect(session.root.rows.first?.id == .post("6"))
        #expect(service.catchUps == ["newer(home)"], "events need no request")
        live.stop()
        await stream.waitForClose(0)
    }

    @Test("drops wait 1, 2, 4 s on the clock, climbing while connections die young; a connection that lived 60 s starts over; every connection catches up")
    func reconnects() async {
        let (session, service) = await session()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let (subscription, shown) = record(session)
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.send(.opened, on: 0)
        await firstValue(of: session.streamState) { $0 == .live }

        // Dropped at once: attempt 1 after 1 s. The clock has the backoff and the poll asleep on it.
        stream.send(.ended(.closed), on: 0)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
        await clock.waitForSleepers(2)
        #expect(stream.opened.count == 1, "nothing reconnects before the clock moves")
        clock.advance(by: .seconds(1))
        await stream.waitForOpens(2)
        // That attempt fails before opening: attempt 2 after 2 s.
        stream.send(.ended(.failed), on: 1)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(2), attempt: 2) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        await stream.waitForOpens(3)
        stream.send(.opened, on: 2)
        await firstValue(of: session.streamState) { $0 == .live }
        // Dies young again: attempt 3 after 4 s.
        stream.send(.ended(.closed), on: 2)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(4), attempt: 3) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(4))
        await stream.waitForOpens(4)
        stream.send(.opened, on: 3)
        await firstValue(of: session.streamState) { $0 == .live }
        // Lives 60 s on the clock, then drops: the waits start over at 1 s.
        clock.advance(by: .seconds(60))
        stream.send(.ended(.closed), on: 3)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
        await clock.waitForSleepers(2)
        // Finishing without an end signal counts as a drop too.
        clock.advance(by: .seconds(1))
        await stream.waitForOpens(5)
        stream.send(.opened, on: 4)
        await firstValue(of: session.streamState) { $0 == .live }
        stream.finish(4)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(2), attempt: 2) }
        await clock.waitForSleepers(2)
        await session.settle()

        #expect(
            shown() == [
                .off, .connecting, .live, .reconnecting(after: .seconds(1), attempt: 1), .reconnecting(after: .seconds(2), attempt: 2),
                .live, .reconnecting(after: .seconds(4), attempt: 3), .live, .reconnecting(after: .seconds(1), attempt: 1), .live,
                .reconnecting(after: .seconds(2), attempt: 2),
            ]
        )
        #expect(clock.requestedSleeps.filter { $0 != .seconds(600) } == [1, 2, 4, 1, 2].map { Duration.seconds($0) })
        #expect(service.catchUps == Array(repeating: "newer(home)", count: 4), "one catch-up per connection that opened")
        #expect(stream.opened == Array(repeating: .sameHost, count: 5))
        subscription.cancel()
        live.stop()
    }

    @Test("a 404 here asks where the stream lives and connects there; a 404 there too polls")
    func movedElsewhere() async {
        let (session, _) = await session()
        let stream = ScriptedUserStream()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: ManualClock(), policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.answerDiscovery(.success(Self.hostA))
        stream.send(.ended(.movedElsewhere), on: 0)
        await stream.waitForOpens(2)
        #expect(stream.opened == [.sameHost, .announced(Self.hostA)])
        #expect(session.streamState.value == .connecting, "still the first connection")
        stream.send(.ended(.movedElsewhere), on: 1)
        await firstValue(of: session.streamState) { $0 == .polling(every: .seconds(600)) }
        #expect(stream.discoveries == 1)
        live.stop()
    }

    @Test("asking where the stream lives: a transient failure waits and tries again; nothing usable polls")
    func discovery() async {
        let (session, _) = await session()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.answerDiscovery(.failure(.serverUnavailable(status: 503)))
        stream.send(.ended(.movedElsewhere), on: 0)
        await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        await stream.waitForOpens(2)
        stream.answerDiscovery(.failure(.notFound(serverMessage: nil)))
        stream.send(.ended(.movedElsewhere), on: 1)
        await firstValue(of: session.streamState) { $0 == .polling(every: .seconds(600)) }
        #expect(stream.discoveries == 2)
        #expect(stream.opened == [.sameHost, .sameHost])
        live.stop()
    }

    @Test("a server that refuses the stream is polled: every list on the stack catches up each interval on the clock")
    func refusedPolls() async {
        let (session, service) = await session()
        session.navigator.push(.list(.feed(.tag("swift"))))
        await session.settle()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.send(.ended(.refused), on: 0)
        await firstValue(of: session.streamState) { $0 == .polling(every: .seconds(600)) }
        await clock.waitForSleepers(1)
        #expect(service.catchUps.isEmpty, "nothing before the interval has passed")
        for round in 1...2 {
            clock.advance(by: .seconds(600))
            // The poll is armed again once this one has asked its lists to catch up.
            await clock.waitForSleepers(1)
            await session.settle()
            // The two lists ask at once: in either order.
            #expect(service.catchUps.sorted() == Array(repeating: ["newer(home)", "newer(tag:swift)"], count: round).flatMap { $0 }.sorted())
        }
        #expect(stream.opened.count == 1, "a refused stream is not asked again")
        live.stop()
    }

    @Test("a stream that refuses the token (401) says so at once and nothing more is asked with it: no reconnect, no poll")
    func refusedToken() async {
        let (session, service) = await session()
        let (subscription, shown) = record(session)
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.send(.ended(.unauthorized), on: 0)
        let refused = StreamState.refused(message: ScriptedUserStream.unauthorizedMessage)
        await firstValue(of: session.streamState) { $0 == refused }
        #expect(shown() == [.off, .connecting, refused])
        #expect(clock.sleeperCount == 0, "no backoff and no poll timer")
        clock.advance(by: .seconds(3600))
        await session.settle()
        #expect(service.catchUps.isEmpty)
        #expect(stream.opened.count == 1)
        live.stop()
        #expect(session.streamState.value == .off)
        subscription.cancel()
    }

    @Test("asking where the stream lives answers 401: the server's sentence, and nothing more is asked")
    func refusedTokenWhileDiscovering() async {
        let (session, service) = await session()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        let error = MastodonHTTPError.unauthorized(serverMessage: "The access token was revoked", sentToken: true, server: "example.social")
        stream.answerDiscovery(.failure(error))
        live.start()
        await stream.waitForOpens(1)
        stream.send(.ended(.movedElsewhere), on: 0)
        await firstValue(of: session.streamState) { $0 == .refused(message: error.description) }
        #expect(error.description.contains("(\"The access token was revoked\")"))
        #expect(clock.sleeperCount == 0)
        #expect(service.catchUps.isEmpty)
        #expect(stream.opened.count == 1)
        live.stop()
    }

    @Test("without a token it polls from the start and never opens the stream")
    func signedOut() async {
        let (session, service) = await session()
        let stream = ScriptedUserStream(signedIn: false)
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        #expect(session.streamState.value == .polling(every: .seconds(600)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(600))
        await clock.waitForSleepers(1)
        await session.settle()
        #expect(service.catchUps == ["newer(home)"])
        #expect(stream.opened.isEmpty)
        live.stop()
    }

    @Test("while streaming, the lists the stream does not feed are polled and the ones it feeds are not")
    func pollsUnstreamedLists() async {
        let (session, service) = await session()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        await stream.waitForOpens(1)
        stream.send(.opened, on: 0)
        await firstValue(of: session.streamState) { $0 == .live }
        session.navigator.push(.list(.feed(.tag("swift"))))
        await session.settle()
        #expect(service.catchUps == ["newer(home)"])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(600))
        await clock.waitForSleepers(1)
        await session.settle()
        #expect(service.catchUps == ["newer(home)", "newer(tag:swift)"])
        #expect(session.streamState.value == .live)
        live.stop()
    }

    @Test("stop closes the connection, cancels the clock's waits and shows off; start starts again")
    func stopAndStart() async {
        let (session, _) = await session()
        let stream = ScriptedUserStream()
        let clock = ManualClock()
        let live = MastodonLiveUpdates(client: stream.client, session: session, clock: clock, policy: Self.policy)
        live.start()
        live.start()
        await stream.waitForOpens(1)
        stream.send(.opened, on: 0)
        await firstValue(of: session.streamState) { $0 == .live }
        await clock.waitForSleepers(1)
        live.stop()
        #expect(session.streamState.value == .off)
        await stream.waitForClose(0)
        #expect(clock.sleeperCount == 0, "the poll is cancelled")
        live.start()
        await stream.waitForOpens(2)
        #expect(stream.opened.count == 2, "a second start while running opened nothing more")
        live.stop()
        await stream.waitForClose(1)
    }

    @Test("releasing it closes the connection: running work does not keep it alive")
    func released() async {
        let (session, _) = await session()
        let stream = ScriptedUserStream()
        var live: MastodonLiveUpdates? = MastodonLiveUpdates(client: stream.client, session: session, clock: ManualClock(), policy: Self.policy)
        live?.start()
        await stream.waitForOpens(1)
        stream.send(.opened, on: 0)
        await firstValue(of: session.streamState) { $0 == .live }
        weak let released = live
        live = nil
        #expect(released == nil)
        await stream.waitForClose(0)
    }
}
