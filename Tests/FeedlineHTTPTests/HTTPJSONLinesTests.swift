import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// `feedline --jsonl --server …` (the built binary) against the fake Mastodon server.
@MainActor
@Suite("feedline --jsonl against a Mastodon server", .timeLimit(.minutes(10)))
struct HTTPJSONLinesTests {
    /// Reads standard output until a message satisfies `stop`; returns the messages read. Every
    /// line must be a JSON object.
    static func read(
        _ child: FeedlineProcess, until stop: ([String: Any]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> [[String: Any]] {
        var messages: [[String: Any]] = []
        while let line = await child.nextLine() {
            guard let message = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
                Issue.record("not a JSON object: \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
                continue
            }
            messages.append(message)
            if stop(message) { return messages }
        }
        Issue.record("output ended first", sourceLocation: sourceLocation)
        return messages
    }

    @Test("the public timeline and a favourite: the server sees the token, the output never does")
    func timelineAndFavourite() async throws {
        let statuses = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: statuses) { fake, _ in
            let child = try FeedlineProcess(
                ["--jsonl", "--server", fake.baseURL, "--timeline", "public", "--now", "2026-11-21T18:00:00Z"],
                environment: ["FEEDLINE_TOKEN": secretToken]
            )
            child.send(#"{"cmd":"wait","id":"w1"}"#)
            var messages = await Self.read(child) { $0["type"] as? String == "ok" && $0["id"] as? String == "w1" }
            #expect(messages.prefix(3).compactMap { $0["type"] as? String } == ["hello", "routes", "timeline"])
            child.send(#"{"cmd":"timeline","id":"t"}"#)
            messages = await Self.read(child) { $0["type"] as? String == "ok" && $0["id"] as? String == "t" }
            let snapshot = messages.first(where: { $0["type"] as? String == "timeline" })
            let rows = try #require(snapshot?["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["post"] as? String } == statuses.prefix(20).map(\.id))

            let target = try #require(statuses.first { $0.reblog == nil && $0.favourited != true })
            child.send(#"{"cmd":"favourite","post":"\#(target.id)","id":"f"}"#)
            child.send(#"{"cmd":"wait","id":"w2"}"#)
            messages = await Self.read(child) { $0["type"] as? String == "ok" && $0["id"] as? String == "w2" }
            let states = messages.filter { $0["type"] as? String == "post" && $0["post"] as? String == target.id }
            #expect(states.first?["pending"] as? [String] == ["favourite"])
            #expect(states.last?["pending"] as? [String] == [])
            #expect(states.last?["favourited"] as? Bool == true)
            #expect(states.last?["favourites"] as? Int == target.favouritesCount + 1)
            #expect(fake.status(target.id)?.favourited == true)
            let post = try #require(fake.requests.last { $0.method == "POST" })
            #expect(post.path == "/api/v1/statuses/\(target.id)/favourite")
            #expect(post.authorization == "Bearer \(secretToken)")

            child.closeInput()
            let tail = await Self.read(child) { $0["type"] as? String == "bye" }
            // Only bye, but for how live updates arrive (this fake has no stream: the session
            // falls back to polling whenever it gets to it).
            #expect(tail.filter { $0["type"] as? String != "stream" }.count == 1)
            #expect(tail.filter { $0["type"] as? String == "stream" }.allSatisfy { ["connecting", "polling"].contains($0["state"] as? String ?? "") })
            let exit = await child.finish()
            #expect(exit.status == 0 && !exit.timedOut && exit.stderr.isEmpty)
            let stdout = String(decoding: child.stdout, as: UTF8.self)
            #expect(!stdout.contains(secretToken) && !exit.stderr.contains(secretToken))
        }
    }

    @Test("a token the server refuses: the stream says refused with the 401 sentence at once, and never polls")
    func refusedToken() async throws {
        try await withFakeServer { fake, server in
            fake.serveStream()
            let child = try FeedlineProcess(
                ["--jsonl", "--server", fake.baseURL, "--timeline", "public", "--no-state"],
                environment: ["FEEDLINE_TOKEN": "not-\(secretToken)"]
            )
            let messages = await Self.read(child) { $0["type"] as? String == "stream" && $0["state"] as? String != "connecting" }
            let stream = try #require(messages.last)
            #expect(stream["state"] as? String == "refused")
            #expect(
                stream["message"] as? String
                    == "The server did not accept the access token. Run `feedline login \(server.url.absoluteString)` to sign in again (or check FEEDLINE_TOKEN)."
            )
            child.closeInput()
            let tail = await Self.read(child) { $0["type"] as? String == "bye" }
            #expect(!(messages + tail).contains { $0["state"] as? String == "polling" })
            #expect(fake.requests.filter { $0.path == FakeMastodon.userStreamPath }.count == 1)
            let exit = await child.finish()
            #expect(exit.status == 0 && !exit.timedOut)
            #expect(!String(decoding: child.stdout, as: UTF8.self).contains(secretToken))
        }
    }
}
