/// The one rule for text a server sent before anything shows it: which code points could drive a
/// display (a terminal's escape sequences, its bell, a line rewritten by a carriage return),
/// reorder what is shown around them (bidirectional embeddings, overrides and isolates), or hide
/// between two letters so that two different names look the same (zero-width and other invisible
/// characters).
///
/// ``clean(_:keepingLines:)`` applies it: every control character (C0, DEL, C1, and the line and
/// paragraph separators U+2028 and U+2029) becomes a space — a line break stays one when lines
/// are kept; the bidirectional controls U+202A–U+202E and U+2066–U+2069 are removed; an
/// invisible character is *shown*, as `<U+200B>`, so `ada` and `a<U+200B>da` never look alike —
/// except where it joins what is around it into what the text means to show: a zero-width joiner
/// inside an emoji sequence (👩‍💻), a variation selector after an emoji or an ideograph, the tags
/// of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), and a zero-width joiner or non-joiner between two letters
/// of a script it shapes (Arabic, Syriac, Thaana, N'Ko, the Indic scripts, Myanmar, Khmer,
/// Mongolian). The REPL's ``TerminalText`` and the JSON-lines encoder are built on it.
package enum TextSafety {
    /// What becomes of one scalar.
    enum Treatment {
        case keep, space, remove, show
    }

    /// `text` safe to show: see the type's rule. Line breaks (`\n`, `\r\n`) are kept when
    /// `keepingLines` is set, else spaces like every other control character. Idempotent:
    /// cleaning clean text changes nothing.
    ///
    /// - Complexity: O(n); text of printable ASCII alone (most of it) is returned as it is after
    ///   one pass over its bytes.
    package static func clean(_ text: String, keepingLines: Bool = false) -> String {
        scan(text) ? text : cleaned(text, keepingLines: keepingLines)
    }

    /// `clean` of any other string type. (`String` has its own entry point: across modules this
    /// generic one is not specialised, and its byte walk through the protocol's witnesses cost
    /// the REPL a tenth of its time.)
    package static func clean(_ text: some StringProtocol, keepingLines: Bool = false) -> String {
        scan(text) ? String(text) : cleaned(text, keepingLines: keepingLines)
    }

    /// Text that needs a look, scalar by scalar.
    private static func cleaned(_ text: some StringProtocol, keepingLines: Bool) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        /// The last scalar written, for the joiners' rules.
        var previous: Unicode.Scalar?
        /// Whether the scalars written last are a flag's tag sequence (🏴 then tags).
        var inFlagTags = false
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" { continue }  // \r\n: one break
            if scalar == "\n", keepingLines {
                result.append(scalar)
                previous = scalar
                inFlagTags = false
                continue
            }
            switch treatment(of: scalar, after: previous, before: next(after: index, in: scalars), inFlagTags: inFlagTags) {
            case .keep:
                result.append(scalar)
                inFlagTags = scalar.value == 0x1F3F4 || (inFlagTags && isTag(scalar.value) && scalar.value != 0xE007F)
                previous = scalar
            case .space:
                result.append(" ")
                previous = " "
                inFlagTags = false
            case .remove:
                continue
            case .show:
                result.append(contentsOf: shown(scalar).unicodeScalars)
                previous = ">"
                inFlagTags = false
            }
        }
        return String(result)
    }

    /// `<U+200B>`: how an invisible character is shown.
    package static func shown(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// Whether ``clean(_:keepingLines:)`` (without lines) leaves `text` as it is: no scalar
    /// that needs a look (``needsLook(_:)``).
    ///
    /// - Complexity: O(n), one pass over the bytes for ASCII.
    package static func isClean(_ text: String) -> Bool { scan(text) }

    /// `isClean` of any other string type.
    package static func isClean(_ text: some StringProtocol) -> Bool { scan(text) }

    /// `isClean`'s one pass, specialised into each entry point: over the UTF-8 bytes in place
    /// when the string keeps them contiguously (a native `String` does), each multi-byte scalar
    /// decoded where it stands; else over the bytes, then the scalars.
    @inline(__always)
    private static func scan(_ text: some StringProtocol) -> Bool {
        if let clean = text.utf8.withContiguousStorageIfAvailable(scan(utf8:)) { return clean }
        var ascii = true
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return true }
        return !text.unicodeScalars.contains(where: needsLook)
    }

    /// Whether valid UTF-8 `bytes` hold no scalar that needs a look. A sequence cut short at the
    /// end counts as needing one (the scalar-by-scalar path then decides). O(n), one pass.
    private static func scan(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead < 0x20 || lead == 0x7F { return false }
                index += 1
                continue
            }
            // A continuation byte where a scalar should start: not a `String`'s bytes at a
            // scalar boundary; the scalar-by-scalar path decides.
            guard lead >= 0xC0 else { return false }
            let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard index + length <= count else { return false }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            if needsLook(value: value) { return false }
            index += length
        }
        return true
    }

    /// Whether `scalar` is one the rule may change (a control, a bidirectional control, an
    /// invisible character — joiners included, though kept where they join): what the
    /// JSON-lines encoder escapes as `\u` and four hex digits, so its lines hold none of them raw.
    package static func needsLook(_ scalar: Unicode.Scalar) -> Bool {
        needsLook(value: scalar.value)
    }

    /// ``needsLook(_:)`` of a scalar's value.
    @inline(__always)
    private static func needsLook(value: UInt32) -> Bool {
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0x034F { return false }
        return isBidiControl(value) || isLineSeparator(value) || isInvisible(value)
    }

    // MARK: - The rule

    static func treatment(of scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?, inFlagTags: Bool) -> Treatment {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || isLineSeparator(value) { return .space }
        if value < 0x034F { return .keep }
        if isBidiControl(value) { return .remove }
        guard isInvisible(value) else { return .keep }
        switch value {
        case 0x200D:  // zero-width joiner
            if let previous, let next, isEmojiPart(previous), isPictographic(next) { return .keep }
            return joinsLetters(previous, next) ? .keep : .show
        case 0x200C:  // zero-width non-joiner
            return joinsLetters(previous, next) ? .keep : .show
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF:  // variation selectors
            guard let previous else { return .show }
            if isPictographic(previous) || previous.properties.isIdeographic { return .keep }
            // A keycap: a digit, # or * with U+FE0F before U+20E3.
            if previous.properties.isEmoji, next?.value == 0x20E3 { return .keep }
            return .show
        case 0x180B...0x180D, 0x180F:  // Mongolian variation selectors, after Mongolian letters
            return previous.map { (0x1800...0x18AF).contains($0.value) } == true ? .keep : .show
        case 0xE0020...0xE007F:  // tags: only in a flag's tag sequence
            return inFlagTags ? .keep : .show
        default:
            return .show
        }
    }

    /// The scalar after `index` that will not be removed (what a joiner joins with).
    private static func next(after index: Int, in scalars: [Unicode.Scalar]) -> Unicode.Scalar? {
        var index = index
        while index < scalars.count, isBidiControl(scalars[index].value) { index += 1 }
        return index < scalars.count ? scalars[index] : nil
    }

    /// U+202A–U+202E (embeddings, overrides, their pop) and U+2066–U+2069 (isolates).
    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// U+2028 and U+2029: they break lines as a line feed does.
    private static func isLineSeparator(_ value: UInt32) -> Bool {
        value == 0x2028 || value == 0x2029
    }

    /// Characters drawn as nothing: format characters (but the soft hyphen, which terminals draw,
    /// and the prepended concatenation marks, which are signs), the Hangul fillers, the combining
    /// grapheme joiner, Khmer's inherent vowels, variation selectors and tags.
    private static func isInvisible(_ value: UInt32) -> Bool {
        switch value {
        case 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F,
            0x2060...0x2064, 0x206A...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB,
            0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0001, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    private static func isTag(_ value: UInt32) -> Bool { (0xE0020...0xE007F).contains(value) }

    /// An emoji drawn as a picture (not a digit, `#` or `*`, which are emoji only in keycaps).
    private static func isPictographic(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji
    }

    /// What may stand before the joiner of an emoji sequence: an emoji, its presentation
    /// selector, a skin tone.
    private static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        isPictographic(scalar) || scalar.value == 0xFE0F
    }

    /// Whether a joiner between `previous` and `next` stands between two characters of a script
    /// whose shapes it changes.
    private static func joinsLetters(_ previous: Unicode.Scalar?, _ next: Unicode.Scalar?) -> Bool {
        guard let previous, let next else { return false }
        return isShaped(previous.value) && isShaped(next.value)
    }

    /// Arabic, Syriac, Thaana, N'Ko and Arabic's extensions; the Indic scripts (Devanagari to
    /// Sinhala); Myanmar; Khmer and Mongolian; Devanagari Extended; Arabic presentation forms.
    private static func isShaped(_ value: UInt32) -> Bool {
        switch value {
        case 0x0600...0x08FF, 0x0900...0x0DFF, 0x1000...0x109F, 0x1780...0x18AF, 0xA8E0...0xA8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFC:
            return true
        default:
            return false
        }
    }
}
