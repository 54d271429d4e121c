@_spi(FeedService) import Feedline
@testable import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// A translation is server text: the post screen prints it under the original through the one
/// sanitiser the post's own text goes through, so no escape sequence, bell or bidirectional
/// override in it reaches the terminal.
@Suite("The post screen's translation")
struct TranslationRenderTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    /// A line as the terminal shows it: our own colours taken out.
    static func plain(_ line: TerminalText) -> String {
        line.text.replacingOccurrences(of: "\u{1B}\\[[0-9]+m", with: "", options: .regularExpression)
    }

    static func state(_ translation: TranslationState) -> PostDetailState {
        let post = Post(id: "p1", author: Author(id: "1", displayName: "Jonas", handle: "jonas@chaosdorf.space"), text: "Hallo Welt", createdAt: now)
        var interaction = PostInteraction(serverCopy: post)
        interaction.translation = translation
        return PostDetailState(id: "p1", known: PostChange(originalID: "p1", post: post, interaction: interaction))
    }

    @Test("the translation prints under the original, with where it came from, and nothing while the original alone shows")
    func underTheOriginal() throws {
        let renderer = DetailRenderer(width: 80, clock: .fixed(Self.now))
        let shown = Self.state(.translated(PostTranslation(text: "Hello world", sourceLanguage: "de", provider: "DeepL.com")))
        let lines = renderer.lines(shown).map(Self.plain)
        let original = try #require(lines.firstIndex(of: "Hallo Welt"))
        let heading = try #require(lines.firstIndex(of: "Translated from de by DeepL.com (original shows the post alone):"))
        #expect(original < heading)
        #expect(lines[heading + 1] == "Hello world")
        #expect(renderer.lines(.translation, of: Self.state(.original)).isEmpty)
        #expect(renderer.lines(.translation, of: Self.state(.translating)).map(Self.plain) == ["Translating…", ""])
    }

    @Test("escape sequences, controls and bidirectional overrides in a translation never reach the terminal")
    func hostile() {
        let hostile = "Bell\u{07} \u{1B}[2Jclear \u{1B}]0;title\u{07} \u{202E}desrever\u{202C} zero\u{200B}width\r\nnext"
        let state = Self.state(
            .translated(PostTranslation(text: hostile, contentWarning: "cw\u{1B}[31m", sourceLanguage: "d\u{1B}e", provider: "Deep\u{9B}L"))
        )
        for color in [false, true] {
            let lines = DetailRenderer(width: 40, style: Style(color: color), clock: .fixed(Self.now)).lines(.translation, of: state)
            let printed = lines.map(Self.plain).joined(separator: "\n")
            #expect(HostileFixture.forbidden(in: printed).isEmpty, "\(printed.debugDescription)")
            #expect(printed.contains("clear") && printed.contains("next"))
        }
    }
}
