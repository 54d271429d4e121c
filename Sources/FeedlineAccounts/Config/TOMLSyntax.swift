/// A check of a TOML document's syntax against TOML 1.0's grammar, before TOMLKit reads it.
///
/// TOMLKit's parser (toml++) asserts on some malformed input instead of reporting it — `[` and a
/// line break aborts the process in a debug build and is undefined behaviour in a release one —
/// so a document reaches it only once this check has found it well formed. What the grammar
/// cannot tell (a key or table defined twice, a date that does not exist) is left to TOMLKit,
/// which reports it. The problem found is a clause and the line it is on. A well-formed
/// document also tells the line each top-level key is first set on.
///
/// - Complexity: O(n) in the document's bytes, nesting bounded by ``maximumDepth``.
struct TOMLSyntax {
    /// A place the document is not TOML: the line (1-based) and what is wrong there.
    struct Problem: Error, Hashable {
        var line: Int
        var message: String
    }

    /// Arrays and inline tables nested deeper than this are refused (no configuration needs it,
    /// and the check recurses).
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Whether a table header was read: keys after it are not the document's own.
    private var inTable = false
    /// The line each top-level key (the first part of a dotted key, a table's name) is first
    /// set on.
    private var rootLines: [String: Int] = [:]

    /// Checks `text`; throws the first problem. Returns the line (1-based) each top-level key
    /// of the document is first set on.
    static func check(_ text: String) throws(Problem) -> [String: Int] {
        var syntax = TOMLSyntax(bytes: Array(text.utf8))
        try syntax.document()
        return syntax.rootLines
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Reading

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        if bytes[index] == 0x0A { line += 1 }
        index += 1
    }

    private func fail(_ message: String) -> Problem {
        Problem(line: line, message: message)
    }

    /// "a line break", "end of file", "'x'", "the character U+0007": what stands at the cursor.
    private var found: String {
        guard let byte = current else { return "the end of the file" }
        switch byte {
        case 0x0A, 0x0D: return "a line break"
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            let scalar = String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self).unicodeScalars.first
            return "the character U+" + String(scalar?.value ?? UInt32(byte), radix: 16, uppercase: true)
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Problem) {
        guard current == byte else { throw fail("expected \(what), found \(found)") }
        advance()
    }

    private mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x09 { advance() }
    }

    /// A comment, if one starts here: `#` and what follows to the end of the line, which holds
    /// no control character but tab.
    private mutating func comment() throws(Problem) {
        guard current == UInt8(ascii: "#") else { return }
        advance()
        while let byte = current, byte != 0x0A {
            if byte == 0x0D, peek(1) == 0x0A { return }
            guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { throw fail("a comment holds a control character (\(found))") }
            advance()
        }
    }

    /// The end of an expression: spaces, a comment, then a line break or the end.
    private mutating func endOfLine() throws(Problem) {
        skipSpaces()
        try comment()
        if atEnd { return }
        if current == 0x0D, peek(1) == 0x0A {
            advance()
            advance()
            return
        }
        guard current == 0x0A else { throw fail("expected the end of the line, found \(found)") }
        advance()
    }

    // MARK: - Document

    private mutating func document() throws(Problem) {
        while !atEnd {
            skipSpaces()
            switch current {
            case UInt8(ascii: "#"), 0x0A, 0x0D, nil:
                break
            case UInt8(ascii: "["):
                try table()
            default:
                try keyValue()
            }
            try endOfLine()
        }
    }

    private mutating func table() throws(Problem) {
        advance()
        let isArray = current == UInt8(ascii: "[")
        if isArray { advance() }
        skipSpaces()
        guard current != UInt8(ascii: "]") else { throw fail("a table header needs a name between its brackets") }
        inTable = true
        note(try key())
        skipSpaces()
        try expect(UInt8(ascii: "]"), "']' to close the table header")
        if isArray { try expect(UInt8(ascii: "]"), "']]' to close the array of tables header") }
    }

    private mutating func keyValue() throws(Problem) {
        let name = try key()
        if !inTable { note(name) }
        skipSpaces()
        try expect(UInt8(ascii: "="), "'=' after the key")
        skipSpaces()
        try value(depth: 0)
    }

    /// Records the line of a top-level key the first time it is set.
    private mutating func note(_ name: (String, line: Int)) {
        if rootLines[name.0] == nil { rootLines[name.0] = name.line }
    }

    /// A key: simple keys joined by dots. Returns the first one's name and line.
    private mutating func key() throws(Problem) -> (String, line: Int) {
        let first = (try simpleKey(), line: line)
        while true {
            let mark = (index, line)
            skipSpaces()
            guard current == UInt8(ascii: ".") else {
                (index, line) = mark
                return first
            }
            advance()
            skipSpaces()
            _ = try simpleKey()
        }
    }

    /// A bare or quoted key; returns its name (escapes decoded).
    private mutating func simpleKey() throws(Problem) -> String {
        let start = index
        switch current {
        case UInt8(ascii: "\""):
            if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { throw fail("a key cannot be a multi-line string") }
            try basicString()
            return Self.decoded(bytes[(start + 1)..<(index - 1)])
        case UInt8(ascii: "'"):
            if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { throw fail("a key cannot be a multi-line string") }
            try literalString()
            return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        default:
            while let byte = current, Self.isBareKey(byte) { advance() }
            guard index > start else { throw fail("expected a key (letters, digits, - and _, or a quoted name), found \(found)") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }

    /// A basic string's body (checked well formed) with its escapes decoded.
    private static func decoded(_ body: ArraySlice<UInt8>) -> String {
        var result = String.UnicodeScalarView()
        var scalars = String(decoding: body, as: UTF8.self).unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let kind = scalars.next() else {
                result.append(scalar)
                continue
            }
            switch kind {
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u", "U":
                var value: UInt32 = 0
                for _ in 0..<(kind == "u" ? 4 : 8) { value = value &* 16 &+ UInt32(scalars.next().flatMap { hexValue(UInt8(truncatingIfNeeded: $0.value)) } ?? 0) }
                if let decoded = Unicode.Scalar(value) { result.append(decoded) }
            default: result.append(kind)
            }
        }
        return String(result)
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(Problem) {
        guard depth < Self.maximumDepth else { throw fail("arrays and inline tables nest deeper than \(Self.maximumDepth)") }
        switch current {
        case UInt8(ascii: "\""):
            if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { try multilineString(quote: UInt8(ascii: "\"")) } else { try basicString() }
        case UInt8(ascii: "'"):
            if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { try multilineString(quote: UInt8(ascii: "'")) } else { try literalString() }
        case UInt8(ascii: "["):
            try array(depth: depth)
        case UInt8(ascii: "{"):
            try inlineTable(depth: depth)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            try word(current == UInt8(ascii: "t") ? "true" : "false")
        case nil, 0x0A, 0x0D, UInt8(ascii: "#"):
            throw fail("expected a value after '=', found \(found)")
        default:
            try scalarValue()
        }
    }

    private mutating func word(_ word: String) throws(Problem) {
        for byte in word.utf8 {
            guard current == byte else { throw fail("expected a value (\(word)?), found \(found)") }
            advance()
        }
    }

    /// A basic string's characters up to its closing quote (one line).
    private mutating func basicString() throws(Problem) {
        advance()
        while true {
            guard let byte = current, byte != 0x0A, byte != 0x0D else { throw fail("a string is not closed on its line") }
            if byte == UInt8(ascii: "\"") {
                advance()
                return
            }
            if byte == UInt8(ascii: "\\") {
                try escape(multiline: false)
                continue
            }
            guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { throw fail("a string holds a control character (\(found)); write it as an escape") }
            advance()
        }
    }

    /// A multi-line string from its opening `"""` (basic, with escapes) or `'''` (literal) to
    /// its closing one; up to two more quotes after that belong to the string.
    private mutating func multilineString(quote: UInt8) throws(Problem) {
        advance(); advance(); advance()
        while true {
            guard let byte = current else { throw fail("a multi-line string is not closed") }
            if byte == quote, peek(1) == quote, peek(2) == quote {
                advance(); advance(); advance()
                if current == quote { advance() }
                if current == quote { advance() }
                return
            }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                try escape(multiline: true)
                continue
            }
            if byte == 0x0D {
                guard peek(1) == 0x0A else { throw fail("a string holds a carriage return without a line feed") }
                advance()
                continue
            }
            guard byte == 0x09 || byte == 0x0A || (byte >= 0x20 && byte != 0x7F) else {
                throw fail("a string holds a control character (\(found))" + (quote == UInt8(ascii: "\"") ? "; write it as an escape" : ""))
            }
            advance()
        }
    }

    /// An escape after `\`: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u` with four hex digits, `\U` with eight (a
    /// Unicode scalar), or — in a multi-line string — a backslash ending the line.
    private mutating func escape(multiline: Bool) throws(Problem) {
        advance()
        guard let byte = current else { throw fail("a string ends in a lone backslash") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            advance()
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = byte == UInt8(ascii: "u") ? 4 : 8
            advance()
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let digit = current.flatMap(Self.hexValue) else { throw fail("\\\(Character(Unicode.Scalar(byte))) needs \(count) hexadecimal digits") }
                value = value &* 16 &+ UInt32(digit)
                advance()
            }
            guard Unicode.Scalar(value) != nil else { throw fail("an escape names U+\(String(value, radix: 16, uppercase: true)), which is not a Unicode scalar") }
        case 0x20, 0x09, 0x0A, 0x0D:
            // A line-ending backslash (multi-line strings only): spaces, one line break, then any blank space.
            guard multiline else { throw fail("a string holds the escape \\\(found) that TOML does not have") }
            skipSpaces()
            if current == 0x0D, peek(1) == 0x0A { advance() }
            guard current == 0x0A else { throw fail("a backslash in a string must start an escape or end the line") }
            while let next = current, next == 0x20 || next == 0x09 || next == 0x0A || (next == 0x0D && peek(1) == 0x0A) { advance() }
        default:
            throw fail("a string holds the escape \\\(found) that TOML does not have")
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    private mutating func literalString() throws(Problem) {
        advance()
        while true {
            guard let byte = current, byte != 0x0A, byte != 0x0D else { throw fail("a string is not closed on its line") }
            advance()
            if byte == UInt8(ascii: "'") { return }
            guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { throw fail("a string holds a control character") }
        }
    }

    /// Blank space, line breaks and comments between the values of an array.
    private mutating func arraySpace() throws(Problem) {
        while true {
            skipSpaces()
            if current == UInt8(ascii: "#") { try comment() }
            if current == 0x0A {
                advance()
            } else if current == 0x0D, peek(1) == 0x0A {
                advance()
                advance()
            } else {
                return
            }
        }
    }

    private mutating func array(depth: Int) throws(Problem) {
        advance()
        try arraySpace()
        while current != UInt8(ascii: "]") {
            guard current != nil else { throw fail("an array is not closed with ']'") }
            try value(depth: depth + 1)
            try arraySpace()
            if current == UInt8(ascii: ",") {
                advance()
                try arraySpace()
            } else {
                guard current == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array, found \(found)") }
            }
        }
        advance()
    }

    private mutating func inlineTable(depth: Int) throws(Problem) {
        advance()
        skipSpaces()
        if current == UInt8(ascii: "}") {
            advance()
            return
        }
        while true {
            _ = try key()
            skipSpaces()
            try expect(UInt8(ascii: "="), "'=' after the key")
            skipSpaces()
            try value(depth: depth + 1)
            skipSpaces()
            if current == UInt8(ascii: "}") {
                advance()
                return
            }
            guard current == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an inline table (which stays on one line), found \(found)") }
            advance()
            skipSpaces()
        }
    }

    // MARK: - Numbers, dates and times

    /// A number, a date, a time or a date-time: the run of characters they are made of, then
    /// checked whole.
    private mutating func scalarValue() throws(Problem) {
        let start = index
        while let byte = current, Self.isScalarCharacter(byte) {
            // A space joins a date and a time ("1979-05-27 07:32:00"), nothing else.
            if byte == 0x20 {
                let before = bytes[start..<index]
                guard before.count == 10, before.filter({ $0 == UInt8(ascii: "-") }).count == 2,
                    let after = peek(1), (0x30...0x39).contains(after), peek(3) == UInt8(ascii: ":")
                else { break }
            }
            advance()
        }
        let token = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !token.isEmpty else { throw fail("expected a value (a string in quotes, a number, true or false…), found \(found)") }
        guard Self.isNumber(token) || Self.isDateTime(token) else {
            throw fail("\"\(token.prefix(40))\" is not a TOML value (text goes in quotes)")
        }
    }

    private static func isScalarCharacter(_ byte: UInt8) -> Bool {
        isBareKey(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == 0x20
    }

    /// Digits with single underscores between them (`1_000`), at least one.
    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isWholeNumber
    }

    private static func isDigits(_ text: Substring, allowing digit: (Character) -> Bool = isDigit) -> Bool {
        guard let first = text.first, let last = text.last, digit(first), digit(last) else { return false }
        var previousUnderscore = false
        for character in text {
            if character == "_" {
                if previousUnderscore { return false }
                previousUnderscore = true
            } else {
                guard digit(character) else { return false }
                previousUnderscore = false
            }
        }
        return true
    }

    static func isNumber(_ token: String) -> Bool {
        var text = Substring(token)
        for (prefix, digit) in [("0x", { (c: Character) in c.isHexDigit }), ("0o", { (c: Character) in ("0"..."7").contains(c) }), ("0b", { (c: Character) in c == "0" || c == "1" })]
        where text.hasPrefix(prefix) {
            return isDigits(text.dropFirst(2), allowing: digit)
        }
        if text.first == "+" || text.first == "-" { text = text.dropFirst() }
        if text == "inf" || text == "nan" { return true }
        // The whole part: 0, or no leading zero.
        let whole = text.prefix { isDigit($0) || $0 == "_" }
        guard isDigits(whole), whole.count == 1 || whole.first != "0" else { return false }
        var rest = text.dropFirst(whole.count)
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix { isDigit($0) || $0 == "_" }
            guard isDigits(fraction) else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            guard isDigits(rest) else { return false }
            return true
        }
        return rest.isEmpty
    }

    static func isDateTime(_ token: String) -> Bool {
        let characters = Array(token)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= characters.count && characters[range].allSatisfy(isDigit)
        }
        /// `HH:MM:SS[.fraction]` from `start`; the index after it.
        func time(from start: Int) -> Int? {
            guard digits(start..<start + 2), characters.count > start + 2, characters[start + 2] == ":", digits(start + 3..<start + 5),
                characters.count > start + 5, characters[start + 5] == ":", digits(start + 6..<start + 8)
            else { return nil }
            var end = start + 8
            if end < characters.count, characters[end] == "." {
                end += 1
                let digitsStart = end
                while end < characters.count, isDigit(characters[end]) { end += 1 }
                guard end > digitsStart else { return nil }
            }
            return end
        }
        if let end = time(from: 0) { return end == characters.count }  // a local time
        guard digits(0..<4), characters.count >= 10, characters[4] == "-", digits(5..<7), characters[7] == "-", digits(8..<10) else { return false }
        if characters.count == 10 { return true }  // a local date
        guard "Tt ".contains(characters[10]), var end = time(from: 11) else { return false }
        if end == characters.count { return true }  // a local date-time
        if characters[end] == "Z" || characters[end] == "z" {
            end += 1
        } else {
            guard characters[end] == "+" || characters[end] == "-", digits(end + 1..<end + 3), characters.count > end + 3, characters[end + 3] == ":",
                digits(end + 4..<end + 6)
            else { return false }
            end += 6
        }
        return end == characters.count
    }
}
