import FeedlineTestSupport
import Foundation
import Testing

/// Nothing typed into a draft is lost (issue 32): the built binary, interactive under a
/// pseudo-terminal with `--state`, is killed (SIGKILL), hung up (SIGHUP, or its terminal closed)
/// or terminated (SIGTERM) while a draft takes lines, and the next start shows every line typed;
/// Ctrl-D at `compose>` keeps the draft and goes back to the screen's prompt; the history file
/// holds commands, never a draft's lines.
///
/// Every wait is for output (a prompt after a typed line, a sentence) or the child's end; the
/// deadlines are FeedlineProcess's watchdog, a safety net only.
@MainActor
@Suite("What is typed into a draft is kept", .timeLimit(.minutes(10)))
struct DraftKeepingTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--no-stream"]
    static let lines = ["Frogs counted at dawn: 12.", "Newts under the log: 3.", "More tomorrow, weather allowing."]

    /// The interactive binary under a pseudo-terminal, keeping its state in `state` and its
    /// history in `history`.
    static func interactive(state: URL, history: URL) throws -> FeedlineProcess {
        try FeedlineProcess(
            ["--state", state.path, "--history", history.path] + flags, environment: ["TERM": "xterm"], unset: ["VISUAL", "EDITOR"], terminal: true
        )
    }

    /// Whether `output` shows a prompt after the last line that was `typed` (its echo, or a line
    /// of output): `home> `, or a draft's `compose …> ` / `reply …> `.
    static func promptFollows(_ typed: String, in output: String, prompt: String) -> Bool {
        guard let echo = output.range(of: typed + "\r\n", options: .backwards) else { return false }
        let after = output[echo.upperBound...]
        guard let start = after.range(of: prompt) else { return false }
        return after[start.upperBound...].contains("> ")
    }

    /// Types `line` and Return, then waits for the next prompt (`compose` by default).
    @discardableResult
    static func enter(_ line: String, into child: FeedlineProcess, prompt: String = "compose") async -> Bool {
        child.send(bytes: Data((line + "\r").utf8))
        return await child.waitForOutput { promptFollows(line, in: $0, prompt: prompt) }
    }

    /// Starts a draft with `post` and types ``lines`` into it, each seen through to its next prompt.
    static func writeDraft(_ child: FeedlineProcess) async throws {
        try #require(await child.waitForOutput { promptFollows("Rows 1–10 of 20 shown; more shows the next.", in: $0, prompt: "home") }, "no first screen")
        try #require(await enter("post", into: child), "post showed no compose prompt: \(String(decoding: child.stdout, as: UTF8.self))")
        for line in lines {
            try #require(await enter(line, into: child), "no prompt after \(line): \(String(decoding: child.stdout, as: UTF8.self))")
        }
    }

    /// What a start after the first shows of the kept draft: `drafts`, then `.show` of draft 1.
    static func keptDraft(state: URL) async throws -> (listing: String, shown: String) {
        let (exit, output) = try await FeedlineProcess.runScript(["--state", state.path] + flags, input: "drafts\ndraft 1\n.show\n.back\nquit\n")
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr) \(output)")
        let listing = output.components(separatedBy: "home> drafts\n").last?.components(separatedBy: "home> draft 1").first ?? ""
        let shown = output.components(separatedBy: "> .show\n").last ?? ""
        return (listing, shown)
    }

    @Test(
        "killed mid-draft (SIGKILL, SIGHUP, SIGTERM) under a terminal: the next start shows every line typed, and after a hang-up or SIGTERM the half-typed one",
        arguments: [SIGKILL, SIGHUP, SIGTERM]
    )
    func killedMidDraft(_ signal: Int32) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.file("state")
        let child = try Self.interactive(state: state, history: scratch.file("history"))
        try await Self.writeDraft(child)
        let half = "half typed, never entered"
        if signal != SIGKILL {
            child.send(bytes: Data(half.utf8))
            try #require(await child.waitForOutput { $0.hasSuffix(half) }, "the half-typed line was not echoed")
        }
        kill(child.processIdentifier, signal)
        let exit = await child.finish()
        #expect(!exit.timedOut)
        if signal != SIGKILL { #expect(exit.status == 128 + signal, "\(exit.stderr)") }

        let (listing, shown) = try await Self.keptDraft(state: state)
        #expect(listing.hasPrefix("1. \"Frogs counted at dawn"), "one draft, with what was typed: \(listing)")
        #expect(!listing.contains("\n2. "), "one draft only: \(listing)")
        for line in Self.lines { #expect(shown.contains("  " + line + "\n"), "\(line) is kept, on its own line: \(shown)") }
        if signal != SIGKILL { #expect(shown.contains("  " + half + "\n"), "the half-typed line is kept too: \(shown)") }
    }

    @Test("the terminal closes mid-draft (reads end): the draft is kept and the session ends with status 0; the next start shows every line")
    func terminalClosed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.file("state")
        let child = try Self.interactive(state: state, history: scratch.file("history"))
        try await Self.writeDraft(child)
        child.hangUp()
        let exit = await child.finish()
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        let (_, shown) = try await Self.keptDraft(state: state)
        for line in Self.lines { #expect(shown.contains("  " + line + "\n"), "\(line) is kept: \(shown)") }
    }

    @Test("Ctrl-D at compose> keeps the draft and goes back to the screen's prompt; the session goes on")
    func ctrlDKeepsTheDraft() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let child = try Self.interactive(state: scratch.file("state"), history: scratch.file("history"))
        try await Self.writeDraft(child)
        child.send(bytes: Data([4]))
        let back = await child.waitForOutput { output in
            guard let kept = output.range(of: "Draft kept", options: .backwards) else { return false }
            return output[kept.upperBound...].contains("home> ")
        }
        #expect(back, "Ctrl-D did not keep the draft and show home>: \(String(decoding: child.stdout, as: UTF8.self).suffix(400))")
        #expect(await Self.enter("drafts", into: child, prompt: "home"))
        let output = String(decoding: child.stdout, as: UTF8.self)
        #expect(output.components(separatedBy: "drafts\r\n").last?.contains("1. \"Frogs counted at dawn") == true, "\(output.suffix(400))")
        child.send("quit")
        let exit = await child.finish()
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        #expect(String(decoding: child.stdout, as: UTF8.self).contains("1 draft kept"))
    }

    @Test("the history file holds the commands typed, never a draft's lines nor the text of post TEXT")
    func historyHoldsNoDraft() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let history = scratch.file("history")
        let child = try Self.interactive(state: scratch.file("state"), history: history)
        try await Self.writeDraft(child)
        try #require(await Self.enter(".cw frogs", into: child))
        child.send(bytes: Data(".\r".utf8))
        try #require(await child.waitForOutput { $0.contains("Posted: \"Frogs counted at dawn") }, "the draft was not posted")
        child.send(bytes: Data("post an inline secret\r".utf8))
        try #require(await child.waitForOutput { $0.contains("Posted: \"an inline secret\"") }, "the inline post was not posted")
        try #require(await Self.enter("where", into: child, prompt: "home"))
        child.send("quit")
        let exit = await child.finish()
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        let saved = try String(contentsOf: history, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(saved == ["post", "where", "quit"], "\(saved)")
    }

    @Test("piped input that ends mid-draft: every line is kept for the next start (quit says so, truthfully)")
    func pipedInputEndsMidDraft() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.file("state")
        let (exit, output) = try await FeedlineProcess.runScript(["--state", state.path] + Self.flags, input: "post\n" + Self.lines.joined(separator: "\n") + "\n")
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        #expect(output.contains("1 draft kept"), "\(output.suffix(300))")
        let (_, shown) = try await Self.keptDraft(state: state)
        for line in Self.lines { #expect(shown.contains("  " + line + "\n"), "\(line) is kept: \(shown)") }
    }
}

extension FeedlineProcess {
    /// Runs `feedline arguments…` with `input` on standard input (then its end), to its end.
    static func runScript(_ arguments: [String], input: String) async throws -> (exit: Exit, output: String) {
        let child = try FeedlineProcess(arguments, unset: ["VISUAL", "EDITOR"])
        child.send(bytes: Data(input.utf8))
        child.closeInput()
        let exit = await child.finish()
        return (exit, String(decoding: child.stdout, as: UTF8.self))
    }
}
