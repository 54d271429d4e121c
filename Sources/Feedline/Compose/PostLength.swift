/// The length of a post as a Mastodon server counts it against `max_characters` (its
/// `StatusLengthValidator`):
///
/// - the content warning counts as it is: its grapheme clusters, URLs and mentions included;
/// - the text counts its grapheme clusters after every URL is replaced by
///   `charactersReservedPerURL` characters and every mention `@user@domain` by `@user` (a local
///   `@user` counts in full); a text of white space only counts 0 (Rails' `blank?`);
/// - the two are counted joined, warning first, so a text that starts with a combining mark
///   joins the warning's last character, as it does on the server.
///
/// URLs are found the way twitter-text's `valid_url` finds them with a scheme: `http://` or
/// `https://` (any case), not right after a letter, digit, `@`, `$` or `#`; then a host of at least
/// two labels whose last starts with a letter; an optional port; then path and query characters
/// (ASCII letters and digits, `!*';:=+,.$/%#[]-_~&|@?`, Latin accents, Cyrillic, balanced
/// parentheses), with trailing punctuation (`.,:;!?'*`, an unmatched `)`) left out. A URL stops at
/// white space, double quotes, `<>{}^\` and letters of other scripts. Mentions follow Mastodon's `Account::MENTION_RE`
/// (`@` not after `=`, `/` or a word character, an ASCII user name, an optional `@domain`) and are
/// dropped when followed by `@`, a Latin accent or `://`, as twitter-text drops them; a mention
/// inside a URL does not count as one.
///
/// Known differences from the server: twitter-text checks the top-level domain against its list
/// (here any label starting with a letter will do), and a scheme-less domain such as `a.com/x` can
/// swallow a URL written right after it there; grapheme clusters follow the Swift runtime's
/// Unicode version, the server's its Ruby's.
@_spi(Benchmarks) public enum PostLength {
    /// The length of `text` with `contentWarning` (`nil` counts as empty) as the server counts it.
    ///
    /// - Complexity: O(*n*) in the UTF-8 length of both; grapheme clusters are only computed for the
    ///   runs of the text that hold non-ASCII characters.
    public static func count(text: String, contentWarning: String?, limits: ComposeLimits = .mastodonDefaults) -> Int {
        let reserved = max(0, limits.charactersReservedPerURL)
        let warning = contentWarning ?? ""
        var text = text
        return text.withUTF8 { bytes in
            var textCount = 0
            var blank = true
            var first: LengthSegment?
            var start = 0
            while start < bytes.count {
                let end = LengthScanner.segmentEnd(bytes, from: start)
                let segment = LengthScanner.measure(bytes, start..<end, reserved: reserved)
                if first == nil { first = segment }
                textCount += segment.count
                blank = blank && segment.isBlank
                start = end
            }
            return joined(
                warning: warning, warningCount: warning.count, text: bytes, firstSegment: first,
                textCount: textCount, textIsBlank: blank, reserved: reserved)
        }
    }

    /// The warning and the countable text counted together, from the text's count by segments.
    static func joined(
        warning: String, warningCount: Int, text: UnsafeBufferPointer<UInt8>, firstSegment: LengthSegment?,
        textCount: Int, textIsBlank: Bool, reserved: Int
    ) -> Int {
        if textIsBlank { return warningCount }
        guard let last = warning.last, let firstSegment, let lead = text.first else { return textCount }
        // An ASCII start joins the warning only as a pair (CR LF, or after a prepended mark), and
        // the clusters after it are the same either way.
        if lead < 0x80 {
            var pair = String(last)
            pair.unicodeScalars.append(Unicode.Scalar(lead))
            return warningCount + textCount - (pair.count == 1 ? 1 : 0)
        }
        // Otherwise count the warning's last cluster with the first segment (segments always
        // start a new cluster, so what follows is unaffected).
        let head = LengthScanner.countable(text, 0..<firstSegment.byteCount, reserved: reserved)
        return warningCount - 1 + (String(last) + head).count + textCount - firstSegment.count
    }
}

/// Counts a draft's length again after each edit, measuring only the part of the text that
/// changed; ``count`` always equals ``PostLength/count(text:contentWarning:limits:)`` for the last
/// text and content warning given.
///
/// It keeps the text cut into segments (a segment ends where white space is followed by an ASCII
/// character: nothing the server counts spans such a cut) with each segment's count.
@_spi(Benchmarks) public struct PostLengthCounter: Sendable {
    /// The limits it counts with (URLs count `charactersReservedPerURL`).
    public let limits: ComposeLimits
    /// The length of the last text and content warning given; 0 before any.
    public private(set) var count = 0

    private var text = ""
    private var warning = ""
    private var warningCount = 0
    private var segments: [LengthSegment] = []
    private var textCount = 0
    private var nonBlankSegments = 0
    /// How many bytes of the new text the last ``update(text:contentWarning:)`` measured again
    /// (for tests that fence its work).
    package private(set) var lastRemeasuredBytes = 0

    /// A counter of the empty text.
    public init(limits: ComposeLimits = .mastodonDefaults) {
        self.limits = limits
    }

    /// Takes the new whole text and content warning (`nil` counts as empty) and returns their
    /// length, equal to ``PostLength/count(text:contentWarning:limits:)``.
    ///
    /// - Complexity: O(*n*) byte comparisons (word-sized) to find what changed, O(*s*) over the
    ///   segments, and O(*m*) to measure again the *m* bytes of the segments that the change
    ///   touches; a changed content warning is counted again in O(its length).
    @discardableResult
    public mutating func update(text newText: String, contentWarning: String?) -> Int {
        let newWarning = contentWarning ?? ""
        if newWarning != warning {
            warning = newWarning
            warningCount = newWarning.count
        }
        var old = text
        var new = newText
        old.withUTF8 { oldBytes in
            new.withUTF8 { newBytes in edit(from: oldBytes, to: newBytes) }
        }
        text = new
        count = new.withUTF8 { bytes in
            PostLength.joined(
                warning: warning, warningCount: warningCount, text: bytes, firstSegment: segments.first,
                textCount: textCount, textIsBlank: nonBlankSegments == 0, reserved: reserved)
        }
        return count
    }

    private var reserved: Int { max(0, limits.charactersReservedPerURL) }

    /// Replaces the segments the change touches: from the one holding the last byte before the
    /// change to the first cut after it that lies in the unchanged end (cuts depend only on the two
    /// bytes around them, so from there on the old segments hold).
    private mutating func edit(from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>) {
        let prefix = LengthScanner.commonPrefix(old, new)
        if prefix == old.count && prefix == new.count {
            lastRemeasuredBytes = 0
            return
        }
        let suffix = LengthScanner.commonSuffix(old, new, limit: min(old.count, new.count) - prefix)
        var first = 0
        var start = 0
        if prefix > 0 {
            while first < segments.count && start + segments[first].byteCount < prefix {
                start += segments[first].byteCount
                first += 1
            }
        }
        let stable = new.count - suffix
        var fresh: [LengthSegment] = []
        var position = start
        var resume = old.count
        while position < new.count {
            let end = LengthScanner.segmentEnd(new, from: position)
            fresh.append(LengthScanner.measure(new, position..<end, reserved: reserved))
            position = end
            if end < new.count && end > stable {
                resume = end - (new.count - old.count)
                break
            }
        }
        var last = first
        var offset = start
        while offset < resume && last < segments.count {
            offset += segments[last].byteCount
            last += 1
        }
        guard offset == resume else {
            // Not reachable while cuts are local; measuring everything is still right.
            assertionFailure("PostLengthCounter: old segments do not meet the new ones at \(resume)")
            rebuild(new)
            return
        }
        for segment in segments[first..<last] {
            textCount -= segment.count
            if !segment.isBlank { nonBlankSegments -= 1 }
        }
        for segment in fresh {
            textCount += segment.count
            if !segment.isBlank { nonBlankSegments += 1 }
        }
        segments.replaceSubrange(first..<last, with: fresh)
        lastRemeasuredBytes = position - start
    }

    private mutating func rebuild(_ bytes: UnsafeBufferPointer<UInt8>) {
        segments = []
        textCount = 0
        nonBlankSegments = 0
        var start = 0
        while start < bytes.count {
            let end = LengthScanner.segmentEnd(bytes, from: start)
            let segment = LengthScanner.measure(bytes, start..<end, reserved: reserved)
            segments.append(segment)
            textCount += segment.count
            if !segment.isBlank { nonBlankSegments += 1 }
            start = end
        }
        lastRemeasuredBytes = bytes.count
    }
}

/// A run of a text between two cuts, counted on its own.
struct LengthSegment: Hashable, Sendable {
    /// Its UTF-8 length.
    var byteCount: Int
    /// Its grapheme clusters once URLs and mentions are replaced.
    var count: Int
    /// Whether it is white space only.
    var isBlank: Bool
}

/// A URL or a mention found in a segment, as byte offsets into the text.
struct LengthEntity: Hashable, Sendable {
    var start: Int
    var end: Int
    /// For a mention, the end of the `@user` part that still counts; `nil` for a URL.
    var keptEnd: Int?

    func count(reserved: Int) -> Int {
        if let keptEnd { keptEnd - start } else { reserved }
    }
}

/// The byte-level scanner behind ``PostLength`` and ``PostLengthCounter``. Texts are the UTF-8
/// of Swift strings, so always valid; a stray byte still decodes as U+FFFD rather than trap.
enum LengthScanner {
    // MARK: segments

    /// Whether a segment starts at `index` (0 < `index` < count): after a space, tab or line feed
    /// and on an ASCII byte. Grapheme clusters always break there, and no URL or mention spans it.
    @inline(__always)
    static func isCut(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let before = bytes[index - 1]
        return (before == 0x20 || before == 0x0A || before == 0x09) && bytes[index] < 0x80
    }

    /// Where the segment that starts at `start` ends: the next cut, or the end of the text.
    static func segmentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if isCut(bytes, at: index) { return index }
            index += 1
        }
        return bytes.count
    }

    /// Counts one segment. ASCII segments are counted by arithmetic (bytes, less CR LF pairs, with
    /// each entity's length swapped for its count); others as Swift `Character`s of their
    /// countable form.
    static func measure(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, reserved: Int) -> LengthSegment {
        var ascii = true
        var blank = true
        var maybeEntity = false
        var pairs = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            switch byte {
            case 0x0D:
                if index + 1 < range.upperBound && bytes[index + 1] == 0x0A { pairs += 1 }
            case 0x20, 0x09...0x0C:
                break
            case 0x3A, 0x40:
                maybeEntity = true
                blank = false
            case 0x80...:
                ascii = false
            default:
                blank = false
            }
            index += 1
        }
        if !ascii && blank {
            let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            blank = raw.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        }
        let found = maybeEntity ? entities(bytes, range) : []
        var count: Int
        if ascii {
            count = range.count - pairs
            for entity in found { count += entity.count(reserved: reserved) - (entity.end - entity.start) }
        } else {
            count = countable(bytes, range, entities: found, reserved: reserved).count
        }
        return LengthSegment(byteCount: range.count, count: count, isBlank: blank)
    }

    /// The segment as the server counts it: URLs as `x` × `reserved`, mentions as `@user`.
    static func countable(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, reserved: Int) -> String {
        countable(bytes, range, entities: entities(bytes, range), reserved: reserved)
    }

    private static func countable(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, entities: [LengthEntity], reserved: Int
    ) -> String {
        func text(_ part: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[part]), as: UTF8.self)
        }
        guard !entities.isEmpty else { return text(range) }
        var result = ""
        result.reserveCapacity(range.count)
        var position = range.lowerBound
        for entity in entities {
            result += text(position..<entity.start)
            if let keptEnd = entity.keptEnd {
                result += text(entity.start..<keptEnd)
            } else {
                result += String(repeating: "x", count: reserved)
            }
            position = entity.end
        }
        result += text(position..<range.upperBound)
        return result
    }

    // MARK: entities

    /// The URLs and mentions of a segment in order; where two overlap the earlier one stays
    /// (twitter-text's `remove_overlapping_entities`).
    static func entities(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [LengthEntity] {
        let urls = self.urls(bytes, range)
        let mentions = self.mentions(bytes, range)
        if mentions.isEmpty { return urls }
        if urls.isEmpty { return mentions }
        var kept: [LengthEntity] = []
        kept.reserveCapacity(urls.count + mentions.count)
        for entity in (urls + mentions).sorted(by: { $0.start < $1.start }) {
            if let previous = kept.last, previous.end > entity.start { continue }
            kept.append(entity)
        }
        return kept
    }

    /// URLs with a scheme, found left to right; one URL's last character cannot be the next
    /// one's preceding character (the regex consumed it).
    static func urls(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [LengthEntity] {
        var found: [LengthEntity] = []
        var consumed = range.lowerBound
        var index = range.lowerBound
        while index + 10 <= range.upperBound {
            if bytes[index] | 0x20 == 0x68,
                let hostStart = schemeEnd(bytes, at: index, end: range.upperBound),
                index == range.lowerBound || precedesURL(bytes, at: index, lower: range.lowerBound, consumed: consumed),
                let end = urlEnd(bytes, host: hostStart, end: range.upperBound)
            {
                found.append(LengthEntity(start: index, end: end, keptEnd: nil))
                consumed = end
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// After `http://` or `https://` (any case) at `index`.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
        guard index + 7 <= end,
            bytes[index + 1] | 0x20 == 0x74, bytes[index + 2] | 0x20 == 0x74, bytes[index + 3] | 0x20 == 0x70
        else { return nil }
        var next = index + 4
        if bytes[next] | 0x20 == 0x73 { next += 1 }
        guard next + 3 <= end, bytes[next] == 0x3A, bytes[next + 1] == 0x2F, bytes[next + 2] == 0x2F else { return nil }
        return next + 3
    }

    /// twitter-text's `valid_url_preceding_chars`: not a letter, digit, `@`, `$`, `#`, their
    /// full-width forms, nor a byte-order mark or direction override; and not part of a URL.
    private static func precedesURL(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lower: Int, consumed: Int) -> Bool {
        let (scalar, start) = decode(before: index, in: bytes, lower: lower)
        guard start >= consumed else { return false }
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x40, 0x24, 0x23: return false
        case 0xFF20, 0xFF03, 0xFFFE, 0xFEFF, 0xFFFF, 0x202A...0x202E: return false
        default: return true
        }
    }

    /// The end of a URL whose host starts at `host`, or `nil` when there is no host.
    private static func urlEnd(_ bytes: UnsafeBufferPointer<UInt8>, host: Int, end: Int) -> Int? {
        var index = host
        var labels = 0
        var lastLabel = host
        while true {
            let label = index
            while index < end, let length = hostCharacterLength(bytes, at: index, end: end) { index += length }
            guard index > label else { break }
            labels += 1
            lastLabel = label
            guard index + 1 < end, bytes[index] == 0x2E, hostCharacterLength(bytes, at: index + 1, end: end) != nil else {
                break
            }
            index += 1
        }
        guard labels >= 2, startsWithLetter(bytes, at: lastLabel, end: end) else { return nil }
        if index < end && (bytes[index] == 0x40 || bytes[index] == 0x2B) { return nil }
        if index + 1 < end && bytes[index] == 0x3A && isDigit(bytes[index + 1]) {
            index += 1
            while index < end && isDigit(bytes[index]) { index += 1 }
        }
        guard index < end, bytes[index] == 0x2F || bytes[index] == 0x3F else { return index }

        var good = index
        var depth = 0
        var query = false
        scan: while index < end {
            let byte = bytes[index]
            if byte >= 0x80 {
                let (scalar, length) = decode(at: index, in: bytes, end: end)
                guard isURLLetter(scalar.value) else { break scan }
                index += length
                if depth == 0 && scalar.value != 0x2013 { good = index }
                continue
            }
            switch byte {
            case 0x3F:
                query = true
                index += 1
            case 0x28 where !query:
                depth += 1
                index += 1
            case 0x29 where !query:
                guard depth > 0 else { break scan }
                depth -= 1
                index += 1
                if depth == 0 { good = index }
            default:
                guard isPathCharacter(byte) else { break scan }
                index += 1
                if depth == 0 && isPathEnding(byte, query: query) { good = index }
            }
        }
        return good
    }

    /// Mentions (Mastodon's `Account::MENTION_RE`), found left to right, less those followed by
    /// `@`, `＠`, a Latin accent or `://` (twitter-text's `end_mention_match`).
    static func mentions(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [LengthEntity] {
        var found: [LengthEntity] = []
        let end = range.upperBound
        var index = range.lowerBound
        while index + 1 < end {
            guard bytes[index] == 0x40, isUserCharacter(bytes[index + 1]),
                index == range.lowerBound || precedesMention(bytes, at: index, lower: range.lowerBound)
            else {
                index += 1
                continue
            }
            // [a-z0-9_]+([.-]+[a-z0-9_]+)*
            var next = index + 1
            while next < end && isUserCharacter(bytes[next]) { next += 1 }
            while next < end && isDotOrDash(bytes[next]) {
                var after = next
                while after < end && isDotOrDash(bytes[after]) { after += 1 }
                guard after < end, isUserCharacter(bytes[after]) else { break }
                next = after
                while next < end && isUserCharacter(bytes[next]) { next += 1 }
            }
            let userEnd = next
            // (@[[:word:]]+([.-]+[[:word:]]+)*)?
            if next + 1 < end, bytes[next] == 0x40, let length = wordLength(bytes, at: next + 1, end: end) {
                next += 1 + length
                while let length = wordLength(bytes, at: next, end: end) { next += length }
                while next < end && isDotOrDash(bytes[next]) {
                    var after = next
                    while after < end && isDotOrDash(bytes[after]) { after += 1 }
                    guard let length = wordLength(bytes, at: after, end: end) else { break }
                    next = after + length
                    while let length = wordLength(bytes, at: next, end: end) { next += length }
                }
            }
            if !endsMentionBadly(bytes, at: next, end: end) {
                found.append(LengthEntity(start: index, end: next, keptEnd: userEnd))
            }
            index = next
        }
        return found
    }

    /// `(?<![=/[:word:]])`.
    private static func precedesMention(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lower: Int) -> Bool {
        let (scalar, _) = decode(before: index, in: bytes, lower: lower)
        return scalar != "=" && scalar != "/" && !isWord(scalar)
    }

    private static func endsMentionBadly(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
        guard index < end else { return false }
        if bytes[index] == 0x40 { return true }
        if index + 2 < end && bytes[index] == 0x3A && bytes[index + 1] == 0x2F && bytes[index + 2] == 0x2F { return true }
        guard bytes[index] >= 0x80 else { return false }
        let value = decode(at: index, in: bytes, end: end).0.value
        return value == 0xFF20 || isLatinAccent(value)
    }

    // MARK: characters

    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }
    @inline(__always) private static func isUserCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == 0x5F
    }
    @inline(__always) private static func isDotOrDash(_ byte: UInt8) -> Bool { byte == 0x2E || byte == 0x2D }

    /// `!*';:=+,.$/%#[]-_~&|@?` and, in a query, `()`; letters and digits.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x21, 0x2A, 0x27, 0x3B, 0x3A, 0x3D, 0x2B, 0x2C, 0x2E, 0x24, 0x2F, 0x25, 0x23, 0x5B, 0x5D, 0x2D, 0x5F,
            0x7E, 0x26, 0x7C, 0x40, 0x3F, 0x28, 0x29:
            return true
        default: return false
        }
    }

    /// What a path may end with (`=_#/+-`) or a query (`_&=#/-`), besides letters and digits.
    private static func isPathEnding(_ byte: UInt8, query: Bool) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x3D, 0x5F, 0x23, 0x2F, 0x2D: return true
        case 0x2B: return !query
        case 0x26: return query
        default: return false
        }
    }

    /// Latin accents and Cyrillic (path characters that may end a URL), and the en dash.
    private static func isURLLetter(_ value: UInt32) -> Bool {
        switch value {
        case 0x2013, 0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: true
        default: isLatinAccent(value)
        }
    }

    /// twitter-text's `LATIN_ACCENTS`.
    private static func isLatinAccent(_ value: UInt32) -> Bool {
        switch value {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x24F, 0x253...0x254, 0x256...0x257, 0x259, 0x25B,
            0x263, 0x268, 0x26F, 0x272, 0x289, 0x28B, 0x2BB, 0x300...0x36F, 0x1E00...0x1EFF:
            true
        default: false
        }
    }

    /// The UTF-8 length of a host character at `index` (ASCII letter, digit, `-`, `_`; any
    /// letter, mark or number), or `nil`.
    private static func hostCharacterLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
        let byte = bytes[index]
        if byte < 0x80 {
            return isLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x5F ? 1 : nil
        }
        let (scalar, length) = decode(at: index, in: bytes, end: end)
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return length
        default: return nil
        }
    }

    private static func startsWithLetter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 { return isLetter(byte) }
        return decode(at: index, in: bytes, end: end).0.properties.isAlphabetic
    }

    /// The UTF-8 length of a `[[:word:]]` character at `index` (letter, mark, decimal digit,
    /// connector punctuation), or `nil` (also at the end).
    private static func wordLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
        guard index < end else { return nil }
        let byte = bytes[index]
        if byte < 0x80 { return isUserCharacter(byte) ? 1 : nil }
        let (scalar, length) = decode(at: index, in: bytes, end: end)
        return isWord(scalar) ? length : nil
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isUserCharacter(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
            return true
        default: return false
        }
    }

    // MARK: UTF-8

    /// The scalar starting at `index` and its length in bytes.
    @inline(__always)
    static func decode(at index: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> (Unicode.Scalar, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard lead >= 0xC0, index + length <= end else { return ("\u{FFFD}", 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The scalar ending at `index` and where it starts (not before `lower`).
    static func decode(before index: Int, in bytes: UnsafeBufferPointer<UInt8>, lower: Int) -> (Unicode.Scalar, Int) {
        var start = index - 1
        while start > lower && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return (decode(at: start, in: bytes, end: index).0, start)
    }

    // MARK: comparing

    /// How many leading bytes the two have in common, compared a word at a time.
    static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let limit = min(a.count, b.count)
        guard limit > 0, let left = a.baseAddress, let right = b.baseAddress else { return 0 }
        let rawLeft = UnsafeRawPointer(left)
        let rawRight = UnsafeRawPointer(right)
        var index = 0
        while index + 8 <= limit,
            rawLeft.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                == rawRight.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        {
            index += 8
        }
        while index < limit && left[index] == right[index] { index += 1 }
        return index
    }

    /// How many trailing bytes the two have in common, at most `limit`.
    static func commonSuffix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        guard limit > 0, let left = a.baseAddress, let right = b.baseAddress else { return 0 }
        let rawLeft = UnsafeRawPointer(left)
        let rawRight = UnsafeRawPointer(right)
        var length = 0
        while length + 8 <= limit,
            rawLeft.loadUnaligned(fromByteOffset: a.count - length - 8, as: UInt64.self)
                == rawRight.loadUnaligned(fromByteOffset: b.count - length - 8, as: UInt64.self)
        {
            length += 8
        }
        while length < limit && left[a.count - length - 1] == right[b.count - length - 1] { length += 1 }
        return length
    }
}
