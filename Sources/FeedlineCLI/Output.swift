import Foundation

/// Unbuffered writes: a line on standard output reaches a reader (a person, a test driving the
/// binary) before the program waits for input, which `print` does not promise on a pipe.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func say(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` without a newline to standard output (a prompt).
    static func prompt(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func complain(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
