import CReadline
import Feedline
import Foundation
import Synchronization

// readline calls back through C function pointers, which can only be formed from top-level
// functions; these reach the one running console through `activeConsole`.

/// The console whose thread owns readline now (at most one).
let activeConsole = Locked<ReadlineConsole?>(nil)

/// readline's line handler: a finished line, or `nil` at end of input (Ctrl-D).
func feedlineLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    let console = activeConsole.withLock { $0 }
    guard let line else {
        console?.receivedEnd()
        return
    }
    let text = String(cString: line)
    free(line)
    console?.received(text)
}

/// readline's key reader: waits for a key or a signal without ever blocking in `read()` (so a
/// Ctrl-C that flushes typed-ahead input cannot leave the thread stuck); see
/// ``ReadlineConsole/readKey()``.
func feedlineGetc(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    guard let console = activeConsole.withLock({ $0 }) else { return EOF }
    return console.readKey()
}

/// readline's completion hook: completes what ``Completion/matches(line:word:context:)`` says —
/// the screen's commands first, then `help`, `tag` and `profile` arguments, a post's `@handle`,
/// `#tag` and `:emoji:` — and nothing else (no file names). The matches are kept for the
/// generator, which hands them out by index. A word the server may know more of is asked for
/// (``ReadlineConsole/requestLookUp(_:line:)``): the answer completes it then.
func feedlineComplete(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    feedline_completion_over()
    guard let text, let console = activeConsole.withLock({ $0 }) else { return nil }
    var line = ""
    if let buffer = feedline_line_buffer(), end > 0 {
        line = String(decoding: UnsafeBufferPointer(start: buffer, count: Int(end)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let word = String(cString: text)
    let context = console.completionContext
    let matches = Completion.matches(line: line, word: word, context: context)
    console.completions.withLock { $0 = matches }
    if let request = Completion.lookup(line: line, word: word, context: context), let buffer = feedline_line_buffer() {
        console.requestLookUp(request, line: String(cString: buffer))
    }
    guard !matches.isEmpty else { return nil }
    return rl_completion_matches(text, feedlineCompletionGenerator)
}

/// readline's match generator: returns match number `state` of the ones ``feedlineComplete`` kept.
func feedlineCompletionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard let console = activeConsole.withLock({ $0 }) else { return nil }
    let matches = console.completions.withLock { $0 }
    guard state >= 0, Int(state) < matches.count else { return nil }
    return strdup(matches[Int(state)])
}

/// The terminal settings from before readline changed them, restored on every way out.
let savedTerminal = Locked<termios?>(nil)

/// Puts the terminal back as it was when the console started (safe to call more than once).
func restoreTerminal() {
    guard var settings = savedTerminal.withLock({ $0 }) else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
}

/// The write end of the running console's self-pipe, for the signal handler (-1 when none).
let signalPipe = Atomic<Int32>(-1)

/// The signals the console handles itself.
let consoleSignals: [Int32] = [SIGINT, SIGWINCH, SIGTERM, SIGHUP]

/// The signal handler: async-signal-safe, it only writes the signal's number into the self-pipe;
/// the console thread acts on it (Ctrl-C clears the line, a resize redraws, SIGTERM / SIGHUP end).
func feedlineSignalHandler(_ number: Int32) {
    let fd = signalPipe.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(fd, &byte, 1)
}

/// Installs `handler` for the console's signals (nil: the default action).
func installSignalHandlers(_ handler: (@convention(c) (Int32) -> Void)?) {
    for number in consoleSignals {
        var action = sigaction()
        if let handler {
            action.__sigaction_handler.sa_handler = handler
        } else {
            action.__sigaction_handler.sa_handler = SIG_DFL
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }
}
