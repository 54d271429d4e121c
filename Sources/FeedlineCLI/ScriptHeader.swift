import Feedline
import Foundation

/// A script's first line `# args: FLAG VALUE …`: the flags a script was written for (fixtures,
/// width, "now"…), so `feedline --script FILE` runs it as its author did. Words are split on
/// whitespace (no quoting). Flags on the command line come after them and win.
///
/// The script is read once, here, before the command line is parsed: a pipe (`--script <(…)`)
/// can be read only once, so the run takes the text read for the header (``preread``, bound for
/// the run by ``FeedlineMain``) instead of opening the file again.
struct ScriptHeader: Sendable {
    /// The header's flags; none when the script has no header or cannot be read.
    let words: [String]
    /// The script's absolute path and whole text, when it could be read.
    let text: (path: String, data: Data)?

    /// The script text read for its header, bound for the run of the command (a task-local, so
    /// nothing outlives the run and nothing is shared between runs).
    @TaskLocal static var preread: ScriptHeader?

    /// Reads the script named by `arguments` (`--script FILE` or `--script=FILE`): its header's
    /// words and its text. A missing or unreadable file gives no words (the run reports it).
    init(arguments: [String]) {
        var path: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--script", index + 1 < arguments.count { path = arguments[index + 1] }
            if argument.hasPrefix("--script=") { path = String(argument.dropFirst("--script=".count)) }
        }
        guard let path else { self.init(words: [], text: nil); return }
        let key = URL(fileURLWithPath: path).path
        guard let data = Self.readAll(key) else { self.init(words: [], text: nil); return }
        let firstLine = String(decoding: data.prefix(4_096), as: UTF8.self)
            .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        self.init(words: Self.words(ofHeader: String(firstLine)), text: (key, data))
    }

    private init(words: [String], text: (path: String, data: Data)?) {
        self.words = words
        self.text = text
    }

    /// The whole text of the script at `path`: what was read for its header, else read now;
    /// `nil` when it cannot be read.
    static func text(ofScriptAt path: String) -> Data? {
        let key = URL(fileURLWithPath: path).path
        if let text = preread?.text, text.path == key { return text.data }
        return readAll(key)
    }

    /// The file's bytes to its end, through a file handle: it reads a pipe or FIFO to the end
    /// too, where `FileManager.contents(atPath:)` gives up.
    private static func readAll(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.readToEnd() ?? Data()
    }

    /// The flags of a header line; none for any other line.
    static func words(ofHeader line: String) -> [String] {
        let prefix = "# args:"
        guard line.hasPrefix(prefix) else { return [] }
        return line.dropFirst(prefix.count).split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
