import FeedlineTestSupport
import Foundation
import Testing

/// Bad input through the real `feedline` binary: junk lines in scripts and piped input, broken
/// fixture directories, unusable script files, SIGINT to a non-interactive run. Every run has a
/// time limit, so a hang fails the test instead of stalling the suite.
@Suite("feedline binary on bad input", .timeLimit(.minutes(10)))
struct BadInputTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10"]

    /// Junk lines, each followed by a valid command that must still work.
    static let junk: [(name: String, bytes: [UInt8])] = [
        ("escape sequence", Array("\u{1B}[2J\u{1B}]0;pwned\u{7}list".utf8)),
        ("NUL inside a command", Array("open 2\u{0}x".utf8)),
        ("BEL and backspaces", Array("\u{7}\u{8}\u{8}fav 1".utf8)),
        ("carriage return inside", Array("open 1\rquit".utf8)),
        ("invalid UTF-8", [0xFF, 0xFE, 0x20] + Array("open".utf8) + [0x20, 0xC3, 0x28]),
        ("a lone continuation byte", [0x80]),
        ("DEL and C1 controls", Array("\u{7F}\u{85}\u{9B}31m".utf8)),
        ("1 MB word", Array(repeating: UInt8(ascii: "a"), count: 1 << 20)),
        ("1 MB row number", Array("open ".utf8) + Array(repeating: UInt8(ascii: "9"), count: 1 << 20)),
    ]

    /// The junk lines, each followed by `list` (which must redraw the rows), then `quit`.
    static var junkScript: Data {
        var data = Data()
        for (_, bytes) in junk {
            data += bytes + [0x0A]
            data += Data("list\n".utf8)
        }
        data += Data("quit\n".utf8)
        return data
    }

    /// Checks a junk run: exit 0 at `quit`, nothing on standard error, no control character but
    /// line breaks in the output, one message line after each junk line, and every `list` after
    /// junk still drawing the rows.
    static func checkJunkTranscript(_ run: Child.Ending) {
        #expect(run.status == 0 && !run.signalled && !run.timedOut, "\(run)")
        #expect(run.errors.isEmpty, "\(run)")
        #expect(run.output.hasSuffix("home> quit\n"), "\(run)")
        #expect(run.stdout.count < 200_000, "a megabyte line is not echoed whole (\(run.stdout.count) bytes)")
        let controls = run.output.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" }
        #expect(controls.isEmpty, "control characters reached the output: \(controls.map { String($0.value, radix: 16) })")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        let prompts = lines.indices.filter { lines[$0].hasPrefix("home> ") }
        #expect(prompts.count == 2 * junk.count + 1, "one prompt per line: \(prompts.count)")
        guard prompts.count == 2 * junk.count + 1 else { return }
        for (index, (name, _)) in junk.enumerated() {
            let at = prompts[2 * index]
            let message = lines[at + 1]
            #expect(prompts[2 * index + 1] == at + 2, "\(name): exactly one line answers it, got \(lines[at + 1..<prompts[2 * index + 1]])")
            #expect(!message.isEmpty && message.hasSuffix("."), "\(name): \(message.debugDescription)")
            #expect(lines[prompts[2 * index + 1]] == "home> list")
            #expect(lines[prompts[2 * index + 1] + 1].hasPrefix("   1  "), "\(name): list after it draws row 1")
        }
        #expect(run.output.contains("home> ^[[2J^[]0;pwned^Glist\n"), "escape sequences are echoed in caret notation")
        #expect(run.output.contains("home> open 2^@x\n\"2?x\" is not a row number"))
        #expect(run.output.contains("… (1047576 more characters)"))
    }

    @Test("junk lines in piped input: one clear line each, no control character echoed, the session goes on, exit 0")
    func pipedJunk() async throws {
        Self.checkJunkTranscript(try await Child.run(Self.flags, stdin: Self.junkScript))
    }

    @Test("the same junk in a --script file, and a script that is not UTF-8 at all")
    func scriptJunk() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let script = scratch.file("junk.feedline")
        try Self.junkScript.write(to: script)
        Self.checkJunkTranscript(try await Child.run(["--script", script.path] + Self.flags))

        let latin1 = scratch.file("latin1.feedline")
        try Data([0x6F, 0x70, 0xE9, 0x6E, 0x20, 0x32, 0x0A] + Array("open 2\nback\n".utf8)).write(to: latin1)
        let run = try await Child.run(["--script", latin1.path] + Self.flags)
        #expect(run.status == 0 && run.errors.isEmpty, "\(run)")
        #expect(run.output.contains("home> op\u{FFFD}n 2\nUnknown command \"op\u{FFFD}n\". Did you mean \"open\"?"))
        #expect(run.output.contains("home> open 2\n"))
        #expect(run.output.contains("post> back\n"), "the valid line after the bad one opened the post")
    }

    @Test("--script reads a pipe to its end, as a shell's <(…) hands it over (/dev/stdin here, on a pipe), its # args: header included")
    func scriptFromAPipe() async throws {
        let child = try Child(["--script", "/dev/stdin"] + Self.flags, keepingInputOpen: true)
        try child.input?.write(contentsOf: Data("# args: --fixtures Fixtures/faults\n# from a pipe\nwhere\n".utf8))
        try child.input?.close()
        let run = await child.wait()
        #expect(run.status == 0 && !run.signalled && !run.timedOut, "\(run)")
        #expect(run.errors.isEmpty, "\(run)")
        #expect(run.output.hasPrefix("Feedline: the home timeline from the fixtures in Fixtures/faults."), "the header's flags apply: \(run)")
        #expect(run.output.contains("home> # from a pipe\nhome> where\nhome\n"), "\(run)")
    }

    @Test("--script naming a directory or a missing file: one sentence naming it, status 1")
    func unusableScripts() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = scratch.file("missing.feedline").path
        for (path, message) in [
            (scratch.url.path, "The script path \(scratch.url.path) is a directory, not a file."),
            (missing, "The script file \(missing) does not exist."),
        ] {
            let run = try await Child.run(["--script", path] + Self.flags)
            #expect(run.status == 1 && !run.signalled && !run.timedOut, "\(run)")
            #expect(run.stdout.isEmpty)
            #expect(run.errors == message + "\n")
        }
    }

    /// A broken fixture directory: the files in it and what the message must say.
    struct BrokenFixture: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String: Data]
        /// Parts of the one-line message (the folder is always named).
        var expected: [String]
        var testDescription: String { name }

        static let status = Data(#"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a"}}"#.utf8)
    }

    static let brokenFixtures: [BrokenFixture] = [
        BrokenFixture(name: "malformed JSON", files: ["a.json": BrokenFixture.status, "b.json": Data("[{\"id\": \"2\",".utf8)],
                      expected: ["/b.json is not valid JSON."]),
        BrokenFixture(name: "wrong shape", files: ["a.json": Data(#"{"hello": 1}"#.utf8)],
                      expected: ["/a.json is not a Mastodon status or an array of them (id: missing)."]),
        BrokenFixture(name: "a number instead of statuses", files: ["a.json": Data("42".utf8)],
                      expected: ["/a.json is not a Mastodon status or an array of them"]),
        BrokenFixture(name: "empty directory", files: [:], expected: ["holds no statuses."]),
        BrokenFixture(name: "empty file", files: ["a.json": Data()], expected: ["/a.json is not valid JSON."]),
        BrokenFixture(name: "binary junk", files: ["a.json": BrokenFixture.status, "junk.json": Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })],
                      expected: ["/junk.json is not valid JSON."]),
        BrokenFixture(name: "nested 100 000 deep", files: ["a.json": Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)],
                      expected: ["/a.json is not valid JSON."]),
        BrokenFixture(name: "duplicate ids", files: ["a.json": BrokenFixture.status, "b.json": Data("[".utf8) + BrokenFixture.status + Data("]".utf8)],
                      expected: ["/b.json repeats status 1, already in ", "/a.json."]),
        BrokenFixture(name: "scenario.json not JSON", files: ["a.json": BrokenFixture.status, "scenario.json": Data("{nope".utf8)],
                      expected: ["/scenario.json is not valid JSON."]),
        BrokenFixture(name: "scenario.json of the wrong type", files: ["a.json": BrokenFixture.status, "scenario.json": Data(#"{"latency": "slow"}"#.utf8)],
                      expected: ["The scenario file ", "/scenario.json is invalid (latency: expected an object, found a string)."]),
        BrokenFixture(name: "scenario.json naming a missing arrival", files: ["a.json": BrokenFixture.status, "scenario.json": Data(#"{"arrivals": [{"file": "later.json"}]}"#.utf8)],
                      expected: ["/scenario.json is invalid (arrivals: no file later.json in "]),
    ]

    /// Checks a run that must refuse to start: status 1 by `exit`, nothing on standard output,
    /// one sentence on standard error with every expected part and no crash report.
    static func checkRefusal(_ run: Child.Ending, expected: [String]) {
        #expect(run.status == 1 && !run.signalled && !run.timedOut, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line on standard error: \(run.errors.debugDescription)")
        for part in expected { #expect(run.errors.contains(part), "\(part.debugDescription) in \(run.errors.debugDescription)") }
        for crash in ["Fatal error", "Backtrace", "Crash", "Thread 0", "SIG"] {
            #expect(!run.errors.contains(crash), "a crash report: \(run.errors.debugDescription)")
        }
    }

    @Test("a broken fixture directory: one sentence naming the file and the problem, status 1", arguments: brokenFixtures)
    func brokenFixture(_ fixture: BrokenFixture) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let directory = scratch.file("broken")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, data) in fixture.files { try data.write(to: directory.appendingPathComponent(name)) }
        let run = try await Child.run(["--fixtures", directory.path] + Self.flags)
        Self.checkRefusal(run, expected: fixture.expected + ["broken"])
    }

    @Test("a missing fixture directory and a file given as one are refused with one sentence")
    func missingFixtures() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = scratch.file("missing")
        Self.checkRefusal(try await Child.run(["--fixtures", missing.path] + Self.flags), expected: ["The fixture directory \(missing.path) does not exist."])
        let file = scratch.file("file.json")
        try BrokenFixture.status.write(to: file)
        Self.checkRefusal(try await Child.run(["--fixtures", file.path] + Self.flags), expected: ["The fixture path \(file.path) is a file, not a directory."])
    }

    @Test("an unreadable fixture file is named (skipped as root, who reads everything)",
          .enabled(if: getuid() != 0, "root can read a file without permissions"))
    func unreadableFixture() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let directory = scratch.file("locked")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try BrokenFixture.status.write(to: directory.appendingPathComponent("a.json"))
        let locked = directory.appendingPathComponent("b.json")
        try BrokenFixture.status.write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path) }
        Self.checkRefusal(try await Child.run(["--fixtures", directory.path] + Self.flags), expected: ["The fixture file locked/b.json could not be read."])
    }
}
