/// The one shape of document the bundled TOML parser (toml++ inside TOMLKit) does not refuse by
/// itself: a table header whose `[` (or `[[`) is followed by neither a key nor `]` — `[` and a line
/// break, `[=`, `[#` — fails an assertion inside the parser and aborts the process. This finds such
/// a header before the parser sees the text.
///
/// A header is a `[` that starts a line (after spaces and tabs) outside any string, comment or
/// array; what follows it (after spaces and tabs, and a second `[`) must start a bare key
/// (`A-Z a-z 0-9 _ -`), a quoted key or be `]`. Everything else is left to the parser.
enum TOMLHeaderGuard {
    private enum Mode { case code, comment, basic, literal, multiLineBasic, multiLineLiteral }

    /// The 1-based line of the first table header the parser would abort on, or `nil`.
    static func lineOfBrokenHeader(in text: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var mode = Mode.code
        var arrayDepth = 0
        var atLineStart = true
        func starts(_ run: String, at position: Int) -> Bool {
            let wanted = Array(run.unicodeScalars)
            return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch mode {
            case .comment:
                if scalar == "\n" { mode = .code; atLineStart = true }
                index += 1
            case .basic, .multiLineBasic:
                if scalar == "\\" {
                    index += 2
                } else if mode == .multiLineBasic, starts("\"\"\"", at: index) {
                    mode = .code
                    index += 3
                } else {
                    // A one-line string ends at the line's end: the parser refuses it there.
                    if mode == .basic, scalar == "\"" || scalar == "\n" { mode = .code; atLineStart = scalar == "\n" }
                    index += 1
                }
            case .literal, .multiLineLiteral:
                if mode == .multiLineLiteral, starts("'''", at: index) {
                    mode = .code
                    index += 3
                } else {
                    if mode == .literal, scalar == "'" || scalar == "\n" { mode = .code; atLineStart = scalar == "\n" }
                    index += 1
                }
            case .code:
                switch scalar {
                case "\n":
                    atLineStart = true
                    index += 1
                case " ", "\t", "\r":
                    index += 1
                case "#":
                    mode = .comment
                    index += 1
                case "\"":
                    mode = starts("\"\"\"", at: index) ? .multiLineBasic : .basic
                    index += mode == .basic ? 1 : 3
                    atLineStart = false
                case "'":
                    mode = starts("'''", at: index) ? .multiLineLiteral : .literal
                    index += mode == .literal ? 1 : 3
                    atLineStart = false
                case "[" where atLineStart && arrayDepth == 0:
                    if !headerStartsWell(scalars, after: index) {
                        return scalars[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                    }
                    atLineStart = false
                    index += 1
                    if index < scalars.count, scalars[index] == "[" { index += 1 }
                case "[":
                    arrayDepth += 1
                    atLineStart = false
                    index += 1
                case "]":
                    arrayDepth = max(0, arrayDepth - 1)
                    atLineStart = false
                    index += 1
                default:
                    atLineStart = false
                    index += 1
                }
            }
        }
        return nil
    }

    /// Whether the header opened at `open` goes on as the parser expects: spaces and tabs, an
    /// optional second `[` right after the first (after blanks, the parser refuses it itself), then
    /// a key's first character or `]` (or the end).
    private static func headerStartsWell(_ scalars: [Unicode.Scalar], after open: Int) -> Bool {
        var index = open + 1
        func skipBlanks() -> Bool {
            let start = index
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            return index > start
        }
        let blank = skipBlanks()
        if index < scalars.count, scalars[index] == "[" {
            if blank { return true }
            index += 1
            _ = skipBlanks()
        }
        guard index < scalars.count else { return true }
        let next = scalars[index]
        if next == "]" || next == "\"" || next == "'" { return true }
        return next.isASCII && (next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" || next == "-")
    }
}
