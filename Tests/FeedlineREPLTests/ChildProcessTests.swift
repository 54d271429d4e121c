import FeedlineTestSupport
import FeedlineREPL
import Foundation
import Testing

/// How the REPL (its editor and browser) and the tests start children (``ChildProcess``), which
/// replaced Foundation's `Process` after `Process.run()` crashed CI's test process with ~1,350
/// descriptors open, and after an editor run by it could not read the terminal.
@Suite("Starting a child process")
struct ChildProcessTests {
    /// Runs `/bin/sh -c script` with standard output into a pipe; returns what it printed and how it ended.
    private func shell(_ script: String) async throws -> (output: String, ending: ChildProcess.Ending?) {
        let output = Pipe()
        let nothing = try #require(FileHandle(forReadingAtPath: "/dev/null"))
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
            directory: "/", standardInput: nothing.fileDescriptor,
            standardOutput: output.fileHandleForWriting.fileDescriptor, standardError: output.fileHandleForWriting.fileDescriptor)
        try nothing.close()
        try output.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        return await offPool {
            let text = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            try? reader.close()
            return (text, child.waitUntilExit(timeout: 600))
        }
    }

    @Test("with 1,500 descriptors open here, the child starts, has only 0, 1 and 2, runs in the given directory and environment")
    func manyDescriptors() async throws {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for _ in 0..<1_500 {
            let descriptor = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: the child must close it itself
            try #require(descriptor >= 0)
            opened.append(descriptor)
        }
        // `ls` lists its own descriptors; the one it opened to read the directory is the 4th entry.
        let run = try await shell("pwd; echo \"$PATH\"; ls /proc/self/fd | wc -l")
        #expect(run.ending?.status == 0 && run.ending?.signalled == false, "\(String(describing: run.ending))")
        #expect(run.output.split(separator: "\n") == ["/", "/usr/bin:/bin", "4"], "\(run.output)")
    }

    @Test("an exit status and a signal are told apart")
    func endings() async throws {
        let exited = try await shell("exit 7")
        #expect(exited.ending?.status == 7 && exited.ending?.signalled == false)
        let killed = try await shell("kill -9 $$")
        #expect(killed.ending?.status == SIGKILL && killed.ending?.signalled == true)
    }

    @Test("a missing program is an error that names it, not a crash")
    func missingProgram() throws {
        #expect(throws: ChildProcess.SpawnError.self) {
            _ = try ChildProcess(
                executable: "/nonexistent/feedline-test", arguments: [], environment: [:],
                standardInput: 0, standardOutput: 1, standardError: 2)
        }
    }
}
