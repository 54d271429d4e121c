import FeedlineTestSupport
import Foundation
import Testing

/// SIGINT to a non-interactive `feedline` (a `--script` run, piped standard input): it ends
/// promptly with status 130 and "Interrupted." on standard error, and the transcript stops at the
/// end of a command's output, never inside it.
@Suite("feedline --script and piped input on SIGINT", .timeLimit(.minutes(10)))
struct ScriptInterruptTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--page-size", "10", "--no-stream"]

    @Test("waiting on a silent input pipe: SIGINT ends it at once with 130")
    func silentPipe() async throws {
        let child = try Child(Self.flags, keepingInputOpen: true)
        #expect(await child.waitForOutput("Rows 1–10 of 20 shown"), "first page: \(child.outputSoFar)")
        child.process.send(SIGINT)
        let run = await child.wait()
        #expect(run.status == 130 && !run.signalled && !run.timedOut, "\(run)")
        #expect(run.errors == "Interrupted.\n")
        #expect(run.output.hasSuffix("Rows 1–10 of 20 shown; more shows the next.\n"), "\(run)")
    }

    @Test("in the middle of a long script: SIGINT stops it after a whole command's output, with 130")
    func longScript() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let script = scratch.file("long.feedline")
        let pairs = 50_000  // far more than can run before the interrupt lands, however fast scripts get
        try Data(String(repeating: "open 1\nback\n", count: pairs).utf8).write(to: script)
        let child = try Child(["--script", script.path] + Self.flags)
        // Wait for an event (20 backs echoed), never for an amount of work to fit in a time window:
        // how many commands run before the interrupt lands depends on the machine's speed.
        let going = await child.waitForOutput { $0.components(separatedBy: "post> back\n").count > 20 }
        #expect(going, "the script got going: \(child.outputSoFar.suffix(500))")
        let echoedBeforeInterrupt = Self.commandCount(child.outputSoFar)
        child.process.send(SIGINT)
        let run = await child.wait()
        #expect(run.status == 130 && !run.signalled && !run.timedOut, "\(run)")
        #expect(run.errors == "Interrupted.\n")
        // Cut into commands (each starts at its echoed prompt): every command of a kind printed
        // the same text, the last one too — so it was not cut off.
        let output = run.output
        var segments: [Substring] = []
        var start = output.startIndex
        for match in output.matches(of: try Regex("(?m)^(home|post)> ")).dropFirst() {
            segments.append(output[start..<match.range.lowerBound])
            start = match.range.lowerBound
        }
        segments.append(output[start...])
        let commands = segments.dropFirst()
        // Every command seen before the interrupt is in the transcript (the one running then too,
        // whole), and the script was stopped well before its end.
        // (`commands` leaves out the first command, which shares its segment with the greeting.)
        #expect(commands.count + 1 >= echoedBeforeInterrupt && commands.count < 2 * pairs,
                "interrupted part way: \(commands.count) commands, \(echoedBeforeInterrupt) echoed before the interrupt")
        let opens = commands.filter { $0.hasPrefix("home> open 1\n") }
        let backs = commands.filter { $0.hasPrefix("post> back\n") }
        #expect(Set(opens).count == 1, "every open printed the same, the last one whole: \(Set(opens).map(\.count))")
        #expect(Set(backs).count <= 1, "every back printed the same")
        #expect(output.hasSuffix("\n"))
    }

    /// The commands echoed in `output` (each starts at its prompt at the start of a line).
    static func commandCount(_ output: String) -> Int {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .count { $0.hasPrefix("home> ") || $0.hasPrefix("post> ") }
    }
}
