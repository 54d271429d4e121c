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
        #expect(result.stdout.hasPrefix("Feedline: the home timeline from the timeline fixtures."))
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
}
