@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Mastodon's markers (issue 14): the HTTP calls, a conflict sent again on the clock, and the
/// binary with a state directory against the fake server — another device's marker is where a
/// start begins, what is read is saved to the marker at quit, and a further local position is
/// never moved back by an older marker.
@MainActor
@Suite("Markers and the outbox against a Mastodon server", .timeLimit(.minutes(10)))
struct HTTPMarkerTests {
    @Test("markers are read for both timelines and saved form-encoded; a conflict is sent again after a second")
    func readAndSave() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server)
            #expect(try await service.markers(for: MarkerTimeline.allCases).isEmpty, "no marker yet: {}")
            fake.setMarker("home", to: "109000", at: FakeMastodon.markerTime)
            fake.setMarker("notifications", to: "77")
            let found = try await service.markers(for: MarkerTimeline.allCases)
            #expect(found[.home] == ServerMarker(id: "109000", updatedAt: FakeMastodon.markerTime))
            #expect(found[.notifications]?.id == "77")
            let read = try #require(fake.requests.last)
            #expect(read.method == "GET" && read.path == "/api/v1/markers")
            #expect(read.queryItems == ["timeline[]=home", "timeline[]=notifications"])
            #expect(read.authorization == "Bearer \(secretToken)")

            // A save that meets a conflict is sent again on the sync's clock.
            let clock = ManualClock()
            let sync = MarkerSync(service: service, clock: clock)
            _ = try await sync.read()
            fake.fail("/api/v1/markers", method: "POST", status: 409, error: "Conflict during update, please try again")
            let before = fake.requests.count
            sync.move(.home, to: "109500")
            await clock.waitForSleepers(1)
            clock.advance(by: MarkerState.interval)
            await fake.waitForRequests(before + 1)
            await clock.waitForSleepers(1)
            #expect(clock.requestedSleeps.last == MarkerState.conflictDelay)
            #expect(fake.marker("home")?.lastReadID == "109000", "the conflict saved nothing")
            clock.advance(by: MarkerState.conflictDelay)
            await fake.waitForRequests(before + 2)
            await sync.settle()
            let saves = fake.requests.dropFirst(before).filter { $0.method == "POST" }
            #expect(saves.count == 2)
            #expect(saves.allSatisfy { $0.form == ["home[last_read_id]": "109500"] })
            #expect(fake.marker("home")?.lastReadID == "109500")
            #expect(sync.state[.home].saved == "109500")
        }
    }

    @Test("Mastodon's ids order as numbers of any length; anything else has no order")
    func idOrder() async throws {
        try await withFixtureServer { _, server in
            let service = try makeService(server)
            #expect(service.isNewer("117645532415752138", than: "99999999999999999", in: .home) == true)
            #expect(service.isNewer("99999999999999999", than: "117645532415752138", in: .home) == false)
            #expect(service.isNewer("0042", than: "41", in: .notifications) == true)
            #expect(service.isNewer("42", than: "42", in: .home) == false)
            #expect(service.isNewer("01HZX3", than: "42", in: .home) == nil)
            #expect(service.isNewer("", than: "42", in: .home) == nil)
        }
    }

    @Test("a server without markers (404) is a failure to read them, one sentence")
    func missing() async throws {
        try await withFixtureServer { fake, server in
            fake.fail("/api/v1/markers", status: 404, error: "Record not found")
            let sync = MarkerSync(service: try makeService(server))
            await #expect(throws: FeedFailure.self) { try await sync.read() }
        }
    }

    /// Runs `feedline` on the fake's home timeline with `--state directory` (`nil`: `--no-state`),
    /// sending `input`.
    private func run(_ fake: FakeMastodon, state directory: URL?, input: String) async throws -> (FeedlineProcess.Exit, String) {
        let state = directory.map { ["--state", $0.path] } ?? ["--no-state"]
        let arguments = ["--server", fake.baseURL, "--timeline", "home", "--no-stream"] + state
            + HTTPScriptedSessionTests.flags
        let child = try FeedlineProcess(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
        for line in input.split(separator: "\n") { child.send(String(line)) }
        child.closeInput()
        let exit = await child.finish()
        #expect(!exit.timedOut)
        #expect(exit.status == 0, "\(exit.stderr)")
        return (exit, String(decoding: child.stdout, as: UTF8.self))
    }

    /// The line of row `number` in a transcript, without its marker column and number (a saved
    /// copy not confirmed yet is marked `·`).
    private func row(_ number: Int, of transcript: some StringProtocol) -> String? {
        let prefix = String(repeating: " ", count: 3 - String(number).count) + "\(number)  "
        return transcript.split(separator: "\n").first { $0.dropFirst().hasPrefix(prefix) && " ·".contains($0.first ?? "x") }
            .map { String($0.dropFirst(4)) }
    }

    @Test("the binary starts at another device's marker, saves what it read at quit, and an older marker never moves a further position back")
    func binary() async throws {
        try await withFixtureServer { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let directory = scratch.url
            let timeline = fake.state.withLock { $0.timeline }
            let (_, plain) = try await run(fake, state: nil, input: "")
            #expect(fake.requests.allSatisfy { $0.path != "/api/v1/markers" }, "--no-state keeps no markers either")
            let fifth = try #require(row(5, of: plain))

            // Another device read up to the fifth post: the first start begins there.
            fake.setMarker("home", to: timeline[4].id)
            let (firstExit, first) = try await run(fake, state: directory, input: "newer\n")
            #expect(firstExit.stderr.isEmpty, "\(first)")
            let beforeNewer = try #require(first.components(separatedBy: "home> newer").first)
            #expect(row(1, of: beforeNewer) == fifth, "\(first)")
            #expect(beforeNewer.contains("4 newer posts above; newer shows them."))
            // newer showed the four on top: the newest is read, and saved to the marker at quit.
            #expect(fake.marker("home")?.lastReadID == timeline[0].id)
            // Saved at quit (or when a 10 s window ended, on a slow machine): only ever the newest.
            let saves = fake.requests.filter { $0.method == "POST" && $0.path == "/api/v1/markers" }
            #expect(!saves.isEmpty && saves.allSatisfy { $0.form == ["home[last_read_id]": timeline[0].id] }, "\(saves)")

            // Another device is further behind: the local position wins and the marker moves on.
            // (A marker further on than the position is never saved over: MarkerSyncTests.)
            fake.setMarker("home", to: timeline[10].id)
            let (_, second) = try await run(fake, state: directory, input: "")
            #expect(row(1, of: second) == row(1, of: plain), "\(second)")
            #expect(fake.marker("home")?.lastReadID == timeline[0].id)
        }
    }

    @Test("the notifications' position is read, kept across runs and saved to its marker; an older marker never moves it back")
    func notifications() async throws {
        try await withFixtureServer { fake, server in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let directory = scratch.url
            let newest = try #require(try await walkNotifications(try makeService(server)).first?.items.first?.newestID)
            // Reading the notifications moves their position to the newest shown, saved at quit.
            _ = try await run(fake, state: directory, input: "notifications\n")
            #expect(fake.marker("notifications")?.lastReadID == newest.rawValue)
            // Another device saved an older one long ago: the kept position wins and goes back up.
            fake.setMarker("notifications", to: "1", at: Date(timeIntervalSince1970: 0))
            let before = fake.requests.count
            _ = try await run(fake, state: directory, input: "")
            #expect(fake.marker("notifications")?.lastReadID == newest.rawValue)
            let saves = fake.requests.dropFirst(before).filter { $0.method == "POST" && $0.path == "/api/v1/markers" }
            #expect(saves.map(\.form) == [["notifications[last_read_id]": newest.rawValue]])
        }
    }

    @Test("a favourite made while the server is down is queued, survives a restart still down, and converges once the server is back")
    func outboxWhileDown() async throws {
        try await withFixtureServer { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let directory = scratch.url
            let timeline = fake.state.withLock { $0.timeline }
            let index = try #require(timeline.prefix(10).firstIndex { ($0.reblog?.original ?? $0).favourited != true })
            let original = (timeline[index].reblog?.original ?? timeline[index]).id
            // Down: every favourite of that post answers 503.
            fake.enqueue(FakeMastodon.Canned(method: "POST", pathPrefix: "/api/v1/statuses/\(original)/favourite", status: 503, body: "", times: 1_000))
            let (_, first) = try await run(fake, state: directory, input: "fav \(index + 1)\n")
            #expect(first.contains("★…"), "queued, not rolled back: \(first)")
            // Still down at the next start: sent again, still queued.
            let attempts = fake.requests.filter { $0.path == "/api/v1/statuses/\(original)/favourite" }.count
            let (_, second) = try await run(fake, state: directory, input: "list\n")
            #expect(second.contains("★…"), "\(second)")
            #expect(fake.requests.filter { $0.path == "/api/v1/statuses/\(original)/favourite" }.count > attempts, "sent again at start")
            #expect(fake.status(original)?.favourited != true)
            // Back: the next start sends it, and it converges.
            fake.state.withLock { $0.canned.removeAll() }
            let (_, third) = try await run(fake, state: directory, input: "")
            #expect(fake.status(original)?.favourited == true, "\(third)")
            let (_, fourth) = try await run(fake, state: directory, input: "list\n")
            #expect(!fourth.contains("★…"), "nothing left in the outbox: \(fourth)")
        }
    }

    @Test("an interactive start does not wait for markers that do not answer: the first screen comes, under a real terminal")
    func interactiveStartWithHeldMarkers() async throws {
        try await withFixtureServer { fake, _ in
            // Held far longer than the script's own patience (240 s): a start that waited for
            // them would fail there.
            fake.enqueue(FakeMastodon.Canned(method: "GET", pathPrefix: "/api/v1/markers", status: 200, body: "{}", delay: .seconds(900)))
            let result = try await PtyScript.run("repl-pty-smoke.py", ["markers-held", fake.baseURL], environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.hasSuffix("ok\n"), "\(result.output)")
            #expect(fake.requests.contains { $0.path == "/api/v1/markers" && $0.method == "GET" }, "the markers were asked for")
            #expect(!fake.requests.contains { $0.path == "/api/v1/markers" && $0.method == "POST" }, "never saved: they were never read")
        }
    }
}
