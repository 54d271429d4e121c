import FeedlineREPL
import Foundation
import Testing

@Suite("Text width shortcuts")
struct TextWidthPropertyTests {
    /// SplitMix64, so a failure replays from the printed seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "a", "Z", " ", "  ", "\n", "\r\n", "\t", "\u{1B}[31m", "\u{7}", "\u{85}", "漢", "字", "😀", "👩‍💻", "🇫🇷",
        "e\u{301}", "\u{200B}", "\u{FE0F}", "ﾊ", "…", "word", "longerword", ":shortcode:", "\u{00A0}", "\u{3000}",
    ]

    @Test("oneLine(_:truncatedTo:) equals truncate(oneLine(_:)) on seeded random text")
    func boundedOneLineMatchesTheLongWay() {
        let seed = ProcessInfo.processInfo.environment["FEEDLINE_SEED"].flatMap(UInt64.init) ?? 0x7E57
        var random = Generator(state: seed)
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
