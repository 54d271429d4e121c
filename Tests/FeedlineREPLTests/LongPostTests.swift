import Feedline
import FeedlineREPL
import FeedlineTestSupport
import Foundation
import Testing

/// A post screen prints a screenful or two of a long post's text and counts the rest; `list all`
/// prints every line.
@MainActor
@Suite("Long posts on the post screen", .timeLimit(.minutes(10)))
struct LongPostTests {
    /// A fixture of one post whose text is `lines` short lines (about 10 bytes each).
    static func fixture(lines: Int) throws -> Scratch {
        let scratch = try Scratch()
        let content = "<p>" + (1...lines).map { "line \($0)" }.joined(separator: "<br>") + "</p>"
        let status: [String: Any] = [
            "id": "1", "created_at": "2026-11-21T17:00:00.000Z", "visibility": "public", "content": content, "spoiler_text": "",
            "account": ["id": "2", "username": "long", "acct": "long@example.social", "display_name": "Long", "created_at": "2022-01-01T00:00:00.000Z"],
        ]
        try JSONSerialization.data(withJSONObject: [status]).write(to: scratch.file("home.json"))
        return scratch
    }

    /// The transcript of `script` over a post of `lines` lines, at `width` columns.
    static func transcript(lines: Int, _ script: String, width: Int = 80) async throws -> String {
        let scratch = try fixture(lines: lines)
        defer { scratch.remove() }
        let session = try SessionFactory.session(scratch.url)
        return await ScriptRunner.transcript(of: script, session: session, options: .init(width: width))
    }

    @Test("open prints the first 60 lines of a 20,000-line post and says how many more; list all prints every one; list the first ones again")
    func capped() async throws {
        let transcript = try await Self.transcript(lines: 20_000, "open 1\nlist\nlist all\nback")
        let commands = transcript.components(separatedBy: "post> ")
        #expect(commands.count == 4, "\(commands.count)")
        guard commands.count == 4 else { return }
        let opened = commands[0].split(separator: "\n").map(String.init)
        let textLines = opened.filter { $0.hasPrefix("line ") }
        #expect(textLines.count == DetailRenderer.defaultTextLineLimit)
        #expect(textLines.last == "line 60")
        #expect(opened.contains("… 19,940 more lines: list all prints the whole post."))
        let listed = commands[1].split(separator: "\n").filter { $0.hasPrefix("line ") }
        #expect(listed.count == DetailRenderer.defaultTextLineLimit)
        let all = commands[2].split(separator: "\n").filter { $0.hasPrefix("line ") }
        #expect(all.count == 20_000)
        #expect(all.last == "line 20000")
        #expect(!commands[2].contains("more lines"))
    }

    @Test("a post one line over the limit prints whole: a count never stands in for a single line")
    func oneOver() async throws {
        let transcript = try await Self.transcript(lines: DetailRenderer.defaultTextLineLimit + 1, "open 1")
        #expect(transcript.split(separator: "\n").filter { $0.hasPrefix("line ") }.count == DetailRenderer.defaultTextLineLimit + 1)
        #expect(!transcript.contains("more lines"))
    }

    @Test("at a narrow width the count of the rest wraps like every other line: no line of the screen is wider than the terminal")
    func countWrapsAtTheWidth() async throws {
        let transcript = try await Self.transcript(lines: 200, "open 1", width: 20)
        let lines = transcript.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("post> ") && !$0.hasPrefix("home> ") }
        #expect(lines.allSatisfy { TextWidth.width(of: $0) <= 20 }, "\(lines.filter { TextWidth.width(of: $0) > 20 })")
        #expect(transcript.contains("… 140 more lines:"))
    }
}
