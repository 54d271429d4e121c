@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// One post of a page that does not decode (a wrong type, bytes that are not UTF-8) is left out
/// of its page, which shows the rest and says so; a body that is no page at all still fails.
@Suite("HTTP: a post that does not decode", .timeLimit(.minutes(10)))
struct HTTPBrokenPostTests {
    static let home = "/api/v1/timelines/home"
    static let sentence = "1 post the server sent could not be read and is left out."

    /// Three statuses of the fixture timeline as the server sends them: the second with a wrong
    /// type (`created_at` a number), the third with "caf" and a Latin-1 é (not UTF-8) in its
    /// content.
    static func brokenPage() throws -> (bytes: Data, statuses: [Mastodon.Status]) {
        let statuses = Array(try FixtureStatuses.timeline().filter { $0.reblog == nil }.prefix(3))
        var objects = try statuses.map { status in
            try #require(try JSONSerialization.jsonObject(with: Mastodon.makeEncoder().encode(status)) as? [String: Any])
        }
        objects[1]["created_at"] = 5
        objects[2]["content"] = "<p>cafMARK</p>"
        let text = String(decoding: try JSONSerialization.data(withJSONObject: objects), as: UTF8.self)
        let parts = text.components(separatedBy: "MARK")
        try #require(parts.count == 2)
        return (Data(parts[0].utf8) + Data([0xE9]) + Data(parts[1].utf8), statuses)
    }

    static func serve(_ bytes: Data, on fake: FakeMastodon) {
        fake.enqueue(.init(pathPrefix: home, status: 200, headers: ["Content-Type": "application/json"], body: "", bytes: bytes))
    }

    @Test("a page and a refresh of three keep the two that read, the bad byte as U+FFFD, and count one left out")
    func servicePages() async throws {
        let (bytes, statuses) = try Self.brokenPage()
        try await withFakeServer(statuses: statuses) { fake, server in
            let service = try makeService(server)
            Self.serve(bytes, on: fake)
            let page = try await service.page(of: .home, after: nil)
            #expect(page.posts.map(\.id.rawValue) == [statuses[0].id, statuses[2].id])
            #expect(page.skipped == 1)
            #expect(page.posts.last?.text.contains("caf\u{FFFD}") == true, "\(page.posts.last?.text ?? "")")

            Self.serve(bytes, on: fake)
            let newer = try await service.newer(in: .home, than: "1", olderThan: nil)
            #expect(newer.posts.map(\.id.rawValue) == [statuses[0].id, statuses[2].id])
            #expect(newer.skipped == 1)

            // A page read whole leaves nothing out.
            let whole = try await service.page(of: .home, after: nil)
            #expect(whole.posts.count == 3 && whole.skipped == 0)
        }
    }

    @Test("a page whose every entry fails, or that is no array, keeps the error it always had")
    func nothingReadable() async throws {
        try await withFakeServer { fake, server in
            let service = try makeService(server)
            fake.enqueue(.init(pathPrefix: Self.home, status: 200, body: #"[{"id": "1", "created_at": 5}, {"id": "2", "created_at": 6}]"#))
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            guard case .unexpectedBody(let what, _, let failure)? = error as? MastodonHTTPError else {
                Issue.record("not unexpectedBody: \(String(describing: error))")
                return
            }
            #expect(what == "the home timeline" && failure.path.hasPrefix("[0]"), "\(failure)")

            fake.enqueue(.init(pathPrefix: Self.home, status: 200, body: #"{"id": "1"}"#))
            let object = await thrownError { _ = try await service.page(of: .home, after: nil) }
            guard case .unexpectedBody? = object as? MastodonHTTPError else {
                Issue.record("not unexpectedBody: \(String(describing: object))")
                return
            }
        }
    }

    @Test("the REPL shows the two rows that read and says once that one post is left out")
    func replSaysSo() async throws {
        let (bytes, statuses) = try Self.brokenPage()
        try await withFakeServer(statuses: statuses) { fake, _ in
            Self.serve(bytes, on: fake)
            let scratch = try Scratch()
            defer { scratch.remove() }
            let script = scratch.file("broken.feedline")
            try Data("list\nquit\n".utf8).write(to: script)
            let arguments = ["--server", fake.baseURL, "--timeline", "home", "--no-state", "--script", script.path] + HTTPScriptedSessionTests.flags
            let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(!exit.timedOut && exit.status == 0, "\(exit.stderr)")
            #expect(stdout.components(separatedBy: Self.sentence).count == 2, "not said once:\n\(stdout)")
            #expect(stdout.contains("caf\u{FFFD}"), "no caf\u{FFFD} in:\n\(stdout)")
            #expect(!stdout.contains("Mastodon-compatible") && !stdout.contains("broken answer"), "\(stdout)")
        }
    }
}

/// The same page through `feedline --jsonl`: the status carries the count.
@MainActor
@Suite("HTTP: a post that does not decode, in JSON lines", .timeLimit(.minutes(10)))
struct HTTPBrokenPostJSONLinesTests {
    @Test("JSON lines: the timeline has the two rows and its status says skipped 1")
    func jsonLinesField() async throws {
        let page = try HTTPBrokenPostTests.brokenPage()
        let statuses = page.statuses
        try await withFakeServer(statuses: statuses) { fake, _ in
            HTTPBrokenPostTests.serve(page.bytes, on: fake)
            let child = try FeedlineProcess(
                ["--jsonl", "--server", fake.baseURL, "--timeline", "home", "--no-state", "--now", "2026-11-21T18:00:00Z"],
                environment: ["FEEDLINE_TOKEN": secretToken]
            )
            child.send(#"{"cmd":"wait","id":"w"}"#)
            var messages = await HTTPJSONLinesTests.read(child) { $0["type"] as? String == "ok" && $0["id"] as? String == "w" }
            child.send(#"{"cmd":"timeline","id":"t"}"#)
            messages = await HTTPJSONLinesTests.read(child) { $0["type"] as? String == "ok" && $0["id"] as? String == "t" }
            let snapshot = messages.filter { $0["type"] as? String == "timeline" }.last
            let rows = snapshot?["rows"] as? [[String: Any]] ?? []
            #expect(rows.compactMap { $0["post"] as? String } == [statuses[0].id, statuses[2].id])
            let status = snapshot?["status"] as? [String: Any] ?? [:]
            #expect(status["skipped"] as? Int == 1, "\(status)")
            child.closeInput()
            _ = await HTTPJSONLinesTests.read(child) { $0["type"] as? String == "bye" }
            let exit = await child.finish()
            #expect(exit.status == 0 && !exit.timedOut)
        }
    }
}
