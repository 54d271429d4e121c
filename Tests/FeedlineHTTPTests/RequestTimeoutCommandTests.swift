import FeedlineTestSupport
import Testing

/// `FEEDLINE_TIMEOUT` through the built binary: a value that is no timeout stops a session on a
/// server, `login` and `logout` before anything is sent, with one sentence and status 1.
@Suite("FEEDLINE_TIMEOUT in the binary", .timeLimit(.minutes(10)))
struct RequestTimeoutCommandTests {
    static let sentence = "FEEDLINE_TIMEOUT is \"soon\": it must be a number of seconds from 1 to 3600, such as 30."

    @Test("a session on a server, login and logout refuse a bad value", arguments: [
        ["--server", "http://127.0.0.1:9", "--timeline", "public", "--no-state"],
        ["login", "http://127.0.0.1:9"],
        ["logout"],
    ])
    func refused(arguments: [String]) async throws {
        let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TIMEOUT": "soon"], unset: ["FEEDLINE_TOKEN"])
        #expect(exit.status == 1, "\(exit.stderr)")
        #expect(exit.stderr.contains(Self.sentence), "\(exit.stderr)")
        #expect(!stdout.contains("Signing in"), "\(stdout)")
    }
}
