import FeedlineREPL
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
        let output = Pipe()
        let nothing = FileHandle(forReadingAtPath: "/dev/null")
        let process = try ChildProcess.tool(
            ["python3", root.appendingPathComponent("Scripts/\(name)").path, try PackagePaths.binary().path, root.path] + arguments,
            environment: [childRequestTimeout.name: childRequestTimeout.seconds].merging(environment) { _, given in given }, standardInput: nothing?.fileDescriptor ?? 0,
            standardOutput: output.fileHandleForWriting.fileDescriptor, standardError: output.fileHandleForWriting.fileDescriptor)
        try? nothing?.close()
        // The write end is the script's alone: reading to the end waits for the script's exit.
        try? output.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        return await offPool {
            let text = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            let ending = process.waitUntilExit(timeout: Double(Deadlines.process.components.seconds))
            try? reader.close()
            return Result(output: text, status: ending?.status ?? -1)
        }
    }
}
