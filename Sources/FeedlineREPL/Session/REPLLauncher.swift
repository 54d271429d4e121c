import Feedline
import FeedlineMastodon
import Foundation

/// Everything the command line decides, already validated.
public struct REPLConfiguration: Sendable {
    /// The fixture directory; `nil` for the bundled `Fixtures/timeline`. Ignored with `server`.
    public var fixtures: URL?
    /// A Mastodon-API server's address; `nil` for the sandbox.
    public var server: String?
    /// The server's timeline (`home`, `public`, `local`, `tag:NAME`); `nil` for home.
    public var timeline: String?
    /// A file holding the server's access token; `nil` to use `FEEDLINE_TOKEN`.
    public var tokenFile: String?
    /// Posts per page request; `nil` for the fixture scenario's (sandbox) or 20.
    public var postsPerPage: Int?
    /// A script to run instead of reading standard input.
    public var script: URL?
    /// Rows per screen.
    public var pageSize: Int
    /// Columns; `nil` for the terminal's width (80 when not a terminal).
    public var width: Int?
    /// Whether colour may be used (it still needs a terminal and no `NO_COLOR`).
    public var color: Bool
    /// The history file; `nil` for `~/.feedline_history`.
    public var historyFile: String?
    /// The clock's "now"; `nil` for the system clock.
    public var now: Date?

    /// A configuration; every value has the command line's default.
    public init(
        fixtures: URL? = nil, server: String? = nil, timeline: String? = nil, tokenFile: String? = nil,
        postsPerPage: Int? = nil, script: URL? = nil, pageSize: Int = 10, width: Int? = nil, color: Bool = true,
        historyFile: String? = nil, now: Date? = nil
    ) {
        self.fixtures = fixtures
        self.server = server
        self.timeline = timeline
        self.tokenFile = tokenFile
        self.postsPerPage = postsPerPage
        self.script = script
        self.pageSize = pageSize
        self.width = width
        self.color = color
        self.historyFile = historyFile
        self.now = now
    }
}

extension REPLConfiguration {
    /// The clock dates are told by: fixed at ``now`` when given, else the system's.
    public var wallClock: WallClock { now.map { WallClock.fixed($0) } ?? .system }
}

/// Why a session could not start: one sentence for standard error.
public struct REPLStartError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    public init(description: String) { self.description = description }
}

/// Wires a configuration to a session and runs it: a script or piped standard input (virtual
/// clock, effects settled after every command), or the interactive readline console (real clock,
/// changes shown as they arrive).
@MainActor
public enum REPLLauncher {
    /// Runs the session; returns the exit status (0 at `quit` or end of input; 1 with a sentence on
    /// standard error when the fixtures or the script cannot be read; 128 + the signal's number
    /// when SIGTERM or SIGHUP ended an interactive session).
    public static func run(_ configuration: REPLConfiguration) async -> Int32 {
        do {
            return try await start(configuration)
        } catch let error as REPLStartError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data((String(describing: error) + "\n").utf8))
            return 1
        }
    }

    private static func start(_ configuration: REPLConfiguration) async throws -> Int32 {
        let choice = try serviceChoice(configuration)
        let wallClock = configuration.wallClock
        let interactive = configuration.script == nil && TerminalInfo.inputIsTerminal
        let options = REPLDriver.Options(
            pageSize: configuration.pageSize,
            width: configuration.width ?? TerminalInfo.columns,
            style: Style(color: configuration.color && TerminalInfo.wantsColor()),
            live: interactive,
            sourceSummary: choice.summary
        )
        var scriptLines: [String]?
        if let script = configuration.script {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: script.path, isDirectory: &isDirectory)
            if exists, isDirectory.boolValue {
                throw REPLStartError(description: "The script path \(script.path) is a directory, not a file.")
            }
            guard exists else {
                throw REPLStartError(description: "The script file \(script.path) does not exist.")
            }
            guard let data = FileManager.default.contents(atPath: script.path) else {
                throw REPLStartError(description: "The script file \(script.path) could not be read.")
            }
            scriptLines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        // Scripts on the sandbox run on virtual time (instant, deterministic); a server is real time.
        let clock: any Clock<Duration> = interactive || choice.isRemote ? ContinuousClock() : VirtualClock()
        let service: any FeedService
        do {
            service = try choice.makeService(postsPerPage: configuration.postsPerPage, clock: clock, wallClock: wallClock)
        } catch {
            throw REPLStartError(description: error.description)
        }
        // Scripts on the sandbox do everything on the main thread: keep the service calls there
        // too, rather than waking a pool thread for each one.
        let executor: (any TaskExecutor)? = interactive || choice.isRemote ? nil : MainQueueTaskExecutor()
        let session = FeedSession(service: service, clock: wallClock, executor: executor)
        let write: @MainActor (String) -> Void = { text in FileHandle.standardOutput.write(Data(text.utf8)) }
        if let scriptLines {
            // The runner's own waits (settling after each command) resume on the same queue too.
            await withTaskExecutorPreference(executor) {
                await ScriptRunner.run(lines: scriptLines, session: session, options: options, write: write)
            }
        } else if !interactive {
            let input = AnySequence { AnyIterator { readLine(strippingNewline: true) } }
            await withTaskExecutorPreference(executor) {
                await ScriptRunner.run(lines: input, session: session, options: options, write: write)
            }
        } else {
            return await InteractiveRunner.run(session: session, options: options, historyFile: historyPath(configuration.historyFile))
        }
        return 0
    }

    /// Where the posts come from: the server when one is given, else the fixture directory (the
    /// bundled one by default).
    public static func serviceChoice(_ configuration: REPLConfiguration) throws(REPLStartError) -> ServiceChoice {
        if let server = configuration.server {
            return .server(address: server, timeline: configuration.timeline, tokenFile: configuration.tokenFile)
        }
        guard let directory = configuration.fixtures ?? FixtureLocator.bundled() else {
            throw REPLStartError(description: "The bundled fixtures were not found; pass --fixtures DIR.")
        }
        return .sandbox(fixtures: directory)
    }

    private static func historyPath(_ given: String?) -> String {
        if let given { return given }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".feedline_history").path
    }
}
