import Feedline
import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

@MainActor
@Suite("Script runner and fixture locator", .timeLimit(.minutes(10)))
struct ScriptRunnerTests {
    @Test("commands are echoed after the prompt of their screen; blank lines are skipped; quit stops")
    func transcriptShape() async throws {
        let session = try SessionFactory.session("faults")
        let script = "  \n# a comment\nopen 1\n\nback\nquit\nlist\n"
        let transcript = await ScriptRunner.transcript(of: script, session: session, options: .init(width: 60))
        let prompts = transcript.split(separator: "\n").filter { $0.hasPrefix("home> ") || $0.hasPrefix("post> ") }
        #expect(prompts == ["home> # a comment", "home> open 1", "post> back", "home> quit"])
        #expect(transcript.hasSuffix("home> quit\n"))
        #expect(session.navigator.depth == 1)
    }

    @Test("every effect settles before the next line is read: nothing is running when a line is pulled")
    func settles() async throws {
        let session = try SessionFactory.session("faults")
        let commands = ["more", "retry", "fav 3", "open 2", "fav", "back", "refresh"]
        var runningWhenRead: [Int] = []
        var iterator = commands.makeIterator()
        let lines = AnySequence {
            AnyIterator { () -> String? in
                MainActor.assumeIsolated { runningWhenRead.append(session.activity.running) }
                return iterator.next()
            }
        }
        // `.ignore`: SIGINT handling is process-wide state, and tests run side by side.
        await ScriptRunner.run(lines: lines, session: session, options: .init(), interrupts: .ignore) { _ in }
        #expect(runningWhenRead == Array(repeating: 0, count: commands.count + 1))
        #expect(session.activity.started > commands.count)
    }

    @Test("a batched transcript is the same text, written in a few large pieces and all of it by the end")
    func batchedTranscript() async throws {
        let script = Array(repeating: ["open 1", "fav", "back", "list"], count: 150).flatMap { $0 } + ["quit"]
        var plain: [String] = []
        await ScriptRunner.run(lines: script, session: try SessionFactory.session("faults"), options: .init(width: 60), interrupts: .ignore) { plain.append($0.text) }
        var batched: [String] = []
        await ScriptRunner.run(lines: script, session: try SessionFactory.session("faults"), options: .init(width: 60), interrupts: .ignore, batched: true) {
            batched.append($0.text)
        }
        #expect(batched.joined() == plain.joined())
        #expect(plain.count > script.count, "unbatched: at least a piece per command")
        let total = plain.joined().utf8.count
        #expect(total > 64 * 1024, "the script writes more than one piece (\(total) bytes)")
        #expect(batched.count <= total / (64 * 1024) + 1, "\(batched.count) pieces for \(total) bytes")
        #expect(batched.dropLast().allSatisfy { $0.utf8.count >= 64 * 1024 })
    }

    @Test("the bundled fixtures are found from the build tree, from the sources, and not under a wrong name")
    func locator() throws {
        let expected = try PackagePaths.fixtures("timeline").standardizedFileURL.path
        #expect(FixtureLocator.bundled(executable: try PackagePaths.binary())?.standardizedFileURL.path == expected)
        #expect(FixtureLocator.bundled(executable: URL(fileURLWithPath: "/nonexistent/bin/feedline"))?.standardizedFileURL.path == expected)
        #expect(FixtureLocator.bundled("faults")?.lastPathComponent == "faults")
        #expect(FixtureLocator.bundled("no-such-fixtures") == nil)
    }
}
