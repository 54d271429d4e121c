/// The one-pass state machine behind ``HTMLText/plainText(from:)``.
///
/// Every byte of the input is looked at a bounded number of times: tag and entity scans either
/// consume what they read or give up after a bounded look-ahead (an entity) or at the end of
/// the input (a tag or comment, after which nothing more is scanned as markup).
struct HTMLTextRenderer {
    private let input: UnsafeBufferPointer<UInt8>
    private var output: [UInt8] = []
    /// Line breaks asked for by markup and not yet written (0, 1 or 2).
    private var pendingBreaks = 0
    /// Newline characters met in text and not yet written (0, 1 or 2).
    private var pendingNewlines = 0
    /// How many open elements hide their text (Mastodon's `invisible` spans).
    private var hidden = 0
    private var preformatted = 0
    private var open: [OpenElement] = []
    private var openCounts: [String: Int] = [:]
    /// One entry per open list: the next number of an `<ol>`, `nil` for a `<ul>`.
    private var lists: [Int?] = []
    /// Set once a tag runs to the end of the input: the rest is text.
    private var literal = false
    /// Whether elements of class `quote-inline` (the fallback servers write for clients that do
    /// not show quotes) are hidden with their text.
    private let hidesQuoteFallback: Bool

    private struct OpenElement {
        var name: String
        var effect: Effect
    }

    private enum Effect {
        case none, block(Int), ellipsis, invisible, list, preformatted
    }

    init(input: UnsafeBufferPointer<UInt8>, hidesQuoteFallback: Bool = false) {
        self.input = input
        self.hidesQuoteFallback = hidesQuoteFallback
        output.reserveCapacity(input.count)
    }

    mutating func render() -> String {
        var index = 0
        while index < input.count {
            switch input[index] {
            case .lessThan where !literal:
                index = markup(at: index)
            case .ampersand:
                index = entity(at: index, end: input.count)
            case let byte:
                text(byte)
                index += 1
            }
        }
        while let last = output.last, last == .space || last == .newline || last == .tab {
            output.removeLast()
        }
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Text

    private var atLineStart: Bool {
        output.isEmpty || pendingBreaks > 0 || pendingNewlines > 0 || output.last == .newline
    }

    private mutating func text(_ byte: UInt8) {
        guard hidden == 0 else { return }
        switch byte {
        case .carriageReturn:
            return
        case .newline:
            if preformatted > 0 {
                guard !output.isEmpty else { return }
                flushBreaks()
                guard !output.isEmpty else { return }  // flushBreaks trimmed the only spaces
                output.append(.newline)
            } else {
                pendingNewlines = min(2, pendingNewlines + 1)
            }
        case .space, .tab:
            if preformatted > 0 {
                flushBreaks()
                output.append(byte)
            } else if !atLineStart {
                output.append(.space)
            }
        default:
            flushBreaks()
            output.append(byte)
        }
    }

    private mutating func text(_ scalar: Unicode.Scalar) {
        for byte in scalar.utf8 {
            text(byte)
        }
    }

    private mutating func text(literal string: StaticString) {
        string.withUTF8Buffer { bytes in
            for byte in bytes { text(byte) }
        }
    }

    /// Writes the line breaks asked for since the last text, if any text came before.
    private mutating func flushBreaks() {
        let wanted = min(2, max(pendingBreaks, pendingNewlines))
        pendingBreaks = 0
        pendingNewlines = 0
        guard wanted > 0, !output.isEmpty else { return }
        while output.last == .space || output.last == .tab { output.removeLast() }
        // Only spaces came before (kept by a `<pre>`): no text yet, so no break either.
        guard !output.isEmpty else { return }
        var present = 0
        while present < output.count, output[output.count - 1 - present] == .newline { present += 1 }
        for _ in 0..<max(0, wanted - present) { output.append(.newline) }
    }

    private mutating func breakLine() {
        guard hidden == 0 else { return }
        pendingBreaks = min(2, pendingBreaks + 1)
    }

    private mutating func boundary(_ level: Int) {
        guard hidden == 0 else { return }
        pendingBreaks = max(pendingBreaks, level)
    }

    // MARK: - Entities

    /// Decodes the character reference at `start` (an `&`) and returns the index after it, or
    /// writes the `&` as text and returns the next index when it is not a reference it knows.
    private mutating func entity(at start: Int, end: Int) -> Int {
        if let (scalar, next) = reference(at: start, end: end) {
            text(scalar)
            return next
        }
        text(.ampersand)
        return start + 1
    }

    private func reference(at start: Int, end: Int) -> (Unicode.Scalar, Int)? {
        var index = start + 1
        guard index < end else { return nil }
        if input[index] == .hash {
            index += 1
            var radix: UInt32 = 10
            if index < end, input[index] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                index += 1
            }
            let digitsStart = index
            // At most 9 digits, summed in 64 bits: nine hex digits overflow 32 (found by fuzzing).
            var value: UInt64 = 0
            while index < end, index - digitsStart < 9, let digit = Self.digit(input[index], radix: radix) {
                value = value * UInt64(radix) + UInt64(digit)
                index += 1
            }
            guard index > digitsStart, index < end, input[index] == .semicolon,
                  let number = UInt32(exactly: value) else { return nil }
            let codePoint = HTMLText.windows1252(number) ?? number
            guard codePoint != 0, let scalar = Unicode.Scalar(codePoint) else { return nil }
            return (scalar, index + 1)
        }
        while index < end, index - start <= 32, Self.isAlphanumeric(input[index]) { index += 1 }
        guard index > start + 1, index < end, input[index] == .semicolon else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: input[(start + 1)..<index]), as: UTF8.self)
        guard let codePoint = HTMLText.namedEntities[name], let scalar = Unicode.Scalar(codePoint) else { return nil }
        return (scalar, index + 1)
    }

    // MARK: - Markup

    /// Handles the markup at `start` (a `<`) and returns where to continue.
    private mutating func markup(at start: Int) -> Int {
        let end = input.count
        guard start + 1 < end else {
            text(.lessThan)
            return start + 1
        }
        switch input[start + 1] {
        case .exclamation:
            if start + 3 < end, input[start + 2] == .hyphen, input[start + 3] == .hyphen {
                return find("-->", from: start + 4).map { $0 + 3 } ?? end
            }
            return find(">", from: start + 2).map { $0 + 1 } ?? end
        case .question:
            return find(">", from: start + 2).map { $0 + 1 } ?? end
        default:
            break
        }
        var index = start + 1
        let closing = input[index] == .slash
        if closing { index += 1 }
        guard index < end, Self.isLetter(input[index]) else {
            text(.lessThan)
            return start + 1
        }
        let nameStart = index
        while index < end, Self.isNameByte(input[index]) { index += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: input[nameStart..<index]), as: UTF8.self).lowercased()

        var classes: Range<Int>?
        var alt: Range<Int>?
        var selfClosing = false
        while true {
            while index < end, Self.isSpace(input[index]) { index += 1 }
            guard index < end else { return unterminatedTag(at: start) }
            let byte = input[index]
            if byte == .greaterThan {
                index += 1
                break
            }
            if byte == .slash {
                selfClosing = index + 1 < end && input[index + 1] == .greaterThan
                index += 1
                continue
            }
            let attributeStart = index
            index += 1
            while index < end, !Self.isSpace(input[index]), input[index] != .greaterThan, input[index] != .slash,
                input[index] != .equals
            {
                index += 1
            }
            let attribute = attributeStart..<index
            while index < end, Self.isSpace(input[index]) { index += 1 }
            guard index < end, input[index] == .equals else { continue }
            index += 1
            while index < end, Self.isSpace(input[index]) { index += 1 }
            guard index < end else { return unterminatedTag(at: start) }
            let value: Range<Int>
            if input[index] == .doubleQuote || input[index] == .singleQuote {
                let quote = input[index]
                index += 1
                let valueStart = index
                while index < end, input[index] != quote { index += 1 }
                guard index < end else { return unterminatedTag(at: start) }
                value = valueStart..<index
                index += 1
            } else {
                let valueStart = index
                while index < end, !Self.isSpace(input[index]), input[index] != .greaterThan { index += 1 }
                value = valueStart..<index
            }
            if equalsIgnoringCase(attribute, "class") {
                classes = value
            } else if equalsIgnoringCase(attribute, "alt") {
                alt = value
            }
        }

        if closing {
            close(name)
            return index
        }
        if !selfClosing, name == "script" || name == "style" {
            guard let closeTag = find("</\(name)", from: index, ignoringCase: true) else { return end }
            return find(">", from: closeTag).map { $0 + 1 } ?? end
        }
        openElement(name, classes: classes, alt: alt, selfClosing: selfClosing)
        return index
    }

    /// A tag still open at the end of the input: from its `<` on, everything is text.
    private mutating func unterminatedTag(at start: Int) -> Int {
        literal = true
        text(.lessThan)
        return start + 1
    }

    private mutating func openElement(_ name: String, classes: Range<Int>?, alt: Range<Int>?, selfClosing: Bool) {
        let effect: Effect
        switch name {
        case "br":
            breakLine()
            return
        case "img":
            if let alt { decodeText(in: alt) }
            return
        case "hr":
            boundary(2)
            return
        case "area", "base", "col", "embed", "input", "link", "meta", "param", "source", "track", "wbr":
            return
        case _ where hidesQuoteFallback && classes.map { hasClass("quote-inline", in: $0) } == true:
            effect = .invisible
            hidden += 1
        case "ul", "ol":
            effect = .list
            boundary(lists.isEmpty ? 2 : 1)
            lists.append(name == "ol" ? 1 : nil)
        case "li":
            effect = .block(1)
            boundary(1)
            if hidden == 0 {
                if let number = lists.last ?? nil {
                    lists[lists.count - 1] = number + 1
                    for byte in "\(number). ".utf8 { text(byte) }
                } else {
                    text(literal: "• ")
                }
            }
        case "pre":
            effect = .preformatted
            boundary(2)
            preformatted += 1
        case "span" where classes.map { hasClass("invisible", in: $0) } == true:
            effect = .invisible
            hidden += 1
        case "span" where classes.map { hasClass("ellipsis", in: $0) } == true:
            effect = .ellipsis
        default:
            if let level = Self.blockLevel(name) {
                effect = .block(level)
                boundary(level)
            } else {
                effect = .none
            }
        }
        if selfClosing {
            closeEffect(effect)
        } else {
            open.append(OpenElement(name: name, effect: effect))
            openCounts[name, default: 0] += 1
        }
    }

    /// Closes the innermost open element called `name` and everything opened inside it; a
    /// close tag with no open element of its name only ends a block.
    private mutating func close(_ name: String) {
        guard openCounts[name, default: 0] > 0 else {
            if let level = Self.blockLevel(name) { boundary(level) }
            return
        }
        while let element = open.popLast() {
            openCounts[element.name, default: 0] -= 1
            closeEffect(element.effect)
            if element.name == name { break }
        }
    }

    private mutating func closeEffect(_ effect: Effect) {
        switch effect {
        case .none:
            break
        case .block(let level):
            boundary(level)
        case .ellipsis:
            text(literal: "…")
        case .invisible:
            hidden -= 1
        case .list:
            lists.removeLast()
            boundary(lists.isEmpty ? 2 : 1)
        case .preformatted:
            preformatted -= 1
            boundary(2)
        }
    }

    private static func blockLevel(_ name: String) -> Int? {
        switch name {
        case "p", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table", "figure", "dl":
            return 2
        case "div", "li", "tr", "dt", "dd", "section", "article", "header", "footer", "aside", "nav", "main",
            "figcaption", "address", "details", "summary", "caption":
            return 1
        default:
            return nil
        }
    }

    // MARK: - Scanning helpers

    /// Decodes entities in an attribute value and writes it as text.
    private mutating func decodeText(in range: Range<Int>) {
        var index = range.lowerBound
        while index < range.upperBound {
            if input[index] == .ampersand {
                index = entity(at: index, end: range.upperBound)
            } else {
                text(input[index])
                index += 1
            }
        }
    }

    private func hasClass(_ wanted: String, in range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            while index < range.upperBound, Self.isSpace(input[index]) { index += 1 }
            let tokenStart = index
            while index < range.upperBound, !Self.isSpace(input[index]) { index += 1 }
            if index > tokenStart, equalsIgnoringCase(tokenStart..<index, wanted) { return true }
        }
        return false
    }

    private func equalsIgnoringCase(_ range: Range<Int>, _ word: String) -> Bool {
        var wordBytes = word.utf8.makeIterator()
        for index in range {
            guard let expected = wordBytes.next(), Self.lowercased(input[index]) == expected else { return false }
        }
        return wordBytes.next() == nil
    }

    /// The index where `needle` (ASCII) next starts at or after `start`.
    private func find(_ needle: String, from start: Int, ignoringCase: Bool = false) -> Int? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, start + pattern.count <= input.count else { return nil }
        var index = start
        while index + pattern.count <= input.count {
            let byte = ignoringCase ? Self.lowercased(input[index]) : input[index]
            if byte == first {
                var matched = 1
                while matched < pattern.count {
                    let candidate = input[index + matched]
                    guard (ignoringCase ? Self.lowercased(candidate) : candidate) == pattern[matched] else { break }
                    matched += 1
                }
                if matched == pattern.count { return index }
            }
            index += 1
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == .hyphen || byte == UInt8(ascii: ":")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .newline || byte == .tab || byte == .carriageReturn || byte == 0x0C
    }

    private static func digit(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

extension UInt8 {
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let doubleQuote = UInt8(ascii: "\"")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let exclamation = UInt8(ascii: "!")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let hyphen = UInt8(ascii: "-")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let question = UInt8(ascii: "?")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let singleQuote = UInt8(ascii: "'")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")
}
