@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Live updates over real HTTP: the fake server streams server-sent events over a chunked body,
/// drops the connection, and streams again; the client applies what comes, reconnects after its
/// backoff and catches up. Backoffs and polls sleep on a manual clock the test moves, and every
/// wait is for something to happen (a connection, a state shown, a row gone) — never for time to
/// pass — so a slow machine is never a failure.
@MainActor
@Suite("HTTP streaming", .timeLimit(.minutes(10)))
struct HTTPStreamingTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    /// The requests for the user stream.
    static func streamRequests(_ fake: FakeMastodon) -> [FakeMastodon.Recorded] {
        fake.requests.filter { $0.path == FakeMastodon.userStreamPath }
    }

    /// A session on `service` whose root list (`root`) has loaded its first page.
    static func session(_ service: MastodonHTTPService, root: Feed = .home) async -> FeedSession {
        let session = FeedSession(service: service, clock: .fixed(now), root: root)
        session.root.appeared()
        await session.settle()
        return session
    }

    /// Live updates for `session` from `service` with the default numbers, except a connection
    /// counts as dead only after 10 silent minutes (the fake sends heartbeats only when a test
    /// does; a busy machine must not make a test's pause look like a dead connection).
    static func liveUpdates(
        _ service: MastodonHTTPService, _ session: FeedSession, clock: ManualClock, idleTimeout: Duration = .seconds(600)
    ) -> MastodonLiveUpdates {
        var policy = StreamPolicy()
        policy.idleTimeout = idleTimeout
        return MastodonLiveUpdates(client: .live(service, idleTimeout: idleTimeout), session: session, clock: clock, policy: policy)
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try Mastodon.makeEncoder().encode(value), as: UTF8.self)
    }

    @Test("new posts wait above, deletes remove, edits update, notifications wait; a dropped connection reconnects after 1 s and catches up what it missed")
    func streamDropAndCatchUp() async throws {
        let statuses = try FixtureStatuses.timeline()
        let arrivals = Array(try FixtureStatuses.arrivals().reversed())  // oldest first
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.serveStream()
            let service = try makeService(server)
            let session = await Self.session(service)
            session.navigator.push(.list(.notifications))
            await session.settle()
            guard case .list(let notifications) = session.navigator.top else {
                Issue.record("expected the notifications list on top")
                return
            }
            let timeline = session.root
            let clock = ManualClock()
            let live = Self.liveUpdates(service, session, clock: clock)
            live.start()
            await firstValue(of: session.streamState) { $0 == .live }
            await session.settle()
            let rowsBefore = timeline.rows.map(\.id)

            // A new post, its bytes cut into 7-byte chunks with heartbeats around: it waits above.
            fake.post([arrivals[0]])
            fake.streamBytes(Array(":thump\n".utf8))
            fake.streamStatus(arrivals[0], chunkSize: 7)
            fake.streamBytes(Array(":thump\n".utf8))
            await firstValue(of: timeline.snapshot) { $0.status.waiting == 1 }
            #expect(timeline.rows.map(\.id) == rowsBefore, "nothing moves under the reader")

            // An edit, then a delete (as plain text, as Mastodon sends it).
            let originals = statuses.filter { $0.reblog == nil }
            var edited = originals[1]
            edited.content = "<p>Edited over the stream.</p>"
            edited.editedAt = Self.now
            fake.streamStatus(edited, edit: true)
            let deleted = originals[2].id
            fake.streamEvent("delete", deleted)
            await firstValue(of: timeline.snapshot) { !$0.rows.contains(.post(PostID(deleted))) }
            #expect(timeline.rows[id: .post(PostID(edited.id))]?.post?.text == "Edited over the stream.")
            #expect(timeline.rows.map(\.id) == rowsBefore.filter { $0 != .post(PostID(deleted)) })

            // A notification waits above the notifications list.
            let notification = Mastodon.Notification(
                id: "990001", type: "favourite", createdAt: Self.now, account: originals[3].account, status: originals[0]
            )
            fake.streamEvent("notification", try Self.json(notification))
            await firstValue(of: notifications.snapshot) { $0.status.waiting == 1 }

            // The network breaks: reconnecting after 1 s on the clock; two posts come meanwhile.
            fake.dropStreams(abruptly: true)
            await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
            fake.post([arrivals[2], arrivals[1]])  // newest first
            // The backoff and the poll are asleep on the clock; nothing reconnects before it moves.
            await clock.waitForSleepers(2)
            #expect(fake.streamsOpened == 1)
            clock.advance(by: .seconds(1))
            await fake.waitForStreams(2)
            await firstValue(of: session.streamState) { $0 == .live }
            await session.settle()

            // The catch-up asked for what is newer than the post that came on the stream.
            #expect(timeline.status.waiting == 3)
            timeline.showWaiting()
            #expect(Array(timeline.rows.prefix(3).map(\.id)) == [arrivals[2], arrivals[1], arrivals[0]].map { RowID.post(PostID($0.id)) })
            let catchUps = fake.requests.filter { $0.path == "/api/v1/timelines/home" && $0.query["since_id"] != nil }
            #expect(catchUps.map { $0.query["since_id"] } == [rowsBefore.first.flatMap(Self.postID), arrivals[0].id])
            // Both connections carried the token, and asked for an event stream.
            let streams = Self.streamRequests(fake)
            #expect(streams.count == 2 && streams.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
            live.stop()
            #expect(session.streamState.value == .off)
            expectNoToken(session.streamState.value)
        }
    }

    static func postID(_ row: RowID) -> String? {
        if case .post(let id) = row { id.rawValue } else { nil }
    }

    @Test("connecting fails with 503 twice: the waits grow, 1 s then 2 s, then it is live")
    func growingBackoff() async throws {
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.serveStream()
            fake.enqueue(.init(method: "GET", pathPrefix: FakeMastodon.userStreamPath, status: 503, body: "", times: 2))
            let service = try makeService(server)
            let session = await Self.session(service)
            let clock = ManualClock()
            let shown = Locked<[StreamState]>([])
            let subscription = session.streamState.observe { state in shown.withLock { $0.append(state) } }
            let live = Self.liveUpdates(service, session, clock: clock)
            live.start()
            await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(1))
            await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(2), attempt: 2) }
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(2))
            await firstValue(of: session.streamState) { $0 == .live }
            #expect(
                shown.withLock { $0 } == [
                    .off, .connecting, .reconnecting(after: .seconds(1), attempt: 1), .reconnecting(after: .seconds(2), attempt: 2), .live,
                ]
            )
            #expect(Self.streamRequests(fake).count == 3)
            subscription.cancel()
            live.stop()
        }
    }

    @Test("a server without a stream (404, no description): every list is polled every 60 s on the clock")
    func noStreamPolls() async throws {
        let statuses = try FixtureStatuses.timeline()
        let arrival = try #require(try FixtureStatuses.arrivals().last)
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            let session = await Self.session(service)
            let clock = ManualClock()
            let live = Self.liveUpdates(service, session, clock: clock)
            live.start()
            await firstValue(of: session.streamState) { $0 == .polling(every: .seconds(60)) }
            #expect(
                fake.requests.map(\.path).filter { $0.contains("stream") || $0.contains("instance") }
                    == [FakeMastodon.userStreamPath, "/api/v2/instance", "/api/v1/instance"]
            )
            fake.post([arrival])
            await clock.waitForSleepers(1)
            #expect(session.root.status.waiting == 0)
            clock.advance(by: .seconds(60))
            await clock.waitForSleepers(1)
            await session.settle()
            #expect(session.root.status.waiting == 1)
            #expect(Self.streamRequests(fake).count == 1, "a server without a stream is not asked again")
            live.stop()
        }
    }

    @Test("no token on the public timeline: polls without asking for the stream (Mastodon 4.2 streams only to signed-in users)")
    func signedOutPolls() async throws {
        try await withFakeServer(statuses: try FixtureStatuses.timeline(), token: nil) { fake, server in
            fake.serveStream()
            let service = try makeService(server, token: nil)
            let session = await Self.session(service, root: .public)
            let clock = ManualClock()
            let live = Self.liveUpdates(service, session, clock: clock)
            live.start()
            #expect(session.streamState.value == .polling(every: .seconds(60)))
            await clock.waitForSleepers(1)
            let before = fake.requests.count
            clock.advance(by: .seconds(60))
            await clock.waitForSleepers(1)
            await session.settle()
            let polled = fake.requests.dropFirst(before)
            #expect(polled.map(\.path) == ["/api/v1/timelines/public"] && polled.first?.query["since_id"] != nil)
            #expect(Self.streamRequests(fake).isEmpty)
            live.stop()
        }
    }

    @Test(
        "a redirect to another host is not followed; the streaming host the server's description names is used, with the token",
        arguments: ["v2", "v1"]
    )
    func announcedHost(description version: String) async throws {
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.serveStream()
            // The same fake under another name: another origin to the client.
            let elsewhere = fake.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            fake.enqueue(
                .init(method: "GET", pathPrefix: FakeMastodon.userStreamPath, status: 302, headers: ["Location": elsewhere + FakeMastodon.userStreamPath], body: "")
            )
            let websocketBase = elsewhere.replacingOccurrences(of: "http://", with: "ws://")
            if version == "v2" {
                fake.describe(v2: Mastodon.Instance(streaming: websocketBase))
            } else {
                // A server older than Mastodon 4.0: no v2 description, v1 names the host.
                fake.describe(v2: nil, v1: Mastodon.Instance(streamingAPI: websocketBase))
            }
            let service = try makeService(server)
            let session = await Self.session(service)
            let live = Self.liveUpdates(service, session, clock: ManualClock())
            live.start()
            await firstValue(of: session.streamState) { $0 == .live }
            let streams = Self.streamRequests(fake)
            let port = fake.baseURL.split(separator: ":").last.map(String.init) ?? ""
            #expect(streams.map(\.host) == ["127.0.0.1:\(port)", "localhost:\(port)"], "the redirect was not followed; the named host was asked")
            #expect(streams.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
            let asked = fake.requests.map(\.path).filter { $0.contains("instance") }
            #expect(asked == (version == "v2" ? ["/api/v2/instance"] : ["/api/v2/instance", "/api/v1/instance"]))
            live.stop()
        }
    }

    @Test("a connection that goes silent past the idle timeout counts as dropped and reconnects")
    func idleTimeout() async throws {
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.serveStream()
            let service = try makeService(server)
            let session = await Self.session(service)
            let clock = ManualClock()
            // One silent second is enough here: the test waits for the drop, however long it takes.
            let live = Self.liveUpdates(service, session, clock: clock, idleTimeout: .seconds(1))
            live.start()
            // Live, then silent (only the opening `:)` came): dropped. (On a machine so busy that
            // even the answer's headers take a second, the attempt fails before opening instead —
            // the same wait for the same next attempt.)
            await firstValue(of: session.streamState) { $0 == .reconnecting(after: .seconds(1), attempt: 1) }
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(1))
            await fake.waitForStreams(2)
            live.stop()
        }
    }

    @Test("a token the server refuses: the stream's 401 is said at once, in the HTTP layer's words, and nothing more is asked with it")
    func refusedToken() async throws {
        try await withFakeServer(statuses: try FixtureStatuses.timeline()) { fake, server in
            fake.serveStream()
            let service = try makeService(server, token: "not-\(secretToken)")
            // No list loads: every request the fake sees comes from live updates.
            let session = FeedSession(service: service, clock: .fixed(Self.now))
            let clock = ManualClock()
            let live = Self.liveUpdates(service, session, clock: clock)
            live.start()
            let sentence = "The server did not accept the access token. Run `feedline login \(server.url.absoluteString)` to sign in again (or check FEEDLINE_TOKEN)."
            await firstValue(of: session.streamState) { $0 == .refused(message: sentence) }
            #expect(clock.sleeperCount == 0, "no backoff, no poll timer")
            clock.advance(by: .seconds(3600))
            await session.settle()
            #expect(fake.requests.map(\.path) == [FakeMastodon.userStreamPath])
            live.stop()
        }
    }
}
