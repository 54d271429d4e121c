import Foundation

/// Opening a web address in the user's browser, as `browse` does in an interactive session:
/// the program `$BROWSER` names (the first of a colon-separated list; `%s` stands for the
/// address, else it goes last), else `xdg-open`. The address is handed over as an argument,
/// never read by a shell as words, and the browser runs on its own (nothing waits for it).
public enum Browser {
    /// Why an address was not opened: one sentence.
    public struct Failure: Error, Hashable, Sendable {
        public var message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// The command that opens addresses here: `$BROWSER`'s first entry when its program exists,
    /// else `xdg-open` when it is on the `PATH`; `nil` when neither is.
    public static func command(in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        if let browser = environment["BROWSER"]?.split(separator: ":").first.map({ $0.trimmingCharacters(in: .whitespaces) }),
            !browser.isEmpty, let program = browser.split(separator: " ").first, exists(String(program), path: path)
        {
            return browser
        }
        return exists("xdg-open", path: path) ? "xdg-open" : nil
    }

    /// Starts `command` on `address` (through `/bin/sh`, so the command may carry flags; the
    /// address is its `$1`) with no terminal input or output, and returns at once.
    public static func open(_ address: String, with command: String) -> Result<Void, Failure> {
        let line = command.contains("%s") ? command.replacingOccurrences(of: "%s", with: "\"$1\"") : command + " \"$1\""
        // Its own process group (Ctrl-C in feedline does not reach it), no terminal; the waiting
        // thread reaps it whenever it ends.
        guard let nothing = FileHandle(forUpdatingAtPath: "/dev/null") else {
            return .failure(Failure(message: "Could not start \(command): /dev/null cannot be opened."))
        }
        defer { try? nothing.close() }
        do {
            _ = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", line, "sh", address], environment: ProcessInfo.processInfo.environment,
                standardInput: nothing.fileDescriptor, standardOutput: nothing.fileDescriptor, standardError: nothing.fileDescriptor)
        } catch {
            return .failure(Failure(message: "Could not start \(command): \(error)."))
        }
        return .success(())
    }

    /// Whether `program` is an executable file: a path as given, else found on `path`.
    private static func exists(_ program: String, path: String) -> Bool {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) }
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
