import FeedlineTestSupport
import Foundation
import Testing

/// `config.toml` as the built binary reads it, with `XDG_CONFIG_HOME` in a scratch directory: a
/// mistake stops every command with one sentence naming the line; each key reaches the session;
/// flags win over the file, the file over the defaults; `feedline config` says where each came from.
@MainActor
@Suite("The config file, as feedline reads it", .timeLimit(.minutes(10)))
struct HTTPConfigTests {
    static let now = ["--now", "2026-11-21T18:00:00Z"]

    /// Writes `text` as the scratch home's config file (`nil` removes it).
    static func writeConfig(_ text: String?, in home: LoginHome) throws {
        guard let text else {
            try? FileManager.default.removeItem(at: home.configFile)
            return
        }
        try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: home.configFile)
    }

    @Test(
        "a mistake stops feedline, --jsonl, config and accounts with one sentence naming the line, and nothing on standard output",
        arguments: [
            ("width = 80\ncolour = true\n", "line 2: unknown key \"colour\" (did you mean color?); the keys are account, timeline, width, color, page-size, history"),
            ("# mine\n\npage-size = \"ten\"\n", "line 3: page-size must be a whole number from 1 to 500, not a string"),
            ("width = 80\n[display]\nwidth = 90\n", "line 2: unknown table [display]; the keys are account, timeline, width, color, page-size, history"),
            ("account = \"alice\"\n", "line 1: account must name an account as user@server, such as \"alice@social.example\", not \"alice\""),
        ]
    )
    func mistakes(_ text: String, _ problem: String) async throws {
        let home = try LoginHome()
        try Self.writeConfig(text, in: home)
        let sentence = "The config file \(home.configFile.path), \(problem).\n"
        for arguments in [Self.now, ["--jsonl"] + Self.now, ["--sandbox"] + Self.now, ["config"], ["accounts"]] {
            let run = try await home.run(arguments, stdin: "quit\n")
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stderr == sentence, "\(arguments)")
            #expect(run.stdout.isEmpty, "\(arguments): \(run)")
        }
        // Fixed, the same commands run.
        try Self.writeConfig("width = 80\n", in: home)
        #expect(try await home.run(Self.now, stdin: "quit\n").status == 0)
        #expect(try await home.run(["config"]).status == 0)
    }

    @Test("width and page-size from the file draw the session as the same flags would; a flag wins over the file")
    func displayKeys() async throws {
        let home = try LoginHome()
        /// The transcript of `list` on the sandbox with `arguments` and the config file `config`.
        func transcript(_ arguments: [String], config: String?) async throws -> String {
            try Self.writeConfig(config, in: home)
            let run = try await home.run(arguments + Self.now, stdin: "list\nmore\nquit\n")
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.isEmpty, "\(run)")
            return run.stdout
        }
        let config = "# display\npage-size = 3\nwidth = 60\n"

        let fromFile = try await transcript([], config: config)
        #expect(fromFile == (try await transcript(["--page-size", "3", "--width", "60"], config: nil)))
        #expect(fromFile.contains("Rows 1–3 of 20 shown"))
        #expect(fromFile != (try await transcript([], config: nil)))

        let flagWins = try await transcript(["--page-size", "5"], config: config)
        #expect(flagWins == (try await transcript(["--page-size", "5", "--width", "60"], config: nil)))
        #expect(flagWins.contains("Rows 1–5 of 20 shown"))
        #expect(!flagWins.contains("Rows 1–3 of"))

        try Self.writeConfig(config, in: home)
        let shown = try await home.run(["config", "--page-size", "5", "--no-color"])
        #expect(shown.status == 0, "\(shown)")
        let rows = shown.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains("width 60 config.toml line 3"), "\(shown)")
        #expect(rows.contains("page-size 5 --page-size"), "\(shown)")
        #expect(rows.contains("color off --no-color"), "\(shown)")
        #expect(rows.contains("timeline home default"), "\(shown)")
        #expect(rows.contains("history \(home.history.path) default"), "\(shown)")
    }

    @Test("timeline, color and history from the file; --timeline wins; feedline config names each line")
    func sessionKeys() async throws {
        try await withFakeServer(token: nil) { fake, _ in
            let home = try LoginHome()
            try Self.writeConfig("timeline = \"tag:swift\"\ncolor = false\nhistory = \"~/notes/history\"\n", in: home)

            /// The timeline paths the fake was asked for during a session run with `arguments`.
            func timelines(_ arguments: [String]) async throws -> Set<String> {
                let before = fake.requests.count
                let run = try await home.run(["--server", fake.baseURL] + arguments + Self.now, stdin: "quit\n")
                #expect(run.status == 0, "\(run)")
                return Set(fake.requests.dropFirst(before).map(\.path).filter { $0.hasPrefix("/api/v1/timelines/") })
            }
            #expect(try await timelines([]) == ["/api/v1/timelines/tag/swift"])
            #expect(try await timelines(["--timeline", "public"]) == ["/api/v1/timelines/public"])

            let shown = try await home.run(["config", "--server", fake.baseURL])
            #expect(shown.status == 0, "\(shown)")
            let rows = shown.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            #expect(rows.contains("timeline tag:swift config.toml line 1"), "\(shown)")
            #expect(rows.contains("color off config.toml line 2"), "\(shown)")
            #expect(rows.contains("history \(home.scratch.url.path)/notes/history config.toml line 3"), "\(shown)")
            #expect(rows.contains { $0.hasPrefix("token none: signed out") }, "\(shown)")
        }
    }
}
