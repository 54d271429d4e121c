import FeedlineTestSupport
import Foundation
import Testing

/// The binary with a state directory (issue 14): the second run starts where the first left
/// off, scripts keep no state unless asked, and a database that cannot be used is one sentence
/// on standard error while the session runs on without state.
@Suite("feedline state across runs", .timeLimit(.minutes(10)))
struct StateSessionTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10"]

    /// A fresh private directory for one test (0700: Feedline says when it makes one private).
    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-state-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    static func run(_ arguments: [String], stdin: String, environment: [String: String] = [:]) async throws -> Child.Ending {
        let ending = try await Child.run(arguments, stdin: Data(stdin.utf8), environment: environment)
        #expect(!ending.timedOut, "feedline \(arguments) did not finish: \(ending)")
        return ending
    }

    /// The first post row of a transcript (the line numbered 1), without its marker column (a
    /// saved copy not confirmed yet is marked `·`).
    static func firstRow(_ transcript: String) -> Substring? {
        transcript.split(separator: "\n").first { $0.hasPrefix("   1  ") || $0.hasPrefix("·  1  ") }?.dropFirst()
    }

    @Test("the second run starts at the reading position with the saved rows, and counts the newer posts waiting above")
    func resumes() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path]
        // The sandbox's stream brings two posts after a few commands; they wait above, unread.
        let first = try await Self.run(state + Self.flags, stdin: "more\nmore\nmore\nmore\n")
        #expect(first.status == 0)
        #expect(first.errors.isEmpty)
        #expect(first.output.contains("2 newer posts above; newer shows them."))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sandbox.sqlite").path))
        let firstRow = try #require(Self.firstRow(first.output))

        let second = try await Self.run(state + Self.flags, stdin: "newer\n")
        #expect(second.status == 0)
        #expect(second.errors.isEmpty)
        // The row read last is row 1 again, the saved rows are all there, the two unread wait above.
        #expect(Self.firstRow(second.output) == firstRow)
        // Printed before any answer, the saved copies are marked as such.
        #expect(second.output.contains("·  1  "), "\(second.output)")
        #expect(second.output.contains("Rows 1–10 of 60 shown"))
        #expect(second.output.contains("2 newer posts above; newer shows them."))
        // newer shows them on top.
        let afterNewer = try #require(second.output.components(separatedBy: "home> newer\n").last)
        #expect(afterNewer.hasPrefix("+  1  "))
        #expect(afterNewer.contains("Rows seen before moved down by 2"))

        // A third run: the position moved to what newer showed.
        let third = try await Self.run(state + Self.flags, stdin: "")
        let shownByNewer = afterNewer.split(separator: "\n").first.map { "  1" + $0.dropFirst(4) }
        #expect(Self.firstRow(third.output).map(String.init) == shownByNewer)
    }

    @Test("a resumed session pages on past the saved rows, although they end at a post the sandbox's stream brought in the last run")
    func resumedSessionPagesOn() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path]
        let first = try await Self.run(state + Self.flags, stdin: "more\nmore\npublic\nhome\nquit\n")
        #expect(first.status == 0)
        let second = try await Self.run(state + Self.flags, stdin: "more\nmore\nmore\n")
        #expect(second.status == 0)
        #expect(second.errors.isEmpty)
        #expect(!second.output.contains("Could not load older posts"), "\(second.output)")
        // The rows after the saved ones came: row 21 and on.
        #expect(second.output.contains("\n  21  ") || second.output.contains("\n+ 21  "), "\(second.output)")
    }

    @Test("quit says which taps are not sent yet and that the next start sends them; the next start does")
    func quitSaysWhatIsQueued() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = ["--state", directory.path, "--fixtures", "Fixtures/faults"] + Self.flags
        // Row 3's favourite fails with 500 every time: queued, and still queued at the end.
        let first = try await Self.run(flags, stdin: "fav 3\nquit\n")
        #expect(first.status == 0)
        let said = first.output.replacingOccurrences(of: "\n", with: " ")
        #expect(said.contains("Your favourite of Nadia Petrova's post is queued: The server hit an internal error; try again later."), "\(first.output)")
        #expect(said.hasSuffix("home> quit Not sent yet: your favourite of Nadia Petrova's post. It is sent at the next start. "), "\(first.output)")
        // The next start sends it (and it fails again: queued again, and said so).
        let second = try await Self.run(flags, stdin: "quit\n")
        let again = second.output.replacingOccurrences(of: "\n", with: " ")
        #expect(again.contains("Your favourite of Nadia Petrova's post is queued"), "\(second.output)")
        #expect(again.hasSuffix("Not sent yet: your favourite of Nadia Petrova's post. It is sent at the next start. "), "\(second.output)")
    }

    @Test("a script or piped input keeps no state unless --state is given; --no-state keeps none")
    func noStateByDefault() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_STATE_HOME": directory.path]
        let piped = try await Self.run(Self.flags, stdin: "more\n", environment: environment)
        #expect(piped.status == 0)
        let script = try await Self.run(["--script", "Fixtures/sessions/tour.feedline"] + Self.flags, stdin: "", environment: environment)
        #expect(script.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let none = try await Self.run(["--no-state"] + Self.flags, stdin: "more\n", environment: environment)
        #expect(none.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let both = try await Self.run(["--no-state", "--state", directory.path] + Self.flags, stdin: "")
        #expect(both.status == 64)
        #expect(both.errors.contains("Give either --state DIR or --no-state, not both."))
    }

    @Test("a damaged state file: one sentence naming it and what to do; the session runs without state and leaves the file alone")
    func damaged() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sandbox.sqlite")
        let garbage = Data("this is not a database, it is a shopping list\n".utf8)
        try garbage.write(to: file)
        let result = try await Self.run(["--state", directory.path] + Self.flags, stdin: "more\n")
        #expect(result.status == 0)
        #expect(result.errors == "The state file \(file.path) is damaged or not a database; move it away (or delete it) and Feedline starts a new one. This session runs without saved state.\n")
        #expect(result.output.contains("Rows 1–20 of 40 shown"))
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("a favourite the server cannot take stays queued across a restart, is sent at start, and converges once the server takes it")
    func outboxAcrossRestarts() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path, "--no-stream"]
        // The faults fixture: favouriting row 3 (Nadia's post) always fails with HTTP 500.
        let first = try await Self.run(state + ["--fixtures", "Fixtures/faults"] + Self.flags, stdin: "fav 3\n")
        #expect(first.status == 0)
        #expect(first.errors.isEmpty)
        #expect(first.output.contains("★… 24"), "queued, not rolled back: \(first.output)")
        // Still down: the saved favourite shows queued again on the next start.
        let second = try await Self.run(state + ["--fixtures", "Fixtures/faults"] + Self.flags, stdin: "list\n")
        #expect(second.status == 0)
        let listed = try #require(second.output.components(separatedBy: "home> list\n").last)
        #expect(listed.contains("★… 24"), "\(second.output)")
        // The same server (a fixture directory of the same name) without the fault: it converges.
        let healed = directory.appendingPathComponent("healed/faults", isDirectory: true)
        try FileManager.default.createDirectory(at: healed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PackagePaths.fixtures("faults"), to: healed)
        let scenarioURL = healed.appendingPathComponent("scenario.json")
        var scenario = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scenarioURL)) as? [String: Any])
        scenario["faults"] = (scenario["faults"] as? [[String: Any]])?.filter { $0["request"] as? String != "favourite" }
        try JSONSerialization.data(withJSONObject: scenario).write(to: scenarioURL)
        let third = try await Self.run(state + ["--fixtures", healed.path] + Self.flags, stdin: "list\n")
        #expect(third.status == 0)
        #expect(third.errors.isEmpty)
        let converged = try #require(third.output.components(separatedBy: "home> list\n").last)
        #expect(converged.contains("★ 24") && !converged.contains("★…"), "\(third.output)")
        // Nothing is left to send: a fourth start shows no queued mark.
        let fourth = try await Self.run(state + ["--fixtures", healed.path] + Self.flags, stdin: "")
        #expect(!fourth.output.contains("…  "), "\(fourth.output)")
        #expect(!fourth.output.contains("★…"))
    }

    @Test("two feedline processes on one state file at once: both work and both save; the next start opens it")
    func twoProcesses() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path]
        let script = Data(String(repeating: "more\nrefresh\nfav 2\nfav 2\n", count: 10).utf8)
        // Started together; each waits for nothing but its own input.
        let first = try Child(state + Self.flags, stdin: script)
        let second = try Child(state + Self.flags, stdin: script)
        let endings = [await first.wait(), await second.wait()]
        for ending in endings {
            #expect(ending.status == 0 && !ending.timedOut, "\(ending)")
            #expect(ending.errors.isEmpty, "\(ending.errors)")
            #expect(ending.output.contains("Rows 1–"))
        }
        let next = try await Self.run(state + Self.flags, stdin: "")
        #expect(next.status == 0)
        #expect(next.errors.isEmpty)
        #expect(next.output.contains("Rows 1–10 of"))
    }

    /// How many kills: `FEEDLINE_KILL_RUNS` when set (CI's ThreadSanitizer pass runs fewer: each
    /// run launches the binary twice), else 200.
    static let killRuns = ProcessInfo.processInfo.environment["FEEDLINE_KILL_RUNS"].flatMap(Int.init) ?? 200

    @Test("killed (SIGKILL) at random moments of a session that saves, every next start opens the file and shows the saved timeline")
    func killed() async throws {
        let seed = testSeed(0x4B49_4C4C)
        print("SIGKILL runs: \(Self.killRuns) from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path]
        // A session that keeps changing the saved timeline: pages, refreshes, what waits, taps.
        let commands = ["more", "more", "newer", "refresh", "fav 3", "open 2", "fav", "back", "boost 1", "more", "gap 5", "list"]
        let script = Data((0..<60).map { _ in commands[random.next(below: commands.count)] + "\n" }.joined().utf8)
        for run in 0..<Self.killRuns {
            let child = try Child(state + Self.flags, stdin: script)
            // Killed after a random number of prompts (an event, not a time): mid-command, mid-save.
            let prompts = 1 + random.next(below: 40)
            _ = await child.waitForOutput { $0.components(separatedBy: "> ").count > prompts }
            child.process.send(SIGKILL)
            _ = await child.wait()
            let next = try await Self.run(state + Self.flags, stdin: "")
            #expect(next.status == 0, "run \(run) (seed \(seed)): \(next)")
            #expect(next.errors.isEmpty, "run \(run) (seed \(seed)): \(next.errors)")
            #expect(next.output.contains("Rows 1–"), "run \(run) (seed \(seed)): no timeline: \(next)")
            if next.status != 0 || !next.errors.isEmpty { break }
        }
    }

    @Test("killed (SIGKILL) the moment a favourite shows queued (★…), the next start still has it queued: shown means saved")
    func killedWhenQueued() async throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = ["--state", directory.path, "--no-stream", "--fixtures", "Fixtures/faults"]
        for run in 0..<20 {
            try? FileManager.default.removeItem(at: directory)
            // The faults fixture: favouriting row 3 (Nadia's post, 23 favourites) fails with HTTP 500.
            let child = try Child(state + Self.flags, stdin: Data("fav 3\nlist\nmore\n".utf8))
            _ = await child.waitForOutput("★… 24")
            child.process.send(SIGKILL)
            _ = await child.wait()
            let next = try await Self.run(state + Self.flags, stdin: "")
            #expect(next.errors.isEmpty, "run \(run): \(next.errors)")
            #expect(next.output.contains("★… 24"), "run \(run): the queued favourite was lost: \(next.output)")
            if !next.output.contains("★… 24") { break }
        }
    }
}
