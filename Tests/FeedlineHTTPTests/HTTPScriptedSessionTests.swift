@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The built `feedline` binary runs `Fixtures/sessions/http/*.feedline` against the fake Mastodon
/// server and its standard output must equal the `.transcript` beside the script, byte for byte
/// (the server's port, which changes every run, is written `PORT`). With `FEEDLINE_RECORD=1`
/// the transcripts are rewritten and the test fails, so they are reviewed before being committed.
@Suite("Scripted REPL sessions against a Mastodon server", .timeLimit(.minutes(10)))
struct HTTPScriptedSessionTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10", "--posts-per-page", "20"]

    /// How the token reaches the child.
    enum TokenSource: String, CaseIterable, CustomTestStringConvertible {
        case environment, tokenFile
        var testDescription: String { self == .environment ? "FEEDLINE_TOKEN" : "--token-file" }
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `feedline --server <fake> --script Fixtures/sessions/http/<name>.feedline …` and
    /// returns its output with the port normalised; checks the token shows nowhere.
    static func run(
        _ name: String, fake: FakeMastodon, timeline: String, token: TokenSource?
    ) async throws -> Run {
        var arguments = ["--server", fake.baseURL, "--timeline", timeline, "--script", "Fixtures/sessions/http/\(name).feedline"] + flags
        var environment: [String: String] = [:]
        let scratch = try Scratch()
        defer { scratch.remove() }
        switch token {
        case .environment?:
            environment["FEEDLINE_TOKEN"] = secretToken
        case .tokenFile?:
            let file = scratch.file("token")
            try Data("\(secretToken)\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            arguments += ["--token-file", file.path]
        case nil:
            break
        }
        let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: environment, unset: ["FEEDLINE_TOKEN"])
        #expect(!exit.timedOut)
        #expect(!stdout.contains(secretToken), "the token shows on stdout")
        #expect(!exit.stderr.contains(secretToken), "the token shows on stderr")
        let port = fake.baseURL.split(separator: ":").last.map(String.init) ?? "?"
        return Run(
            status: exit.status,
            stdout: stdout.replacingOccurrences(of: "127.0.0.1:\(port)", with: "127.0.0.1:PORT"),
            stderr: exit.stderr
        )
    }

    /// Compares `transcript` with `<name>.transcript`, or records it under FEEDLINE_RECORD=1.
    static func expectGolden(_ transcript: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = try PackagePaths.fixtures("sessions/http").appendingPathComponent("\(name).transcript")
        if ProcessInfo.processInfo.environment["FEEDLINE_RECORD"] == "1" {
            try Data(transcript.utf8).write(to: golden, options: .atomic)
            Issue.record("Recorded \(golden.lastPathComponent); review it, then run the tests without FEEDLINE_RECORD.", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        guard transcript != expected else { return }
        let got = transcript.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
        let gotLine = line < got.count ? String(got[line]) : "<end>"
        let wantLine = line < want.count ? String(want[line]) : "<end>"
        Issue.record(
            "\(name).transcript differs at line \(line + 1):\n  expected: \(wantLine)\n  actual:   \(gotLine)\n(FEEDLINE_RECORD=1 re-records)",
            sourceLocation: sourceLocation
        )
    }

    @Test("the public timeline without a token: paging, a detail, favourites and boosts refused and rolled back")
    func publicTimeline() async throws {
        try await withFakeServer { fake, _ in
            let run = try await Self.run("public", fake: fake, timeline: "public", token: nil)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            try Self.expectGolden(run.stdout, "public")
            let requests = fake.requests
            #expect(requests.allSatisfy { $0.authorization == nil })
            #expect(requests.contains { $0.method == "POST" && $0.path.hasSuffix("/favourite") })
            #expect(requests.filter { $0.path == "/api/v1/timelines/public" }.count >= 3)
        }
    }

    @Test("the home timeline signed in: paging, favourite and boost, a refused favourite, refresh into a gap", arguments: TokenSource.allCases)
    func homeTimeline(_ token: TokenSource) async throws {
        let statuses = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: statuses) { fake, _ in
            // Row 6's favourite is refused once; 28 posts arrive before the refresh.
            let refused = statuses[5].original.id
            fake.fail("/api/v1/statuses/\(refused)/favourite", method: "POST", status: 422, error: "Validation failed: You cannot favourite this post")
            fake.arriveOnRefresh(try FixtureStatuses.arrivals())
            let run = try await Self.run("home", fake: fake, timeline: "home", token: token)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            try Self.expectGolden(run.stdout, "home")
            let requests = fake.requests
            #expect(requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
            #expect(requests.contains { $0.method == "POST" && $0.path == "/api/v1/statuses/\(refused)/favourite" })
            #expect(fake.status(refused)?.favourited != true)
        }
    }

    @Test("notifications signed in: a group dismissed on the server, a refused dismiss back with its sentence, a clear that empties the server's list")
    func notifications() async throws {
        try await withFixtureServer { fake, _ in
            // The groups as the screen numbers them (newest first; a number keeps naming its row
            // after row 1 leaves): row 2's dismiss is refused once.
            var keys: [String] = []
            for key in NotificationGroup.groupKeys(fake.notifications) where !keys.contains(key) { keys.append(key) }
            try #require(keys.count > 3)
            fake.fail("/api/v2/notifications/\(keys[1])/dismiss", method: "POST", status: 422, error: "Validation failed: this notification cannot be dismissed")
            let run = try await Self.run("notifications", fake: fake, timeline: "home", token: .environment)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            try Self.expectGolden(run.stdout, "notifications")
            let posts = fake.requests.filter { $0.method == "POST" }.map(\.path)
            #expect(posts == [
                "/api/v2/notifications/\(keys[0])/dismiss", "/api/v2/notifications/\(keys[1])/dismiss", "/api/v1/notifications/clear",
            ])
            #expect(fake.notifications.isEmpty)
            // After the clear, the screen asked for its first page again and said it is empty.
            #expect(fake.requests.last { $0.path == "/api/v2/notifications" }.map { $0.query["max_id"] == nil } == true)
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }
}
