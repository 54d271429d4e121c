import FeedlineTestSupport
import Foundation
import Testing

/// `feedline login` under a pseudo-terminal (`Scripts/login-pty-smoke.py`, pexpect), against the
/// fake OAuth server: the prompt, an empty line asked again, the code typed, then the REPL on the
/// stored account with its history file named by config.toml, and the token on neither the
/// terminal (all that both children wrote) nor the history file nor config.toml.
@Suite("feedline login in a terminal", .timeLimit(.minutes(10)))
struct LoginTerminalTests {
    @Test("typing the code at the Code: prompt signs in; the interactive REPL then reads the home timeline")
    func typingTheCode() async throws {
        try await withFakeServer(token: nil) { fake, _ in
            fake.signInBrowser(as: "alice")
            let scratch = try Scratch()
            defer { scratch.remove() }
            let root = try PackagePaths.root()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", root.appendingPathComponent("Scripts/login-pty-smoke.py").path, try PackagePaths.binary().path, root.path,
                fake.baseURL, scratch.url.path,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            // @unchecked: the Process is only read once it has exited, on this one waiting thread.
            struct Waiting: @unchecked Sendable { let process: Process; let reader: FileHandle }
            let waiting = Waiting(process: process, reader: output.fileHandleForReading)
            let (text, status) = await offPool {
                let text = String(decoding: waiting.reader.readDataToEndOfFile(), as: UTF8.self)
                waiting.process.waitUntilExit()
                return (text, waiting.process.terminationStatus)
            }
            #expect(status == 0, "\(text)")
            #expect(text.hasSuffix("ok\n"), "\(text)")
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.requests.filter { $0.path == "/api/v1/timelines/home" }.allSatisfy { $0.authorization == "Bearer \(token)" })
            #expect(!text.contains(token))
        }
    }
}
