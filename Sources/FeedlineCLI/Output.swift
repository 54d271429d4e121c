import FeedlineREPL
import Foundation

/// The executable's one way to the terminal: unbuffered writes of ``TerminalText`` only, so
/// every sentence — one that quotes a server's answer or a username included — has passed the
/// one sanitiser. A line on standard output reaches a reader (a person, a test driving the
/// binary) before the program waits for input, which `print` does not promise on a pipe.
/// (The JSON-lines protocol's messages are JSON, escaped by its encoder, and go their own way.)
enum Output {
    /// Writes `text` and a newline to standard output.
    static func say(_ text: TerminalText = .empty) {
        write(TerminalText(lines: [text]))
    }

    /// Writes `text` as it is to standard output (a prompt, a session's transcript).
    static func write(_ text: TerminalText) {
        FileHandle.standardOutput.write(Data(text.text.utf8))
    }

    /// Writes `text` without a newline to standard output (a prompt).
    static func prompt(_ text: TerminalText) {
        write(text)
    }

    /// Writes `text` and a newline to standard error.
    static func complain(_ text: TerminalText) {
        FileHandle.standardError.write(Data(TerminalText(lines: [text]).text.utf8))
    }
}
