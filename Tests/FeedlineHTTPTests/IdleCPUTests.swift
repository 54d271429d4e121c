import FeedlineTestSupport
import Foundation
import Testing

/// An idle session costs next to nothing: the built binary, left alone against the fake server,
/// uses under 0.3 s of processor time in 10 s — with the user stream open, with a request the
/// server never answers, with nothing going on, and in `--jsonl`.
///
/// The 10 s are real time, because they are what is measured: the bound is on processor time
/// spent during them, which a busy or slow machine only makes smaller. Everything before the
/// window waits for an event (the stream open, the request received, a line shown), never for
/// time to pass. Over URLSession on Linux the three with something awaited spent 5.6-7.9 s.
@MainActor
@Suite("An idle session's processor time", .timeLimit(.minutes(10)))
struct IdleCPUTests {
    /// The window measured, and the processor time allowed in it.
    static let window: Duration = .seconds(10)
    static let allowance = 0.3

    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The interactive REPL with the user stream open and silent.
        case streamOpen
        /// The interactive REPL without live updates, its first page asked for and never answered.
        case requestHanging
        /// The interactive REPL without live updates, the timeline shown, nothing happening.
        case nothing
        /// `--jsonl` with the user stream open and silent, standard input open and silent.
        case jsonLines

        var testDescription: String {
            switch self {
            case .streamOpen: "the REPL with the stream open"
            case .requestHanging: "the REPL with a request the server never answers"
            case .nothing: "the REPL with nothing going on"
            case .jsonLines: "--jsonl with the stream open"
            }
        }
    }

    @Test("an idle session uses under 0.3 s of processor time in 10 s", arguments: Scenario.allCases)
    func idle(_ scenario: Scenario) async throws {
        try await withFakeServer { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            var arguments = ["--server", fake.baseURL, "--no-state", "--width", "80", "--history", scratch.file("history").path]
            switch scenario {
            case .streamOpen, .jsonLines:
                fake.serveStream()
            case .requestHanging:
                arguments.append("--no-stream")
                fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: "[]", delay: .seconds(3600)))
            case .nothing:
                arguments.append("--no-stream")
            }
            if scenario == .jsonLines { arguments = ["--jsonl", "--server", fake.baseURL, "--no-state"] }
            let child = try FeedlineProcess(
                arguments, environment: ["FEEDLINE_TOKEN": secretToken, "XDG_STATE_HOME": scratch.file("state").path],
                terminal: scenario != .jsonLines
            )

            // Idle from here on: what the scenario is waiting in has happened.
            switch scenario {
            case .streamOpen:
                await fake.waitForStreams(1)
                #expect(await child.waitForOutput(containing: "Live:"))
            case .jsonLines:
                await fake.waitForStreams(1)
                #expect(await child.waitForOutput(containing: #""state":"live""#))
            case .requestHanging:
                await fake.waitForRequest { $0.path == "/api/v1/timelines/home" }
                #expect(await child.waitForOutput(containing: "home>"))
            case .nothing:
                #expect(await child.waitForOutput(containing: "home>"))
            }

            let pid = child.processIdentifier
            let before = try #require(ProcessCPU.seconds(of: pid))
            try await Task.sleep(for: Self.window)
            let after = try #require(ProcessCPU.seconds(of: pid))
            let used = after - before
            #expect(used < Self.allowance, "\(scenario): \(used) s of processor time in \(Self.window)")

            if scenario == .jsonLines {
                child.closeInput()
            } else {
                child.send("quit")
            }
            let exit = await child.finish()
            #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        }
    }
}
