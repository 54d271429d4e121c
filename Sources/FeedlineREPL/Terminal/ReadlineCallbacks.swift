import CReadline
import Foundation
import Synchronization

// readline calls back through C function pointers, which can only be formed from top-level
// functions; these reach the one running console through `activeConsole`.

/// The console whose thread owns readline now (at most one).
let activeConsole = Mutex<ReadlineConsole?>(nil)

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

/// readline's completion hook: completes command words at the start of the line, nothing else
/// (no file names).
func feedlineComplete(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    feedline_completion_over()
    guard let text else { return nil }
    if start > 0, let buffer = feedline_line_buffer() {
        let before = UnsafeBufferPointer(start: buffer, count: Int(start))
        guard before.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
    }
    return rl_completion_matches(text, feedlineCompletionGenerator)
}

/// readline's match generator: stateless, it recomputes the matches and returns number `state`.
func feedlineCompletionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard let text else { return nil }
    let matches = CommandTable.completions(of: String(cString: text))
    guard state >= 0, Int(state) < matches.count else { return nil }
    return strdup(matches[Int(state)])
}

/// The terminal settings from before readline changed them, restored on every way out.
let savedTerminal = Mutex<termios?>(nil)

/// Puts the terminal back as it was when the console started (safe to call more than once).
func restoreTerminal() {
    guard var settings = savedTerminal.withLock({ $0 }) else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
}
