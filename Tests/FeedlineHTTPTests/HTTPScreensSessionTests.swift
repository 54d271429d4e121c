import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The built `feedline` binary walks every screen against the fake Mastodon server in one
/// scripted session — notifications, a profile by handle, a hashtag, bookmarks, a thread, and back
/// down — and the requests the server saw and the key lines of the transcript are checked.
@Suite("Scripted REPL session over every screen against a Mastodon server", .timeLimit(.minutes(10)))
struct HTTPScreensSessionTests {
    /// Kemi's reply in her dragonfly thread: row 8 of her profile.
    static let kemiReply = "117628718125686107"
    /// Your Saturday post, the one the newest notification group is about.
    static let saturdayPost = "117653768537262858"

    static let script = """
        # Every screen over HTTP: notifications, a profile by handle, a hashtag, bookmarks, a thread.
        notifications
        bookmark 1
        profile @kemi@fieldnotes.science
        bookmark 8
        tag birds
        bookmarks
        thread 1
        where
        back
        top
        where
        quit
        """

    /// Lines the transcript must show, in this order (each: texts that must all be on one line).
    static let keyLines: [[String]] = [
        ["Feedline: the home timeline of 127.0.0.1:"],
        ["home> notifications"],
        ["   1  Hugo Marchetti, 陈文 and 1 other favourited your post · 1h"],
        ["      Saturday plan: move the herb pots indoors"],
        ["notifications> bookmark 1"],
        ["notifications> profile @kemi@fieldnotes.science"],
        ["Loading the profile…"],
        ["   8  Dr. Kemi Adeyemi · 4d"],
        ["      @mira frog = good is a great starting point"],
        ["@kemi> bookmark 8"],
        ["~  8  Dr. Kemi Adeyemi · 4d", "🔖"],
        ["@kemi> tag birds"],
        ["   1  Marisol Vega 🪶 · 1d"],
        ["      Counted 1,400 black-headed gulls"],
        ["#birds> bookmarks"],
        ["Loading your bookmarks…"],
        ["   1  Dr. Kemi Adeyemi · 4d", "🔖"],
        ["      @mira frog = good is a great starting point"],
        ["   2  You · 8h", "🔖"],
        ["      Saturday plan: move the herb pots indoors"],
        ["Rows 1–5 shown. End of bookmarks."],
        ["bookmarks> thread 1"],
        ["Loading the thread…"],
        ["   1  Dr. Kemi Adeyemi · 4d"],
        ["      Why we count dragonflies, a short thread"],
        ["   2  Mira Okafor · 4d"],
        // The post the thread was opened for is marked; its reply is indented under it.
        ["▸  3  Dr. Kemi Adeyemi · 4d", "🔖"],
        ["      @mira frog = good is a great starting point"],
        ["   4    Tomás Herrera :bike: · 4d"],
        ["        @kemi @mira signing my kids up for this"],
        ["Rows 1–4 shown. End of thread."],
        ["thread> where"],
        ["home › notifications › @kemi › #birds › bookmarks › thread"],
        ["thread> back"],
        ["bookmarks> top"],
        ["home> where"],
        ["home> quit"],
    ]

    @Test("notifications, profile @handle, tag, bookmark, bookmarks, thread, back and top over HTTP")
    func everyScreen() async throws {
        try await withFixtureServer { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let script = scratch.file("screens.feedline")
            try Data((Self.script + "\n").utf8).write(to: script)
            let arguments = ["--server", fake.baseURL, "--timeline", "home", "--script", script.path] + HTTPScriptedSessionTests.flags
            let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(!exit.timedOut)
            #expect(exit.status == 0)
            #expect(exit.stderr.isEmpty, "\(exit.stderr)")
            #expect(!stdout.contains(secretToken) && !exit.stderr.contains(secretToken), "the token shows")
            // The server is named with its port, as accounts on it are.
            let authority = try MastodonServer(parsing: fake.baseURL).authority
            #expect(stdout.hasPrefix("Feedline: the home timeline of \(authority). Type help"), "\(stdout.prefix(100))")

            // The transcript: each screen, its rows and marks, the stack, and nothing refused.
            let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var from = lines.startIndex
            for texts in Self.keyLines {
                guard let found = lines[from...].firstIndex(where: { line in texts.allSatisfy { line.contains($0) } }) else {
                    Issue.record("no line with \(texts) after line \(from) of the transcript:\n\(stdout)")
                    break
                }
                from = found + 1
            }
            #expect(!stdout.contains("Could not") && !stdout.contains("The server"), "a request failed:\n\(stdout)")

            // The server: each screen's endpoint, the handle looked up once before its statuses,
            // both bookmarks kept, notifications grouped, every request signed in.
            let requests = fake.requests
            let seen = requests.map { "\($0.method) \($0.path)" }
            let kemi = try #require(fake.knownAccounts().first { $0.acct == FixtureStatuses.kemi })
            for request in [
                "GET /api/v1/timelines/home", "GET /api/v2/notifications", "POST /api/v1/statuses/\(Self.saturdayPost)/bookmark",
                "GET /api/v1/accounts/\(kemi.id)/statuses", "POST /api/v1/statuses/\(Self.kemiReply)/bookmark",
                "GET /api/v1/timelines/tag/birds", "GET /api/v1/bookmarks", "GET /api/v1/statuses/\(Self.kemiReply)/context",
            ] {
                #expect(seen.contains(request), "the server never saw \(request): \(seen)")
            }
            let lookups = requests.indices.filter { requests[$0].path == "/api/v1/accounts/lookup" }
            #expect(lookups.map { requests[$0].query } == [["acct": FixtureStatuses.kemi]])
            #expect(lookups.first.map { $0 < (seen.firstIndex(of: "GET /api/v1/accounts/\(kemi.id)/statuses") ?? 0) } == true)
            #expect(!seen.contains("GET /api/v1/notifications"))
            #expect(seen.firstIndex(of: "POST /api/v1/statuses/\(Self.kemiReply)/bookmark").map { $0 < (seen.firstIndex(of: "GET /api/v1/bookmarks") ?? 0) } == true)
            #expect(fake.bookmarks.prefix(2).map(\.statusID) == [Self.kemiReply, Self.saturdayPost])
            #expect(requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }
}
