import Foundation

/// Standard input as an `AsyncStream` of lines, read on a dedicated thread so the main actor
/// stays free to deliver changes while no input arrives.
///
/// Lines come without their newline; invalid UTF-8 is repaired with U+FFFD (so a bad byte
/// becomes a malformed-JSON error line, never a crash). The stream finishes at end of input.
public enum StandardInputLines {
    /// Starts reading standard input. Call once per process.
    public static func stream() -> AsyncStream<String> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let reader = Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
            reader.name = "feedline.stdin"
            reader.start()
        }
    }
}
