import Feedline

/// Runs commands without a terminal — a `--script` file or piped standard input — and writes the
/// transcript: each command after its prompt, exactly as an interactive session reads it, then
/// its output. Every command's effects run to completion (``FeedSession/settle()``) before the
/// next line is read, so with a virtual clock and a fixed "now" the same script gives the same
/// transcript byte for byte.
@MainActor
public enum ScriptRunner {
    /// Runs `lines` (read lazily, one at a time) on `session` through a non-live driver and writes
    /// the transcript to `write`. Blank lines are skipped; `#` comments are echoed and do nothing.
    /// Stops after `quit` or at the end of the lines.
    public static func run(
        lines: some Sequence<String>,
        session: FeedSession,
        options: REPLDriver.Options,
        write: @escaping @MainActor (String) -> Void
    ) async {
        var options = options
        options.live = false
        let driver = REPLDriver(session: session, options: options, write: write)
        driver.start()
        await session.settle()
        driver.flush()
        for line in lines {
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            write(driver.prompt + trimmed + "\n")
            let goOn = driver.handle(trimmed)
            await session.settle()
            driver.flush()
            if !goOn { break }
        }
        driver.finish()
    }

    /// The transcript of `script` (the text of a `.feedline` file) as one string.
    public static func transcript(of script: String, session: FeedSession, options: REPLDriver.Options) async -> String {
        var output = ""
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        await run(lines: lines, session: session, options: options) { output += $0 }
        return output
    }
}

extension String {
    /// Without leading and trailing whitespace (line endings included).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
