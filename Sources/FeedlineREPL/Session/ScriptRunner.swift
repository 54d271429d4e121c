import Feedline
import Foundation

/// Runs commands without a terminal — a `--script` file or piped standard input — and writes the
/// transcript: each command after its prompt, exactly as an interactive session reads it, then
/// its output. Every command's effects run to completion (``FeedSession/settle()``) before the
/// next line is read, so with a virtual clock and a fixed "now" the same script gives the same
/// transcript byte for byte.
@MainActor
public enum ScriptRunner {
    /// What SIGINT does while ``run(lines:session:options:interrupts:write:)`` runs.
    public enum Interrupts: Sendable {
        /// Nothing special: SIGINT keeps whatever action the process gave it.
        case ignore
        /// SIGINT ends the process with ``interruptedStatus`` (130, as shells report an interrupt)
        /// and "Interrupted." on standard error — at once while waiting for the next line, after
        /// the running command's output otherwise (at once on a second SIGINT) — so the
        /// transcript never ends in half a line and a silent input pipe cannot hold the process.
        case endProcess
    }

    /// The exit status after SIGINT: 128 + SIGINT's number.
    public nonisolated static let interruptedStatus: Int32 = 128 + SIGINT

    /// How a run ended.
    public enum Outcome: Hashable, Sendable {
        /// At `quit` or the end of the lines.
        case finished
        /// `bail` was set and the command on `line` (1-based, counting every line read) failed;
        /// line 0 is the first screen, which failed to load before any command ran.
        case bailed(line: Int, command: String)
    }

    /// Runs `lines` (read lazily, one at a time) on `session` through a non-live driver and writes
    /// the transcript to `write`. Blank lines are skipped; `#` comments are echoed and do nothing;
    /// each line is echoed with control characters shown as `^X` (so an escape sequence in the
    /// input cannot drive the terminal) and cut after ``echoLimit`` characters.
    /// Stops after `quit` or at the end of the lines; see ``Interrupts`` for SIGINT. With `bail`,
    /// stops after the first command that failed (see ``REPLDriver/failures``).
    ///
    /// `account NAME` ends the driver's output as `quit` would (``REPLDriver/leave(for:)``),
    /// then goes on reading `lines` with the session ``REPLDriver/Options/openAccount`` opens.
    ///
    /// With `batched`, the transcript reaches `write` in pieces of about 64 KB (and all of it
    /// before this returns or SIGINT ends the process) rather than a piece per line: for lines
    /// that never wait on anything outside the process (a script file on the sandbox), where
    /// nobody reads the transcript while it is written and writing is a large part of the time.
    @discardableResult
    public static func run(
        lines: some Sequence<String>,
        session: FeedSession,
        options: REPLDriver.Options,
        interrupts: Interrupts = .endProcess,
        bail: Bool = false,
        batched: Bool = false,
        write: @escaping @MainActor (TerminalText) -> Void
    ) async -> Outcome {
        let output = Transcript(batched: batched, write: write)
        defer { output.flush() }
        let write = output.write
        var options = options
        options.live = false
        // The phase is set (and the global initialised) before the handler can read it.
        if interrupts == .endProcess { scriptPhase.store(ScriptPhase.running.rawValue, ordering: .releasing) }
        let previousAction = interrupts == .endProcess ? installScriptInterruptHandler() : nil
        var session = session
        var driver = REPLDriver(session: session, options: options, write: write)
        driver.start()
        await session.settle()
        driver.flush()
        var interrupted = false
        var outcome = Outcome.finished
        var lineNumber = 0
        var iterator = lines.makeIterator()
        if bail, driver.failures > 0 { outcome = .bailed(line: 0, command: "") }
        while !interrupted, outcome == .finished {
            if previousAction != nil {
                interrupted = !scriptPhase.compareExchange(
                    expected: ScriptPhase.running.rawValue, desired: ScriptPhase.waiting.rawValue, ordering: .acquiringAndReleasing
                ).exchanged
                if interrupted { break }
            }
            let next = iterator.next()
            if previousAction != nil { scriptPhase.store(ScriptPhase.running.rawValue, ordering: .releasing) }
            guard let line = next else { break }
            lineNumber += 1
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            write(TerminalText(lines: [driver.prompt + echo(trimmed)]))
            let failuresBefore = driver.failures
            let goOn = driver.handle(trimmed)
            await session.settle()
            driver.flush()
            if bail, driver.failures > failuresBefore {
                outcome = .bailed(line: lineNumber, command: echo(String(trimmed.prefix(80))))
                break
            }
            if !goOn { break }
            if let next = await driver.switchAsked(write: write) {
                // `account NAME`: this session's output ends, the next one's starts, in one transcript.
                (session, options) = (next.session, next.options)
                driver = REPLDriver(session: session, options: options, write: write)
                driver.start()
                await session.settle()
                driver.flush()
            }
        }
        if !interrupted { await driver.close() }
        driver.finish()
        if let previousAction {
            if !interrupted {
                interrupted = scriptPhase.exchange(ScriptPhase.idle.rawValue, ordering: .acquiringAndReleasing) == ScriptPhase.interrupted.rawValue
            }
            if interrupted {
                output.flush()
                FileHandle.standardError.write(Data("Interrupted.\n".utf8))
                exit(interruptedStatus)
            }
            restoreInterruptHandler(previousAction)
        }
        return outcome
    }

    /// The transcript on its way to the runner's `write`: passed on at once, or gathered into
    /// pieces of about ``batchSize`` bytes.
    @MainActor
    private final class Transcript {
        static let batchSize = 64 * 1024
        private let batched: Bool
        private let destination: @MainActor (TerminalText) -> Void
        private var pending = TerminalText.empty

        init(batched: Bool, write: @escaping @MainActor (TerminalText) -> Void) {
            self.batched = batched
            self.destination = write
        }

        func write(_ text: TerminalText) {
            guard batched else { return destination(text) }
            pending += text
            if pending.text.utf8.count >= Self.batchSize { flush() }
        }

        /// Passes on what was gathered.
        func flush() {
            guard !pending.isEmpty else { return }
            destination(pending)
            pending = .empty
        }
    }

    /// Characters of a line echoed into the transcript; the rest is counted, not shown.
    public static let echoLimit = 1_000

    /// `line` as the transcript shows it: C0 controls but tab, and DEL, in caret notation (`^[`, `^@`, `^G`,
    /// `^?`, as readline shows them while typing), other control characters as `?`, and cut
    /// after ``echoLimit`` characters. (Written as ``TerminalText``, a tab shows as a space.)
    static func echo(_ line: String) -> String {
        // Printable ASCII (most lines) shows as it is.
        if line.utf8.count <= echoLimit, line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return line }
        var result = ""
        var count = 0
        for character in line {
            if count == echoLimit {
                let rest = line.count - count
                result += "… (\(rest) more character\(rest == 1 ? "" : "s"))"
                break
            }
            count += 1
            guard character != "\t", character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                result.append(character)
                continue
            }
            for scalar in character.unicodeScalars {
                switch scalar.value {
                case 0x00...0x1F: result += "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
                case 0x7F: result += "^?"
                default: result.append(scalar.properties.generalCategory == .control ? "?" : Character(scalar))
                }
            }
        }
        return result
    }

    /// The transcript of `script` (the text of a `.feedline` file) as one string.
    public static func transcript(of script: String, session: FeedSession, options: REPLDriver.Options) async -> String {
        var output = ""
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        await run(lines: lines, session: session, options: options, interrupts: .ignore) { output += $0.text }
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
