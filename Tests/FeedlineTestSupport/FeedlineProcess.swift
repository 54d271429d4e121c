import Feedline
import FeedlineREPL
import Foundation

/// The built `feedline` binary as a child process a test converses with: standard input stays
/// open for writing, standard output is read on a thread of its own and handed out line by line,
/// so the test awaits output without blocking a thread of the concurrency pool (the fake server
/// may run on that pool). A watchdog kills the child at its deadline, which ends its output, so a
/// hung child fails the test instead of hanging it.
///
/// Shared by the test targets through the FeedlineTestSupport target.
@MainActor
public final class FeedlineProcess {
    /// How the child ended.
    public struct Exit: Sendable {
        public var status: Int32
        public var stderr: String
        /// The watchdog killed it.
        public var timedOut: Bool
    }

    /// Shared with the reader threads, the termination handler and the watchdog.
    private final class Shared: Sendable {
        struct State {
            var exited = false
            var timedOut = false
        }
        let state = Locked(State())
    }

    private let process: ChildProcess
    private let input: Pipe
    /// The pseudo-terminal the child reads and writes, when it runs in one.
    private let terminal: PseudoTerminal?
    private let shared: Shared
    private var chunks: AsyncStream<Data>.AsyncIterator
    private let errors: AsyncStream<Data>
    private let exits: AsyncStream<Int32>
    private var buffer = Data()
    private var outputEnded = false
    /// Every byte the child wrote on standard output so far.
    public private(set) var stdout = Data()

    /// Starts `feedline arguments…` in the package root with `NO_COLOR=1`, `environment` added
    /// and the `unset` variables removed from this process's environment. Unless `environment`
    /// names one, `XDG_CONFIG_HOME` points at a directory that does not exist
    /// (``isolatedConfigHome()``), so the developer's own accounts and config file never reach a test.
    /// With `terminal`, standard input and output are a pseudo-terminal (the interactive REPL
    /// runs; output lines end in CR LF); standard error stays a pipe. With `unprivileged`, a
    /// test running as root runs the child as `nobody`, so that file permissions apply to it.
    public init(
        _ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
        deadline: Duration = Deadlines.process, terminal: Bool = false, unprivileged: Bool = false
    ) throws {
        // Writing to a child that has exited must fail the write, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        self.input = input
        let shared = Shared()
        self.shared = shared
        let executable: String
        let fullArguments: [String]
        if unprivileged, geteuid() == 0 {
            // Root writes where permissions say no: the child runs as nobody (util-linux's setpriv).
            executable = "/usr/bin/setpriv"
            fullArguments = ["--reuid=65534", "--regid=65534", "--clear-groups", try PackagePaths.binary().path] + arguments
        } else {
            executable = try PackagePaths.binary().path
            fullArguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = "1"
        for name in unset { merged[name] = nil }
        merged["XDG_CONFIG_HOME"] = isolatedConfigHome()
        merged[childRequestTimeout.name] = childRequestTimeout.seconds
        merged.merge(environment) { _, new in new }
        let output = Pipe()
        let errorPipe = Pipe()
        let pty = terminal ? try PseudoTerminal() : nil
        self.terminal = pty

        let (chunkStream, chunkSink) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .unbounded)
        let (errorStream, errorSink) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .unbounded)
        let (exitStream, exitSink) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .unbounded)
        chunks = chunkStream.makeAsyncIterator()
        errors = errorStream
        exits = exitStream
        process = try ChildProcess(
            executable: executable, arguments: fullArguments, environment: merged, directory: try PackagePaths.root().path,
            standardInput: pty?.terminal ?? input.fileHandleForReading.fileDescriptor,
            standardOutput: pty?.terminal ?? output.fileHandleForWriting.fileDescriptor,
            standardError: errorPipe.fileHandleForWriting.fileDescriptor
        ) { ending in
            shared.state.withLock { $0.exited = true }
            exitSink.yield(ending.status)
            exitSink.finish()
        }
        // The child's ends of the pipes are the child's alone now: its output ends when it exits.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        if let pty {
            pty.closeTerminalSide()
            pty.drain(into: chunkSink)
        } else {
            Self.drain(output.fileHandleForReading, into: chunkSink, name: "stdout")
        }
        Self.drain(errorPipe.fileHandleForReading, into: errorSink, name: "stderr")

        // The watchdog signals through the spawned process, which never signals a reaped pid.
        let process = process
        let seconds = Double(deadline.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            let killed = shared.state.withLock { state in
                guard !state.exited else { return false }
                state.timedOut = true
                return true
            }
            if killed { process.send(SIGKILL) }
        }
    }

    deinit {
        terminal?.hangUp()
        // The write end of standard input is closed here, not left to the pipe's deallocation (a
        // suite of hundreds of children would otherwise hold thousands of descriptors a while).
        try? input.fileHandleForWriting.close()
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Reads `handle` to its end on a dedicated thread, yielding each chunk.
    private nonisolated static func drain(_ handle: FileHandle, into sink: AsyncStream<Data>.Continuation, name: String) {
        let thread = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                sink.yield(chunk)
            }
            try? handle.close()
            sink.finish()
        }
        thread.name = "feedline-test.\(name)"
        thread.start()
    }

    /// Writes `line` and a newline to the child's standard input.
    public func send(_ line: String) {
        send(bytes: Data((line + "\n").utf8))
    }

    /// Writes raw bytes to the child's standard input.
    /// A child that already exited makes this a no-op (SIGPIPE is ignored in the test process).
    public func send(bytes: Data) {
        if let terminal {
            terminal.type(bytes)
        } else {
            try? input.fileHandleForWriting.write(contentsOf: bytes)
        }
    }

    /// Hangs up the child's terminal, as closing a terminal window does: its reads end and what
    /// it prints goes nowhere; ``stdout`` ends here. Without a terminal, closes standard input.
    public func hangUp() {
        if let terminal {
            terminal.hangUp()
        } else {
            try? input.fileHandleForWriting.close()
        }
    }

    /// Reads standard output until `predicate` holds for everything it printed so far; `false`
    /// when the output ended first.
    public func waitForOutput(where predicate: (String) -> Bool) async -> Bool {
        while !predicate(String(decoding: stdout, as: UTF8.self)) {
            guard !outputEnded else { return false }
            await readChunk()
        }
        return true
    }

    /// Closes the child's standard input (end of input); in a terminal, types Ctrl-D.
    public func closeInput() {
        if terminal != nil {
            send(bytes: Data([4]))
        } else {
            try? input.fileHandleForWriting.close()
        }
    }

    /// Reads standard output until everything it printed so far contains `text`; `false` when
    /// the output ended first.
    public func waitForOutput(containing text: String) async -> Bool {
        while !String(decoding: stdout, as: UTF8.self).contains(text) {
            guard !outputEnded else { return false }
            await readChunk()
        }
        return true
    }

    /// Takes the next chunk of standard output into ``stdout`` and the line buffer.
    private func readChunk() async {
        // A local copy: a main-actor stored iterator cannot be advanced across a suspension.
        var iterator = chunks
        let chunk = await iterator.next(isolation: #isolation)
        chunks = iterator
        if let chunk {
            stdout.append(chunk)
            buffer.append(chunk)
        } else {
            outputEnded = true
        }
    }

    /// The next line of standard output without its newline; `nil` once output has ended (a
    /// last line without a newline is returned first).
    public func nextLine() async -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Data(line)
            }
            if outputEnded {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return buffer
            }
            await readChunk()
        }
    }

    /// Reads standard output to its end, then waits for the child to exit.
    public func finish() async -> Exit {
        while await nextLine() != nil {}
        var errorText = Data()
        for await chunk in errors { errorText.append(chunk) }
        var status: Int32 = -1
        for await value in exits { status = value }
        let timedOut = shared.state.withLock { $0.timedOut }
        return Exit(status: status, stderr: String(decoding: errorText, as: UTF8.self), timedOut: timedOut)
    }

    /// Runs `feedline arguments…` with empty standard input to its end.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], unset: [String] = []
    ) async throws -> (exit: Exit, stdout: String) {
        let child = try FeedlineProcess(arguments, environment: environment, unset: unset)
        child.closeInput()
        let exit = await child.finish()
        return (exit, String(decoding: child.stdout, as: UTF8.self))
    }
}

/// The request timeout a child `feedline` is given (`FEEDLINE_TIMEOUT`, seconds), unless a test
/// names its own: a hang guard, not a speed bar. The binary's default of 20 s is a person's
/// bar; a fake server living in the test process, under ThreadSanitizer with every suite at
/// once on two cores, can wait longer than that for a thread (CI saw a dozen sign-ins and
/// scripted sessions run out at once). No test of the binary waits for a timeout to fire.
public let childRequestTimeout = (name: "FEEDLINE_TIMEOUT", seconds: "600")

/// A fresh path under the temporary directory that does not exist: as `XDG_CONFIG_HOME` it gives
/// a child no config file and no stored accounts.
public func isolatedConfigHome() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("feedline-test-no-config-\(UUID().uuidString)").path
}
