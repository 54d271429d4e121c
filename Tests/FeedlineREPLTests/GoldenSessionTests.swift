import Feedline
import FeedlineMastodon
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// Replays every `Fixtures/sessions/*.feedline` script and compares the transcript with the
/// `.transcript` file beside it, byte for byte. With `FEEDLINE_RECORD=1` the transcripts are
/// rewritten and the test fails, so the new ones are reviewed before they are committed.
@MainActor
@Suite("Golden sessions", .timeLimit(.minutes(10)))
struct GoldenSessionTests {
    /// A script's first line, `# args: --fixtures DIR --now DATE --width N --page-size N`.
    nonisolated struct Header {
        var fixtures = "Fixtures/timeline"
        var now = Date(timeIntervalSince1970: 1_795_284_000)
        var options = REPLDriver.Options()

        init(_ script: String) {
            guard let first = script.split(separator: "\n").first, first.hasPrefix("# args:") else { return }
            let words = first.dropFirst("# args:".count).split(separator: " ").map(String.init)
            var index = 0
            while index + 1 < words.count {
                let value = words[index + 1]
                switch words[index] {
                case "--fixtures": fixtures = value
                case "--now": now = ISO8601DateFormatter().date(from: value) ?? now
                case "--width": options.width = Int(value) ?? options.width
                case "--page-size": options.pageSize = Int(value) ?? options.pageSize
                default: break
                }
                index += 2
            }
        }
    }

    nonisolated static let scripts: [String] = {
        guard let directory = try? PackagePaths.fixtures("sessions"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".feedline") }.sorted()
    }()

    static func transcript(of name: String) async throws -> String {
        let directory = try PackagePaths.fixtures("sessions")
        let script = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let header = Header(script)
        var options = header.options
        options.sourceSummary = ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: header.fixtures)).summary
        // As `feedline --script` runs it.
        options.announcesUnread = true
        options.missingRepliesReason = DetailRenderer.sandboxMissingRepliesReason
        // As `feedline --script` runs them: effects on the main queue, so two answers due at the
        // same virtual instant (a retried favourite and a thread load) arrive in request order.
        let session = try SessionFactory.session(
            try PackagePaths.root().appendingPathComponent(header.fixtures), now: header.now, executor: MainQueueTaskExecutor())
        if let stream = SandboxStream(session) { options.afterCommand = { stream.commandHandled() } }
        options = SandboxIdentitySwitching.options(
            options, session: session, directory: try PackagePaths.root().appendingPathComponent(header.fixtures), given: header.fixtures, now: header.now
        )
        return await ScriptRunner.transcript(of: script, session: session, options: options)
    }

    @Test("there are at least the four sessions the REPL issue asks for")
    func sessionsExist() {
        #expect(Set(["tour.feedline", "failures.feedline", "refresh-gap.feedline", "bad-input.feedline"]).isSubset(of: Set(Self.scripts)))
    }

    @Test("each session's transcript matches its golden file", arguments: scripts)
    func golden(_ name: String) async throws {
        let transcript = try await Self.transcript(of: name)
        let golden = try PackagePaths.fixtures("sessions").appendingPathComponent(name.replacingOccurrences(of: ".feedline", with: ".transcript"))
        if ProcessInfo.processInfo.environment["FEEDLINE_RECORD"] == "1" {
            try Data(transcript.utf8).write(to: golden)
            Issue.record("Recorded \(golden.lastPathComponent); review it, then run the tests without FEEDLINE_RECORD.")
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        if transcript != expected {
            let got = transcript.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            let gotLine = line < got.count ? String(got[line]) : "<end>"
            let wantLine = line < want.count ? String(want[line]) : "<end>"
            Issue.record("\(name) differs at line \(line + 1):\n  expected: \(wantLine)\n  actual:   \(gotLine)\n(FEEDLINE_RECORD=1 re-records)")
        }
    }

    /// As a user runs them: `feedline --script FILE` and nothing else (the script's `# args:`
    /// line carries its flags), three times each — a clock that is real somewhere in the binary
    /// shows as a run that differs.
    @Test("the built binary replays each session byte for byte, three times", arguments: scripts)
    func goldenBinary(_ name: String) async throws {
        let path = "Fixtures/sessions/" + name
        let expected = try String(
            contentsOf: PackagePaths.fixtures("sessions").appendingPathComponent(name.replacingOccurrences(of: ".feedline", with: ".transcript")),
            encoding: .utf8
        )
        for run in 1...3 {
            let ending = try await Child.run(["--script", path])
            #expect(!ending.timedOut && ending.status == 0, "\(name), run \(run): \(ending)")
            if ending.output != expected {
                let got = ending.output.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
                Issue.record(
                    "\(name), run \(run), differs at line \(line + 1):\n  expected: \(line < want.count ? String(want[line]) : "<end>")\n  actual:   \(line < got.count ? String(got[line]) : "<end>")"
                )
                return
            }
        }
    }

    @Test("the same script gives a byte-identical transcript every run")
    func deterministic() async throws {
        let first = try await Self.transcript(of: "tour.feedline")
        let second = try await Self.transcript(of: "tour.feedline")
        #expect(first == second)
        #expect(!first.isEmpty)
    }
}
