import FeedlineAccounts
import FeedlineTestSupport
import Foundation
import Testing

/// A config file that is not TOML is a sentence naming its line, never an abort: the bundled
/// parser failed an assertion (exit 134) on a table header such as `[` and a line break.
@Suite("Config file typos")
struct ConfigFileSyntaxTests {
    @Test(
        "a table header without a name is one sentence naming its line, not an abort",
        arguments: [
            ("[\n", 1), ("width = 80\n[", 2), ("[[\n", 1), ("[ \t=", 1), ("[#x]", 1), ("[[ [a]]", 1),
            ("[[[", 1), ("a = \"[\"\n  [\n", 2), ("a = [\n  1,\n]\n[.b]", 4),
        ]
    )
    func brokenHeader(_ text: String, _ line: Int) {
        let sentence = ConfigFileTests.refusal(text)
        #expect(sentence?.hasPrefix("The config file /home/u/.config/feedline/config.toml, line \(line): this is not valid TOML") == true, "\(sentence ?? "accepted")")
    }

    @Test("brackets inside strings, comments and arrays are not headers")
    func notHeaders() throws {
        let text = """
            # [
            timeline = \"\"\"
            [
            \"\"\"
            account = '[' # [
            width = [
              [
                1,
              ],
            ]
            """
        let sentence = try #require(ConfigFileTests.refusal(text))
        // The parser reads all of it: the first key it judges is the multi-line timeline.
        #expect(sentence.contains("line 2: the timeline"), "\(sentence)")
    }

    /// Pieces TOML is made of, so random documents reach the parser's corners.
    static let pieces = [
        "[", "]", "[[", "]]", "\n", "\r\n", " ", "\t", "=", "\"", "'", "\"\"\"", "'''", "#", ".", ",", "{", "}",
        "\\", "width", "a", "-", "_", "1", "0x1F", "1e3", "true", "1979-05-27T07:32:00Z", "\u{A0}", "é", "\u{0}",
    ]

    @Test("random documents made of TOML's pieces: each is read or refused with a sentence, never an abort")
    func randomDocuments() {
        let seed = testSeed(0xC0_4F16)
        print("config documents from seed \(seed) (FEEDLINE_SEED replays)")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let count = Int.random(in: 1...24, using: &generator)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            if let sentence = ConfigFileTests.refusal(text) {
                #expect(sentence.hasSuffix(".") && !sentence.contains("\n"), "\(text.debugDescription) → \(sentence.debugDescription)")
            }
        }
    }
}
