@_spi(FeedService) import Feedline
import FeedlineAccounts
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import FeedlineREPL
import FeedlineState
import Foundation

/// Everything the command line decides, already validated.
struct SessionConfiguration: Sendable {
    /// The fixture directory; `nil` for the bundled `Fixtures/timeline`. Ignored with `service`.
    var fixtures: URL?
    /// The server and token chosen (``AccountSelection``); `nil` for the sandbox.
    var service: ServiceChoice?
    /// Posts per page request; `nil` for the fixture scenario's (sandbox) or 20.
    var postsPerPage: Int?
    /// A script to run instead of reading standard input.
    var script: URL?
    /// Rows per screen.
    var pageSize: Int = 10
    /// Columns; `nil` for the terminal's width (80 when not a terminal).
    var width: Int?
    /// Whether colour may be used (it still needs a terminal and no `NO_COLOR`).
    var color: Bool = true
    /// The history file.
    var historyFile: String
    /// The clock's "now"; `nil` for the system clock.
    var now: Date?
    /// Stop a script at its first failed command (exit status 1).
    var bail = false
    /// Live updates (`--no-stream` turns them off): the sandbox scenario's stream events, after each
    /// command, in every mode; a server's stream in the interactive REPL and `--jsonl` only (a
    /// script's transcript must not depend on what a server pushes while it runs).
    var stream = true
    /// Where the session's state is kept (``StateChoice``).
    var state: StateChoice = .none
    /// Where the stored accounts are, for `account NAME`.
    var directory = FeedlineDirectory(environment: [:])
    /// Where the token came from (``AccountSelection/TokenOrigin``): a session whose token was
    /// given by hand does not switch to a stored account's.
    var token = AccountSelection.TokenOrigin.sandbox
    /// `--timeline` (or the config file's); the accounts switched to open it too.
    var timeline: String?
    /// The environment the accounts are chosen with (`FEEDLINE_TOKEN`).
    var environment: [String: String] = [:]

    /// The clock dates are told by: fixed at ``now`` when given, else the system's.
    var wallClock: WallClock { now.map { WallClock.fixed($0) } ?? .system }
}

/// Why a session could not start: one sentence for standard error.
struct StartError: Error, CustomStringConvertible {
    var description: String
}

/// Wires a configuration to a service and a session, and runs a front on it: a script or piped
/// standard input (virtual clock on the sandbox, effects settled after every command), the
/// interactive readline console (real clock, changes shown as they arrive), or the JSON-lines
/// protocol.
@MainActor
enum SessionSetup {
    /// Runs the REPL; returns the exit status (0 at `quit` or end of input; 1 with a sentence on
    /// standard error when the fixtures, the server settings or the script cannot be used; 128 +
    /// the signal's number when SIGTERM or SIGHUP ended an interactive session).
    static func runREPL(_ configuration: SessionConfiguration) async -> Int32 {
        do {
            return try await startREPL(configuration)
        } catch {
            Output.complain(TerminalText(String(describing: error)))
            return 1
        }
    }

    /// The JSON-lines front: the same service and session as the REPL, the protocol on stdin and
    /// stdout. Setup problems go to standard error (stdout carries protocol messages only).
    static func runJSONLines(_ configuration: SessionConfiguration) async -> Int32 {
        // One account at a time: `switchAccount` switches (AccountSessions).
        let sessions = AccountSessions(configuration, mode: .jsonLines)
        let first: AccountSessions.Open
        do {
            first = try await sessions.open(try serviceChoice(configuration))
        } catch {
            Output.complain(TerminalText(String(describing: error)))
            return 1
        }
        let opened = sessions.jsonLines(first)
        await JSONLinesSession.run(
            session: opened.session, lines: StandardInputLines.stream(), keepsState: opened.keepsState, written: opened.written,
            afterCommand: opened.afterCommand, switching: sessions.jsonLinesSwitching()
        ) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        await sessions.close()
        return 0
    }

    private static func startREPL(_ configuration: SessionConfiguration) async throws -> Int32 {
        let choice = try serviceChoice(configuration)
        let interactive = configuration.script == nil && TerminalInfo.inputIsTerminal
        var options = REPLDriver.Options(
            pageSize: configuration.pageSize,
            width: configuration.width ?? TerminalInfo.columns,
            followsTerminal: interactive && configuration.width == nil,
            style: Style(color: configuration.color && TerminalInfo.wantsColor()),
            live: interactive
        )
        options.announcesUnread = true
        let scriptLines = try configuration.script.map(readScript)
        // Scripts on the sandbox do everything on the main thread: keep the service calls there
        // too, rather than waking a pool thread for each one.
        let executor: (any TaskExecutor)? = interactive || choice.isRemote ? nil : MainQueueTaskExecutor()
        // One account at a time: `account NAME` switches (AccountSessions).
        let sessions = AccountSessions(configuration, mode: interactive ? .interactive : .script, executor: executor)
        let first = try await sessions.open(choice)
        options = sessions.options(options, for: first)
        let write: @MainActor (TerminalText) -> Void = { Output.write($0) }
        if scriptLines != nil || !interactive {
            let input: AnySequence<String> = scriptLines.map { AnySequence($0) } ?? AnySequence { AnyIterator { readLine(strippingNewline: true) } }
            // The runner's own waits (settling after each command) resume on the same queue too.
            let outcome = await withTaskExecutorPreference(executor) {
                // A script file on the sandbox waits on nothing outside: its transcript is written in large pieces.
                await ScriptRunner.run(
                    lines: input, session: first.session, options: options, bail: configuration.bail, batched: scriptLines != nil && executor != nil,
                    write: write
                )
            }
            await sessions.close()
            if case .bailed(let line, let command) = outcome {
                let source = configuration.script.map { "\($0.path), line \(line)" } ?? "line \(line) of the input"
                let message = line == 0
                    ? "Stopped before the first command (--bail): loading the first screen failed."
                    : "Stopped at \(source) (--bail): \"\(command)\" failed."
                Output.complain(TerminalText(message))
                return 1
            }
            return 0
        }
        let status = await InteractiveRunner.run(session: first.session, options: options, historyFile: configuration.historyFile)
        await sessions.close()
        return status
    }

    /// The service and a session on it, starting on the configured feed.
    static func makeSession(
        _ choice: ServiceChoice, _ configuration: SessionConfiguration, clock: any Clock<Duration>, retryClock: any Clock<Duration>,
        executor: (any TaskExecutor)?
    ) throws -> FeedSession {
        let wallClock = configuration.wallClock
        do {
            let service = try choice.makeService(postsPerPage: configuration.postsPerPage, clock: clock, wallClock: wallClock)
            return FeedSession(service: service, clock: wallClock, root: try choice.startFeed(), executor: executor, retryClock: retryClock)
        } catch {
            throw StartError(description: error.description)
        }
    }

    /// Live updates for a session on a server, started (the stream, or polling without one);
    /// `nil` on the sandbox or with `--no-stream`. The front shows the session's `streamState`.
    static func startLiveUpdates(_ session: FeedSession, _ configuration: SessionConfiguration) -> MastodonLiveUpdates? {
        guard configuration.stream, let service = session.service as? MastodonHTTPService else { return nil }
        let live = MastodonLiveUpdates(service: service, session: session)
        live.start()
        return live
    }

    /// The lines of a script file, or a sentence saying why it cannot be read.
    private static func readScript(_ script: URL) throws -> [String] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: script.path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue {
            throw StartError(description: "The script path \(script.path) is a directory, not a file.")
        }
        guard exists else {
            throw StartError(description: "The script file \(script.path) does not exist.")
        }
        // Read once, with its header (a pipe, `--script <(…)`, cannot be read twice).
        guard let data = ScriptHeader.text(ofScriptAt: script.path) else {
            throw StartError(description: "The script file \(script.path) could not be read.")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Where the posts come from: the server chosen when there is one, else the fixture directory
    /// (the bundled one by default).
    static func serviceChoice(_ configuration: SessionConfiguration) throws -> ServiceChoice {
        if let service = configuration.service { return service }
        guard let directory = configuration.fixtures ?? FixtureLocator.bundled() else {
            throw StartError(description: "The bundled fixtures were not found; pass --fixtures DIR.")
        }
        return .sandbox(fixtures: directory)
    }
}
