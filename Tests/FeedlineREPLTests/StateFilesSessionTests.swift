import FeedlineTestSupport
import Foundation
import Testing

/// The binary's state files (issue 32): private, and never reported kept when they were not
/// written — a `--state` directory others could read is made 0700 (and said), the files in it
/// are 0600 while the session runs, and a state directory that cannot be written is said once
/// while quit says the draft is not kept, without contradicting itself.
@MainActor
@Suite("feedline's state files: private, and kept only when written", .timeLimit(.minutes(10)))
struct StateFilesSessionTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--no-stream"]

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test("--state DIR readable by others is made 0700, and said on standard error; the file, -wal and -shm are 0600 while it runs")
    func stateIsPrivate() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.file("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let child = try FeedlineProcess(["--state", state.path] + Self.flags)
        child.send("where")
        try #require(await child.waitForOutput { $0.contains("home> where\nhome\n") }, "no answer to where")
        let file = state.appendingPathComponent("sandbox.sqlite").path
        for path in [file, file + "-wal", file + "-shm"] {
            #expect(Self.mode(path) == 0o600, "\(path) is \(String(Self.mode(path) ?? 0, radix: 8)) while the session runs")
        }
        #expect(Self.mode(state.path) == 0o700)
        child.send("quit")
        child.closeInput()
        let exit = await child.finish()
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(exit.stderr == "Made the state directory \(state.path) (mode 755, now 700) private: others could read your drafts and timeline there.\n")
    }

    @Test("a state directory that cannot be written: said once on standard error, and quit says the draft is not kept (never that it is, nor that --state would keep it)")
    func readOnlyStateDirectory() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The scratch directory is private; the child (nobody, when the tests run as root) must reach into it.
        chmod(scratch.url.path, 0o755)
        let state = scratch.file("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
        defer { chmod(state.path, 0o700) }
        let child = try FeedlineProcess(["--state", state.path] + Self.flags, unset: ["VISUAL", "EDITOR"], unprivileged: true)
        child.send(bytes: Data("post\nA line for later.\n.back\nquit\n".utf8))
        child.closeInput()
        let exit = await child.finish()
        let output = String(decoding: child.stdout, as: UTF8.self)
        #expect(exit.status == 0 && !exit.timedOut, "\(exit.stderr)")
        let both = exit.stderr + output
        #expect(both.components(separatedBy: "cannot be written").count == 2, "said once: \(exit.stderr)")
        #expect(exit.stderr.contains("This session runs without saved state."), "\(exit.stderr)")
        #expect(output.contains("1 draft not kept: the state file could not be used (said at the start)."), "\(output.suffix(300))")
        #expect(!output.contains("draft kept"), "\(output.suffix(300))")
        #expect(!output.contains("--state DIR would"), "\(output.suffix(300))")
    }
}
