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
            let result = try await PtyScript.run("login-pty-smoke.py", [fake.baseURL, scratch.url.path])
            let (text, status) = (result.output, result.status)
            #expect(status == 0, "\(text)")
            #expect(text.hasSuffix("ok\n"), "\(text)")
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.requests.filter { $0.path == "/api/v1/timelines/home" }.allSatisfy { $0.authorization == "Bearer \(token)" })
            #expect(!text.contains(token))
        }
    }
}
