import FeedlineTestSupport
import Foundation
import Testing

/// Runs the interactive binary under a pseudo-terminal (`Scripts/repl-pty-smoke.py`, pexpect):
/// Tab completion, history across runs, Ctrl-C, Ctrl-D, output above the prompt while typing,
/// and the terminal settings restored afterwards.
@Suite("Interactive feedline under a pseudo-terminal", .timeLimit(.minutes(10)))
struct InteractiveSmokeTests {
    /// Runs `Scripts/repl-pty-smoke.py BINARY ROOT [mode]`; it prints "ok" when every check passed.
    static func smoke(_ mode: String...) async throws {
        let result = try await PtyScript.run("repl-pty-smoke.py", mode)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix("ok\n"), "\(result.output)")
    }

    @Test("Tab completion, history, Ctrl-C, Ctrl-D and terminal restore work in a real terminal")
    func smoke() async throws {
        try await Self.smoke()
    }

    @Test("Tab completes profile @ro to a handle (and ro without the @) and tag birdf to a hashtag of rows not shown yet, before any command")
    func completeArguments() async throws {
        try await Self.smoke("complete")
    }

    @Test("Tab while writing: reply 1 @ro completes a handle seen; at compose> :fr and @kw complete from the server's answer, .sh to .show")
    func completeWhileWriting() async throws {
        try await Self.smoke("compose-complete")
    }

    @Test("row numbers hold still while the stream deletes a row above them, under a real terminal: 10 still names row 10, 9 says it was removed")
    func numbersHoldStill() async throws {
        try await Self.smoke("numbers")
    }

    @Test("post opens $EDITOR on the draft with the terminal cooked, takes the terminal back, and . posts what it wrote")
    func editor() async throws {
        try await Self.smoke("editor")
    }

    @Test("SIGINT at the prompt, during a page load, on the detail screen and ten times in a row: the session goes on, then exits 0 with the terminal restored")
    func sigint() async throws {
        try await Self.smoke("sigint")
    }

    @Test("an interactive session keeps its state in $XDG_STATE_HOME/feedline: the second run starts from the saved rows")
    func state() async throws {
        try await Self.smoke("state")
    }

    @Test("account k<Tab> on the bundled sandbox completes kemi and switches on the same console; her draft is hers after a restart")
    func sandboxSwitch() async throws {
        try await Self.smoke("sandbox-switch")
    }

    @Test("without --width the rows follow the terminal through several resizes: 120, 60, 250, 60, 120 columns — every row of each list at the width of the moment")
    func resize() async throws {
        try await Self.smoke("resize")
    }

    @Test("help fits a 40-row terminal; browse opens the post with $BROWSER; search rows print once; a mute says it started, then its outcome, the row printed once settled")
    func reading() async throws {
        try await Self.smoke("reading")
    }
}
