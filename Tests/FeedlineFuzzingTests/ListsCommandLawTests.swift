import FeedlineFuzzing
import FeedlineTestSupport
import Foundation
import Testing

/// The command target's laws (round trip through the canonical text, upper case, tabs, one-line
/// errors) on seeded random `lists` lines built from the words that make the parser work:
/// actions, quotes, row numbers, `--yes`, handles, spaces and tabs.
@Suite("Lists command laws")
struct ListsCommandLawTests {
    static let pieces = [
        "lists", "LISTS", "new", "rename", "delete", "add", "remove", "accounts", "open", "Birders", "\"Field notes\"", "\"", "\"\"", "3", "\"3\"", "\"007 \"",
        "007", "99999999999999999999", "--yes", "--YES", "\"--yes\"", "@kemi@fieldnotes.science", "@ruth", "kemi", "a\"b", "ß", "ǅ",
        "\u{1B}", " ", "  ", "\t", "x\"", "\"y",
    ]

    @Test("5,000 seeded lists lines keep every law of the command target")
    func laws() throws {
        let seed = testSeed(0x4C53_5431)
        print("lists command laws from seed \(seed) (FEEDLINE_SEED replays)")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<5_000 {
            var line = "lists"
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                line += (Bool.random(using: &random) ? " " : "") + (Self.pieces.randomElement(using: &random) ?? "")
            }
            #expect(throws: Never.self, "\(line.debugDescription)") { try FuzzTarget.command.run(Data(line.utf8)) }
        }
    }
}
