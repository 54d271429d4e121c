import FeedlineTestSupport
import Foundation
import Testing

/// Runs the built `feedline` binary: with `--script`, with piped standard input, and with
/// inputs it cannot read.
@Suite("feedline binary", .timeLimit(.minutes(10)))
struct EndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary run through ``Child`` (in the package root, `NO_COLOR`, with a time limit).
    static func run(_ arguments: [String], stdin: String? = nil) async throws -> Run {
        let ending = try await Child.run(arguments, stdin: Data((stdin ?? "").utf8))
        #expect(!ending.timedOut, "feedline \(arguments) did not finish: \(ending)")
        return Run(status: ending.status, stdout: ending.output, stderr: ending.errors)
    }

    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10"]

    @Test("--script prints the same transcript as the golden file, and exits 0")
    func script() async throws {
        let result = try await Self.run(["--fixtures", "Fixtures/faults", "--script", "Fixtures/sessions/failures.feedline"] + Self.flags)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let golden = try String(contentsOf: PackagePaths.fixtures("sessions").appendingPathComponent("failures.transcript"), encoding: .utf8)
        #expect(result.stdout == golden)
    }

    @Test("piped standard input runs like a script, without readline, and ends at end of input")
    func piped() async throws {
        let result = try await Self.run(Self.flags, stdin: "open 2\nfav\nback\nnonsense\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("home> open 2\n"))
        #expect(result.stdout.contains("post> fav\n★ 267 favourites"))
        #expect(result.stdout.contains("home> nonsense\nUnknown command \"nonsense\"."))
        #expect(!result.stdout.contains("\u{1B}"))
        let quit = try await Self.run(Self.flags, stdin: "quit\nlist\n")
        #expect(quit.status == 0)
        #expect(quit.stdout.hasSuffix("home> quit\n"))
    }

    @Test("the bundled fixtures are found without --fixtures")
    func bundled() async throws {
        let result = try await Self.run(Self.flags, stdin: "")
        #expect(result.status == 0)
        // Named as the bundled sandbox, not by a path of this machine's; --fixtures DIR names DIR.
        #expect(result.stdout.replacingOccurrences(of: "\n", with: " ").hasPrefix("Feedline: the home timeline of the bundled sandbox (Fixtures/timeline). Type help"))
        let given = try await Self.run(Self.flags + ["--fixtures", "Fixtures/faults"], stdin: "")
        #expect(given.stdout.hasPrefix("Feedline: the home timeline from the fixtures in Fixtures/faults."))
        #expect(result.stdout.contains("Rows 1–10 of 20 shown"))
    }

    @Test("a missing fixture directory or script fails with one sentence and a non-zero status")
    func unreadable() async throws {
        let fixtures = try await Self.run(["--fixtures", "/nonexistent/feedline-fixtures"] + Self.flags, stdin: "")
        #expect(fixtures.status != 0)
        #expect(fixtures.stdout.isEmpty)
        #expect(fixtures.stderr == "The fixture directory /nonexistent/feedline-fixtures does not exist.\n")
        let script = try await Self.run(["--script", "/nonexistent/tour.feedline"] + Self.flags)
        #expect(script.status != 0)
        #expect(script.stderr == "The script file /nonexistent/tour.feedline does not exist.\n")
        let badFlag = try await Self.run(["--now", "yesterday"])
        #expect(badFlag.status != 0)
        #expect(badFlag.stderr.contains("--now must be an ISO 8601 date"))
    }

    @Test("--help documents every flag")
    func help() async throws {
        let result = try await Self.run(["--help"])
        #expect(result.status == 0)
        for flag in ["--fixtures", "--script", "--page-size", "--width", "--no-color", "--history", "--now"] {
            #expect(result.stdout.contains(flag), "\(flag) missing from --help")
        }
    }

    @Test("--version prints the version and exits 0")
    func version() async throws {
        let result = try await Self.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil, "\(result.stdout.debugDescription)")
        #expect(result.stderr.isEmpty)
    }

    /// Writes `text` to a script file in a scratch directory and returns its path.
    static func script(_ text: String) throws -> (Scratch, String) {
        let scratch = try Scratch()
        let file = scratch.file("session.feedline")
        try Data(text.utf8).write(to: file)
        return (scratch, file.path)
    }

    @Test("--bail stops after the first failed command with status 1 and names its line; without it the script goes on and exits 0")
    func bail() async throws {
        let (scratch, path) = try Self.script("list\n# Nadia's post: its favourite is always refused\nfav 3\nopen 1\n")
        defer { scratch.remove() }
        // The faults fixture's posts with only a favourite's fault, a refusal (its page fault
        // would stop a bailing script before its first command; a failure for lack of a
        // connection is no failure of the command: the favourite waits in the outbox).
        let fixtures = scratch.file("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try PackagePaths.fixtures("faults").appendingPathComponent("home.json"), to: fixtures.appendingPathComponent("home.json"))
        let scenario = #"{"faults": [{"request": "favourite", "post": "117649322034651655", "error": "forbidden"}]}"#
        try Data(scenario.utf8).write(to: fixtures.appendingPathComponent("scenario.json"))
        let flags = ["--fixtures", fixtures.path, "--script", path] + Self.flags
        let bailed = try await Self.run(flags + ["--bail"])
        #expect(bailed.status == 1)
        #expect(bailed.stderr == "Stopped at \(path), line 3 (--bail): \"fav 3\" failed.\n")
        #expect(bailed.stdout.contains("! Could not favourite this post"))
        #expect(!bailed.stdout.contains("home> open 1"), "nothing after the failed command runs")
        let goesOn = try await Self.run(flags)
        #expect(goesOn.status == 0)
        #expect(goesOn.stdout.contains("home> open 1\n"))

        // A bad command is a failure too, and so is a first screen that did not load.
        let (badScratch, badPath) = try Self.script("list\nfrobnicate\nlist\n")
        defer { badScratch.remove() }
        let bad = try await Self.run(["--script", badPath, "--bail"] + Self.flags)
        #expect(bad.status == 1)
        #expect(bad.stderr == "Stopped at \(badPath), line 2 (--bail): \"frobnicate\" failed.\n")
        let firstScreen = try await Self.run(["--fixtures", "Fixtures/faults", "--bail"] + Self.flags, stdin: "list\n")
        #expect(firstScreen.status == 1)
        #expect(firstScreen.stderr == "Stopped before the first command (--bail): loading the first screen failed.\n")
        #expect(!firstScreen.stdout.contains("home> list"))
    }

    @Test("a script's '# args:' header carries its flags; flags on the command line win")
    func scriptHeader() async throws {
        let (scratch, path) = try Self.script("# args: --page-size 3 --width 40 --now 2026-11-21T18:00:00Z\nlist\n")
        defer { scratch.remove() }
        let result = try await Self.run(["--script", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Rows 1–3 of 20 shown"))
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 40 || $0.hasPrefix("home> ") })
        let overridden = try await Self.run(["--script", path, "--page-size", "4"])
        #expect(overridden.stdout.contains("Rows 1–4 of 20 shown"))
        let (badScratch, badPath) = try Self.script("# args: --page-size many\nlist\n")
        defer { badScratch.remove() }
        let bad = try await Self.run(["--script", badPath])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("many"), "\(bad.stderr)")
    }
}
