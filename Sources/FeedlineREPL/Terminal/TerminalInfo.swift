import CReadline
import Foundation

/// Facts about the process's standard streams.
public enum TerminalInfo {
    /// Whether standard input is a terminal.
    public static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    /// Whether standard output is a terminal.
    public static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The width of the terminal on standard output; 80 when it is not a terminal.
    public static var columns: Int {
        let columns = Int(feedline_terminal_columns(STDOUT_FILENO))
        return outputIsTerminal && columns > 0 ? columns : 80
    }

    /// Whether to colour: only when standard output is a terminal and `NO_COLOR` is unset.
    public static func wantsColor(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
