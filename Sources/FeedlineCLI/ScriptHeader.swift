import Foundation

/// A script's first line `# args: FLAG VALUE …`: the flags a script was written for (fixtures,
/// width, "now"…), so `feedline --script FILE` runs it as its author did. Words are split on
/// whitespace (no quoting). Flags on the command line come after them and win.
enum ScriptHeader {
    /// The header's words when `arguments` name a readable `--script FILE` (or `--script=FILE`)
    /// whose first line is a header; none otherwise (a missing file is reported later, by the run).
    static func arguments(of arguments: [String]) -> [String] {
        var path: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--script", index + 1 < arguments.count { path = arguments[index + 1] }
            if argument.hasPrefix("--script=") { path = String(argument.dropFirst("--script=".count)) }
        }
        guard let path, let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        // The header is the first line; read no more than a line's worth of a possibly huge file.
        let head = (try? handle.read(upToCount: 4_096)) ?? Data()
        let firstLine = String(decoding: head, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return words(ofHeader: String(firstLine))
    }

    /// The flags of a header line; none for any other line.
    static func words(ofHeader line: String) -> [String] {
        let prefix = "# args:"
        guard line.hasPrefix(prefix) else { return [] }
        return line.dropFirst(prefix.count).split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
