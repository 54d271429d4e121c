import Feedline
import Foundation

/// Writing a draft in the user's editor, as toot and tut do: the draft's text in a file, the
/// context below a marker line, `$VISUAL` (else `$EDITOR`) run on it, and the text read back.
public enum DraftEditor {
    /// The line below which the file holds context, not text (it and what follows are dropped).
    public static let marker = "# ---- feedline: everything from this line down is left out of the post ----"

    /// The editor command from `environment`: `VISUAL`, else `EDITOR`; `nil` when neither is set.
    public static func command(in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for name in ["VISUAL", "EDITOR"] {
            if let command = environment[name]?.trimmingCharacters(in: .whitespaces), !command.isEmpty { return command }
        }
        return nil
    }

    /// The file's contents for `text` with `context` lines below the marker.
    public static func file(text: String, context: [String]) -> String {
        let body = text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
        return body + "\n" + marker + "\n" + context.map { "# " + $0 }.joined(separator: "\n") + "\n"
    }

    /// The text of an edited file: everything above the marker, without the blank lines around it.
    public static func text(of file: String) -> String {
        var lines = file.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let end = lines.firstIndex(of: marker) { lines = Array(lines[..<end]) }
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        while lines.first?.allSatisfy(\.isWhitespace) == true { lines.removeFirst() }
        return lines.joined(separator: "\n")
    }

    /// Runs `command` (through `/bin/sh`, so it may carry flags) on a file holding `text` and
    /// `context` in `directory`, waits for it, and returns the text it left; the file is removed.
    /// Fails with one sentence when the file cannot be written or read, or the editor exits
    /// with a failure (the draft is then left as it was).
    public static func edit(text: String, context: [String], name: String, command: String, directory: URL = FileManager.default.temporaryDirectory)
        -> Result<String, EditorFailure>
    {
        let url = directory.appendingPathComponent("feedline-draft-\(name).txt")
        do {
            try Data(file(text: text, context: context).utf8).write(to: url, options: .atomic)
        } catch {
            return .failure(EditorFailure(message: "Could not write the draft to \(url.path) for the editor: \(error.localizedDescription)"))
        }
        defer { try? FileManager.default.removeItem(at: url) }
        // The editor stays in this process group, on this terminal (standard input, output and
        // error are this process's), and this thread waits for it.
        let ended: ChildProcess.Ending
        do {
            ended = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", url.path],
                environment: ProcessInfo.processInfo.environment,
                standardInput: STDIN_FILENO, standardOutput: STDOUT_FILENO, standardError: STDERR_FILENO, ownProcessGroup: false
            ).waitUntilExit()
        } catch {
            return .failure(EditorFailure(message: "Could not start the editor (\(command)): \(error)."))
        }
        guard !ended.signalled, ended.status == 0 else {
            let how = ended.signalled ? "was stopped by signal \(ended.status)" : "exited with status \(ended.status)"
            return .failure(EditorFailure(message: "The editor (\(command)) \(how); the draft is as it was."))
        }
        guard let data = try? Data(contentsOf: url), let edited = String(data: data, encoding: .utf8) else {
            return .failure(EditorFailure(message: "Could not read the draft back from \(url.path); the draft is as it was."))
        }
        return .success(Self.text(of: edited))
    }

    /// Why editing did not work: one sentence.
    public struct EditorFailure: Error, Hashable, Sendable {
        public var message: String
    }
}
