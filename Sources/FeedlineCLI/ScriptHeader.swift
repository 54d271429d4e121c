import Feedline
import Foundation

/// A script's first line `# args: FLAG VALUE …`: the flags a script was written for (fixtures,
/// width, "now"…), so `feedline --script FILE` runs it as its author did. Words are split on
/// whitespace (no quoting). Flags on the command line come after them and win.
///
/// The script is read once, here, before the command line is parsed: a pipe (`--script <(…)`)
/// can be read only once, so the run takes the text read for the header
/// (``text(ofScriptAt:)``) instead of opening the file again.
enum ScriptHeader {
    /// Script texts read for their header and not yet taken by the run, by absolute path.
    private static let read = Locked<[String: Data]>([:])

    /// The header's words when `arguments` name a readable `--script FILE` (or `--script=FILE`)
    /// whose first line is a header; none otherwise (a missing file is reported later, by the run).
    static func arguments(of arguments: [String]) -> [String] {
        var path: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--script", index + 1 < arguments.count { path = arguments[index + 1] }
            if argument.hasPrefix("--script=") { path = String(argument.dropFirst("--script=".count)) }
        }
        guard let path else { return [] }
        let key = URL(fileURLWithPath: path).path
        guard let data = Self.readAll(key) else { return [] }
        read.withLock { $0[key] = data }
        let firstLine = String(decoding: data.prefix(4_096), as: UTF8.self)
            .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return words(ofHeader: String(firstLine))
    }

    /// The whole text of the script at `path`: what was read for its header, else read now;
    /// `nil` when it cannot be read.
    static func text(ofScriptAt path: String) -> Data? {
        let key = URL(fileURLWithPath: path).path
        return read.withLock { $0.removeValue(forKey: key) } ?? readAll(key)
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
