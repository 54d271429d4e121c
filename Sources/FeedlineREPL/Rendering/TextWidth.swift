import Feedline

/// Terminal column widths of text: wide (East Asian) characters and emoji take two columns,
/// combining marks and zero-width characters none, everything else one.
public enum TextWidth {
    /// The columns `character` takes in a terminal.
    public static func width(of character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }  // fast path
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // One scalar of the Basic Multilingual Plane (most text): its width is in a table.
        if first.value < 0x10000, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return Int(basicPlane[Int(first.value)])
        }
        return width(ofCluster: scalars)
    }

    /// The widths of the scalars U+0000–U+FFFF by the rules of ``width(ofScalar:)``, filled once
    /// (thread-safe: a static is initialised once) from the runs written out in
    /// `TextWidth+Tables.swift` — microseconds, where asking Unicode's properties of every
    /// scalar took milliseconds of each start.
    private static let basicPlane: [UInt8] = {
        var table = [UInt8](repeating: 1, count: 0x10000)
        table.withUnsafeMutableBufferPointer { table in
            for (runs, width) in [(zeroWidthRuns, UInt8(0)), (doubleWidthRuns, UInt8(2))] {
                for run in runs {
                    UnsafeMutableBufferPointer(rebasing: table[Int(run.lowerBound)...Int(run.upperBound)]).update(repeating: width)
                }
            }
        }
        return table
    }()

    /// The width of a grapheme cluster of several scalars.
    ///
    /// An emoji sequence (an emoji with a presentation selector, a skin tone or a ZWJ, or a flag)
    /// is one glyph two columns wide; a stray skin tone or flag letter is no base for one. Any
    /// other cluster is as wide as its scalars side by side, as a terminal draws them: so joining
    /// two texts adds their widths even where the join merges clusters — a space before a stray
    /// skin tone, combining mark or ZWJ, or a prepended concatenation mark before a space (else a
    /// padded line came out short or long).
    private static func width(ofCluster scalars: Character.UnicodeScalarView) -> Int {
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmoji, !isEmojiJoiner(first.value), scalars.count > 1, scalars.contains(where: { isEmojiJoiner($0.value) }) {
            return 2
        }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // regional indicators (flags)
        return scalars.reduce(0) { $0 + columns($1) }
    }

    /// ``width(ofScalar:)``, from the table for the Basic Multilingual Plane.
    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        scalar.value < 0x10000 ? Int(basicPlane[Int(scalar.value)]) : width(ofScalar: scalar)
    }

    /// The width of one scalar drawn alone: none for controls, marks, format characters and the
    /// Hangul vowel and final jamo (they join the syllable before them); two for emoji shown as
    /// emoji and East Asian wide characters; else one. The rule the Basic Multilingual Plane's
    /// table is checked against; used as such beyond it.
    package static func width(ofScalar scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        if (0x1F1E6...0x1F1FF).contains(value) { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// Whether `value` is what turns an emoji into a sequence drawn as one glyph: the emoji
    /// presentation selector, the zero-width joiner, a skin tone, or a regional indicator.
    private static func isEmojiJoiner(_ value: UInt32) -> Bool {
        value == 0xFE0F || value == 0x200D || (0x1F3FB...0x1F3FF).contains(value) || (0x1F1E6...0x1F1FF).contains(value)
    }

    /// The columns `text` takes in a terminal.
    ///
    /// - Complexity: O(n) in its scalars; text without emoji sequences is measured scalar by
    ///   scalar (a cluster other than an emoji sequence is as wide as its scalars), the rest
    ///   character by character.
    public static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80, isEmojiJoiner(scalar.value) { return text.reduce(0) { $0 + width(of: $1) } }
            total += columns(scalar)
        }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in `…` when something was cut.
    ///
    /// - Complexity: O(columns): stops reading once the text is known not to fit.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        // No scalar is wider than its UTF-8 bytes, nor an emoji sequence than its scalars.
        if text.utf8.count <= columns { return text }
        var used = 0
        var cut: String.Index?  // where the text is cut when it does not fit (room for the "…")
        var index = text.startIndex
        while index < text.endIndex {
            let next = width(of: text[index])
            if cut == nil, used + next > columns - 1 { cut = index }
            used += next
            if used > columns, let cut { return withoutDanglingJoiner(text[..<cut]) + "…" }
            index = text.index(after: index)
        }
        return text
    }

    /// `text` without the joiner (U+200D, U+200C) it may end with. A joiner the sanitiser kept
    /// because of what follows it (an emoji after an emoji, a letter after a letter) ends the
    /// character before it, so a cut between characters can leave it last; cleaned again — as
    /// every line printed is — it would be shown as `<U+200D>`, eight columns nobody measured.
    static func withoutDanglingJoiner(_ text: Substring) -> String {
        guard let last = text.unicodeScalars.last, last.value == 0x200D || last.value == 0x200C else { return String(text) }
        return String(Substring(text.unicodeScalars.dropLast()))
    }

    /// `text` padded with spaces to `columns` columns (unchanged when already as wide).
    public static func pad(_ text: String, to columns: Int) -> String {
        let missing = columns - width(of: text)
        return missing > 0 ? text + spaces(missing) : text
    }

    private static let manySpaces = String(repeating: " ", count: 256)

    /// `count` spaces (none for a count below one).
    static func spaces(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return count <= manySpaces.utf8.count ? String(manySpaces.prefix(count)) : String(repeating: " ", count: count)
    }

    /// `text` wrapped into lines of at most `columns` columns: paragraphs stay apart, words move
    /// to the next line whole, and a word wider than a line (or text without spaces, such as
    /// Chinese or Japanese) is broken between characters.
    public static func wrap(_ text: String, to columns: Int) -> [String] {
        let columns = max(1, columns)
        // Fast path: one line that fits, with single spaces between words — what the loop
        // below would return unchanged. Most lines drawn are such.
        var previousWasSpace = true
        var clean = true
        for byte in text.utf8 {
            if byte == 0x0A || (byte == 0x20 && previousWasSpace) {
                clean = false
                break
            }
            previousWasSpace = byte == 0x20
        }
        if clean, !previousWasSpace, width(of: text) <= columns { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let wordWidth = width(of: word)
                let space = used == 0 ? 0 : 1
                if used + space + wordWidth <= columns {
                    if space == 1 { line.append(" ") }
                    line += word
                    used += space + wordWidth
                    continue
                }
                if wordWidth <= columns {
                    lines.append(line)
                    line = String(word)
                    used = wordWidth
                    continue
                }
                // Too wide for any line: fill this one, then break between characters.
                if used > 0 {
                    if used + 1 + width(of: word.first ?? " ") > columns {
                        lines.append(line)
                        line = ""
                        used = 0
                    } else {
                        line.append(" ")
                        used += 1
                    }
                }
                for character in word {
                    let next = width(of: character)
                    if used + next > columns, used > 0 {
                        lines.append(withoutDanglingJoiner(line[...]))
                        line = ""
                        used = 0
                    }
                    line.append(character)
                    used += next
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Makes text from a server safe for a terminal by the one rule (`TextSafety`, which
    /// ``TerminalText`` applies too): control characters (escape sequences included) become
    /// spaces, except line breaks when `keepingLines` is set; bidirectional controls are removed;
    /// invisible characters are shown as `<U+200B>`. Renderers measure and wrap what this returns,
    /// so what they print is as wide as they measured.
    public static func sanitize(_ text: String, keepingLines: Bool = false) -> String {
        TextSafety.clean(text, keepingLines: keepingLines)
    }

    /// `text` on one line: runs of whitespace (line breaks too) become one space.
    public static func oneLine(_ text: String) -> String {
        if isOneLine(text) { return text }
        var result = ""
        var pendingSpace = false
        for character in sanitize(text) {
            if isSpace(character) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    /// Whether `text` is already its own ``oneLine(_:)``: no control character, no whitespace
    /// but single spaces between other characters (most names and short texts).
    private static func isOneLine(_ text: String) -> Bool {
        var afterSpace = false
        var isFirst = true
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x20 {
                if isFirst || afterSpace { return false }
                afterSpace = true
                continue
            }
            isFirst = false
            if value < 0x20 || value == 0x7F { return false }
            // Past ASCII: what the sanitiser changes, other whitespace, or a mark that joins a
            // space before it into one character (which `oneLine` treats as a space).
            if value >= 0x80, afterSpace || TextSafety.needsLook(scalar) || scalar.properties.isWhitespace { return false }
            afterSpace = false
        }
        return !afterSpace
    }

    /// Whether `character` is whitespace (an ASCII fast path before Unicode's properties).
    private static func isSpace(_ character: Character) -> Bool {
        character.asciiValue.map { $0 == 0x20 || (0x09...0x0D).contains($0) } ?? character.isWhitespace
    }

    /// `oneLine(text)` cut to at most `columns` columns (see ``truncate(_:to:)``), reading only as
    /// much of `text` as can show: what a row draws of a long post.
    ///
    /// - Complexity: O(columns) after the control-character scan of ``sanitize(_:keepingLines:)``.
    public static func oneLine(_ text: String, truncatedTo columns: Int) -> String {
        guard columns > 0 else { return "" }
        if let ascii = asciiOneLine(text, truncatedTo: columns) { return ascii }
        var result = ""
        var used = 0
        var cut: String.Index?  // where the result is cut if it turns out not to fit
        var pendingSpace = false
        for character in sanitize(text) {
            if isSpace(character) {
                pendingSpace = !result.isEmpty
                continue
            }
            for piece in pendingSpace ? [" ", character] : [character] {
                let next = width(of: piece)
                if cut == nil, used + next > columns - 1 { cut = result.endIndex }
                used += next
                if used > columns, let cut { return withoutDanglingJoiner(result[..<cut]) + "…" }
                result.append(piece)
            }
            pendingSpace = false
        }
        return result
    }

    /// ``oneLine(_:truncatedTo:)`` byte by byte for text that is ASCII as far as it is read
    /// (most posts): every character is one byte and one column, and every control character,
    /// whitespace or not, ends up as a space that joins its run. `nil` at the first byte past
    /// ASCII, for the character-by-character way. Walking characters cost a grapheme break, a
    /// width lookup and a small array per character: most of drawing a row's line of text.
    private static func asciiOneLine(_ text: String, truncatedTo columns: Int) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(min(text.utf8.count, columns + 1))
        var cut: Int?  // where the result is cut if it turns out not to fit (room for the "…")
        /// Adds `byte`, or returns the cut text once it does not fit.
        func add(_ byte: UInt8) -> String? {
            if cut == nil, result.count + 1 > columns - 1 { cut = result.count }
            if result.count + 1 > columns, let cut { return String(decoding: result[..<cut], as: UTF8.self) + "…" }
            result.append(byte)
            return nil
        }
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte <= 0x20 || byte == 0x7F {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace, let cutText = add(0x20) { return cutText }
            if let cutText = add(byte) { return cutText }
            pendingSpace = false
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, the common blocks).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
            0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B16F,
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
