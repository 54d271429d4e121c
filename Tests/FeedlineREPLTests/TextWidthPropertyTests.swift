import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("Text width shortcuts")
struct TextWidthPropertyTests {
    static let pieces = [
        "a", "Z", " ", "  ", "\n", "\r\n", "\t", "\u{1B}[31m", "\u{7}", "\u{85}", "漢", "字", "😀", "👩‍💻", "🇫🇷",
        "e\u{301}", "\u{200B}", "\u{FE0F}", "ﾊ", "…", "word", "longerword", ":shortcode:", "\u{00A0}", "\u{3000}",
        "🏽", "\u{301}", "\u{200D}", "\u{600}", "\u{903}", "ᄀ\u{1161}", "\u{1161}", "👍🏽", "#\u{FE0F}\u{20E3}", "🇫", "⌚\u{903}", "\u{1F3FB}\u{1F3FB}",
    ]

    @Test("oneLine(_:truncatedTo:) equals truncate(oneLine(_:)) on seeded random text")
    func boundedOneLineMatchesTheLongWay() {
        let seed = testSeed(0x7E57)
        var random = SeededGenerator(seed: seed)
        for round in 0..<3_000 {
            let count = Int(random.next() % 40)
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let columns = Int(random.next() % 30)
            let fast = TextWidth.oneLine(text, truncatedTo: columns)
            let slow = TextWidth.truncate(TextWidth.oneLine(text), to: columns)
            #expect(fast == slow, "seed \(seed) round \(round): \(text.debugDescription) at \(columns)")
            if fast != slow { return }
            #expect(TextWidth.width(of: fast) <= max(0, columns))
        }
    }

    /// A row pads its line from the widths of its parts, so joining a part to a space must add
    /// their widths — even where the join merges grapheme clusters (a space then a stray skin
    /// tone, mark or ZWJ; a prepended concatenation mark then a space). Found by fuzzing: a name
    /// starting with a skin tone left the row's first line two columns short.
    @Test("a space before or after any text adds exactly one column")
    func joiningASpaceAddsOneColumn() {
        let seed = testSeed(0x5BAC)
        var random = SeededGenerator(seed: seed)
        for round in 0..<2_000 {
            let count = 1 + Int(random.next() % 6)
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined()
            let width = TextWidth.width(of: text)
            // The scalar-by-scalar measure agrees with the character-by-character one.
            #expect(width == text.reduce(0) { $0 + TextWidth.width(of: $1) }, "seed \(seed) round \(round): \(text.debugDescription)")
            #expect(TextWidth.width(of: "  " + text) == width + 2, "seed \(seed) round \(round): before \(text.debugDescription)")
            #expect(TextWidth.width(of: text + " · ") == width + 3, "seed \(seed) round \(round): after \(text.debugDescription)")
        }
        #expect(TextWidth.width(of: " 🏽") == 3)
        #expect(TextWidth.width(of: "\u{600} ") == 1)
        #expect(TextWidth.width(of: "ᄀ\u{1161}\u{11A8}") == 2)
    }
}

extension TextWidthPropertyTests {
    /// `oneLine` returns most text as it is without rebuilding it; that shortcut must agree with
    /// the rule: controls become spaces, whitespace runs one space, none at either end.
    @Test("oneLine(_:) equals the character-by-character rule on seeded random text")
    func oneLineMatchesTheRule() {
        let seed = testSeed(0x011E)
        var random = SeededGenerator(seed: seed)
        let pieces = Self.pieces + [" ", " ", "x", " \u{301}", "\u{85}", "\u{2028}", "\u{600}"]
        for round in 0..<3_000 {
            let count = Int(random.next() % 12)
            let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            var expected = ""
            var pending = false
            for character in TextWidth.sanitize(text) {
                if character.isWhitespace {
                    pending = !expected.isEmpty
                    continue
                }
                if pending { expected.append(" ") }
                pending = false
                expected.append(character)
            }
            #expect(TextWidth.oneLine(text) == expected, "seed \(seed) round \(round): \(text.debugDescription)")
            if TextWidth.oneLine(text) != expected { return }
        }
    }
}

extension TextWidthPropertyTests {
    /// Every line printed is cleaned again on its way to the terminal, so what `truncate`,
    /// `oneLine(_:truncatedTo:)` and `wrap` make of clean text must stay clean: a joiner kept
    /// because of what followed it (an emoji then a flag, two shaped letters) ends the character
    /// before it, and a cut there left it last, where the sanitiser shows it as eight columns of
    /// `<U+200D>`. Found by the render fuzz target: a post screen's line of 30 columns at 23.
    @Test("cut and wrapped clean text stays clean, and as wide as measured")
    func cutTextStaysClean() {
        let seed = testSeed(0xC07)
        var random = SeededGenerator(seed: seed)
        let pieces = Self.pieces + ["👧\u{200D}🇯🇵", "क\u{200D}", "\u{094D}\u{200C}ष", "🐈\u{200D}⬛", "x\u{200D}"]
        for round in 0..<3_000 {
            let count = Int(random.next() % 30)
            let text = TextWidth.sanitize((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
            let columns = 1 + Int(random.next() % 30)
            let cut = [TextWidth.truncate(text, to: columns), TextWidth.oneLine(text, truncatedTo: columns)]
            for line in cut + TextWidth.wrap(text, to: columns) {
                #expect(TextWidth.sanitize(line) == line, "seed \(seed) round \(round): \(text.debugDescription) at \(columns) made \(line.debugDescription)")
            }
            for line in cut {
                #expect(TextWidth.width(of: TextWidth.sanitize(line)) <= columns, "seed \(seed) round \(round): \(text.debugDescription) at \(columns)")
            }
        }
        #expect(TextWidth.truncate(TextWidth.sanitize("ab👧\u{200D}🇯🇵cd"), to: 5) == "ab👧…")
    }
}
