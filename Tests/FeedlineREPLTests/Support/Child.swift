import FeedlineTestSupport
import FeedlineREPL
import Foundation

/// The built `feedline` binary run as a child process with a time limit: standard input from
/// bytes (or a pipe the test keeps), standard output and error into files, so nothing the child
/// writes can fill a pipe and stall it. Every wait runs off the concurrency pool (``offPool(_:_:)``).
// @unchecked: the file handles are touched by one test at a time, each wait on one thread.
final class Child: @unchecked Sendable {
    /// How a run ended.
    struct Ending: CustomStringConvertible, Sendable {
        /// The exit status, or the signal's number when a signal ended the process.
        var status: Int32
        /// Whether a signal (not `exit`) ended the process.
        var signalled: Bool
        /// Whether the time limit was reached (the child was then killed).
        var timedOut: Bool
        var stdout: Data
        var stderr: Data

        var output: String { String(decoding: stdout, as: UTF8.self) }
        var errors: String { String(decoding: stderr, as: UTF8.self) }

        var description: String {
            "status \(status)\(signalled ? " (signal)" : "")\(timedOut ? " TIMED OUT" : ""), stderr: \(errors.debugDescription), "
                + "stdout ends: \(String(output.suffix(300)).debugDescription)"
        }
    }

    let process: ChildProcess
    private let scratch: Scratch
    /// The write end of standard input when the test feeds it itself (``start(_:keepingInputOpen:)``).
    private(set) var input: FileHandle?
    /// Every handle this side opened for the child; closed once it has ended (letting them go
    /// is not enough while the test keeps the child: a suite of hundreds of children would hold
    /// thousands of descriptors).
    private var handles: [FileHandle] = []

    /// Starts `feedline arguments…` in the package root with `NO_COLOR`; standard input is
    /// `stdin` (then end of input), or a pipe left open when `keepingInputOpen`.
    init(_ arguments: [String], stdin: Data = Data(), keepingInputOpen: Bool = false, environment extra: [String: String] = [:]) throws {
        scratch = try Scratch()
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // No config file or stored account of the developer's reaches the test.
        environment["XDG_CONFIG_HOME"] = isolatedConfigHome()
        environment[childRequestTimeout.name] = childRequestTimeout.seconds
        environment.merge(extra) { _, given in given }
        _ = FileManager.default.createFile(atPath: scratch.file("out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.file("err").path, contents: nil)
        let output = try FileHandle(forWritingTo: scratch.file("out"))
        let errors = try FileHandle(forWritingTo: scratch.file("err"))
        handles = [output, errors]
        let standardInput: FileHandle
        if keepingInputOpen {
            let pipe = Pipe()
            standardInput = pipe.fileHandleForReading
            input = pipe.fileHandleForWriting
            handles += [pipe.fileHandleForReading, pipe.fileHandleForWriting]
        } else {
            try stdin.write(to: scratch.file("in"))
            standardInput = try FileHandle(forReadingFrom: scratch.file("in"))
            handles.append(standardInput)
        }
        process = try ChildProcess(
            executable: try PackagePaths.binary().path, arguments: arguments, environment: environment,
            directory: try PackagePaths.root().path, standardInput: standardInput.fileDescriptor,
            standardOutput: output.fileDescriptor, standardError: errors.fileDescriptor)
        // The read end of standard input is the child's alone: its input ends when the test closes `input`.
        if keepingInputOpen { try? standardInput.close() }
    }

    /// Runs to the end (or the time limit) and returns how it ended.
    static func run(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], timeout: Double = Deadlines.event) async throws -> Ending {
        let child = try Child(arguments, stdin: stdin, environment: environment)
        return await child.wait(timeout: timeout)
    }

    /// What the child has written to standard output so far.
    var outputSoFar: String {
        String(decoding: (try? Data(contentsOf: scratch.file("out"))) ?? Data(), as: UTF8.self)
    }

    /// Waits until standard output contains `text`, or the time limit.
    func waitForOutput(_ text: String, timeout: Double = Deadlines.event) async -> Bool {
        await waitForOutput(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until standard output so far satisfies `done` (the only wait besides the end: it
    /// reads the output file each time it has given the child a moment to end), or the time limit.
    func waitForOutput(timeout: Double = Deadlines.event, until done: @escaping @Sendable (String) -> Bool) async -> Bool {
        await offPool { self.blockingWaitForOutput(timeout: timeout, until: done) }
    }

    private func blockingWaitForOutput(timeout: Double, until done: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if done(outputSoFar) { return true }
            if process.waitUntilExit(timeout: 0.02) != nil { return done(outputSoFar) }
        }
        return false
    }

    /// Waits for the child to end, at most `timeout` seconds (then kills it), and collects its output.
    func wait(timeout: Double = Deadlines.event) async -> Ending {
        await offPool { self.blockingWait(timeout: timeout) }
    }

    private func blockingWait(timeout: Double) -> Ending {
        var timedOut = false
        var ended = process.waitUntilExit(timeout: timeout)
        if ended == nil {
            timedOut = true
            process.send(SIGKILL)
            ended = process.waitUntilExit(timeout: 30)
        }
        for handle in handles { try? handle.close() }
        handles = []
        let ending = Ending(
            status: ended?.status ?? -1,
            signalled: ended?.signalled ?? false,
            timedOut: timedOut,
            stdout: (try? Data(contentsOf: scratch.file("out"))) ?? Data(),
            stderr: (try? Data(contentsOf: scratch.file("err"))) ?? Data()
        )
        scratch.remove()
        return ending
    }
}
