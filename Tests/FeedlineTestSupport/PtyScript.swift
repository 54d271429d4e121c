import Foundation

/// A pexpect script under `Scripts/` that drives the built binary under a pseudo-terminal:
/// `python3 Scripts/<name> BINARY ROOT arguments…`, its standard output and error read together
/// once it has exited. The scripts print "ok" as their last line when every check passed.
public enum PtyScript {
    /// What the script printed and how it exited.
    public struct Result: Sendable {
        public var output: String
        public var status: Int32
    }

    /// Runs `Scripts/<name>` with `arguments` after the binary and the package root, with
    /// `environment` added to this process's; waits off the concurrency pool.
    public static func run(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> Result {
        let root = try PackagePaths.root()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Scripts/\(name)").path, try PackagePaths.binary().path, root.path] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // @unchecked: the Process is only read once it has exited, on this one waiting thread.
        struct Waiting: @unchecked Sendable { let process: Process; let reader: FileHandle }
        let waiting = Waiting(process: process, reader: output.fileHandleForReading)
        return await offPool {
            let text = String(decoding: waiting.reader.readDataToEndOfFile(), as: UTF8.self)
            waiting.process.waitUntilExit()
            return Result(output: text, status: waiting.process.terminationStatus)
        }
    }
}
