import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("Text width shortcuts")
struct TextWidthPropertyTests {
    static let pieces = [
        "a", "Z", " ", "  ", "\n", "\r\n", "\t", "\u{1B}[31m", "\u{7}", "\u{85}", "漢", "字", "😀", "👩‍💻", "🇫🇷",
        "e\u{301}", "\u{200B}", "\u{FE0F}", "ﾊ", "…", "word", "longerword", ":shortcode:", "\u{00A0}", "\u{3000}",
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
}
