@_spi(Benchmarks) import Feedline
import FeedlineTestSupport
import Testing

@Suite("Post length as the server counts it")
struct PostLengthTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var warning: String?
        var limits = ComposeLimits.mastodonDefaults
        var expected: Int
        var testDescription: String { name }

        init(_ name: String, _ text: String, warning: String? = nil, limits: ComposeLimits = .mastodonDefaults, _ expected: Int) {
            self.name = name
            self.text = text
            self.warning = warning
            self.limits = limits
            self.expected = expected
        }
    }

    static let tenPerURL = ComposeLimits(charactersReservedPerURL: 10)

    static let cases: [Case] = [
        Case("plain ASCII", "Hello, world!", 13),
        Case("empty text", "", 0),
        Case("empty text, nil and empty warning alike", "", warning: "", 0),
        Case("an http URL counts 23", "see http://example.com/a/very/long/path/that/goes/on/and/on/and/on", 4 + 23),
        Case("an https URL with a query counts 23", "https://joinmastodon.org/apps?platform=ios&lang=en", 23),
        Case("a URL shorter than 23 still counts 23", "x https://a.co", 2 + 23),
        Case("a scheme in capitals is a URL", "HTTPS://EXAMPLE.COM/A", 23),
        Case("a full stop after a URL counts", "https://example.com/post.", 23 + 1),
        Case("a comma after a URL counts", "https://example.com/x, then", 23 + 6),
        Case("! and ? after a URL count", "https://example.com!?", 23 + 2),
        Case("a colon after a URL counts", "https://example.com/a:", 23 + 1),
        Case("a semicolon after a URL counts", "https://example.com/a;", 23 + 1),
        Case("parentheses around a URL count", "(https://example.com/d)", 1 + 23 + 1),
        Case("balanced parentheses stay in the URL", "https://en.wikipedia.org/wiki/Swift_(programming_language)", 23),
        Case("quotes around a URL count", "\"https://example.com/x\"", 1 + 23 + 1),
        Case("typographic quotes around a URL count", "“https://example.com/x”", 1 + 23 + 1),
        Case("two URLs", "https://a.example/1 and http://b.example/2", 23 + 5 + 23),
        Case("two hosts with only a comma between", "https://a.example,https://b.example", 23 + 1 + 23),
        Case("a path takes in a comma and a URL after it (twitter-text)", "https://a.example/1,https://b.example/2", 23),
        Case("a scheme alone is not a URL", "https://", 8),
        Case("a host without a dot is not a URL", "http://localhost/x", 18),
        Case("a scheme right after a letter is not a URL", "xhttps://example.com", 20),
        Case("a remote mention counts as @user", "@alice@example.social", 6),
        Case("a remote mention in a sentence", "hi @alice@example.social!", 3 + 6 + 1),
        Case("a remote mention with a dashed, dotted name", "@a.b-c@sub.example.social", 6),
        Case("a local mention counts in full", "@alice hi", 9),
        Case("an e-mail address is not a mention", "me@example.com", 14),
        Case("a mention followed by :// is not a mention", "@alice@example.social://x", 25),
        Case("a mention inside a URL is part of the URL", "https://example.social/@alice@example.social", 23),
        Case("a URL after a remote mention", "@bob@example.social https://example.com", 4 + 1 + 23),
        Case("emoji", "I ❤️ 🍕", 5),
        Case("an emoji ZWJ sequence is one", "👨‍👩‍👧‍👦", 1),
        Case("flags", "🇫🇷🇯🇵", 2),
        Case("skin tones", "👍🏽👋🏿", 2),
        Case("a combining mark joins its letter", "e\u{301}", 1),
        Case("CR LF is one", "a\r\nb", 3),
        Case("CJK", "日本語のテキスト", 8),
        Case("the warning counts with the text", "spoilers here", warning: "Season 3", 8 + 13),
        Case("a URL in the warning counts in full", "x", warning: "https://example.com", 19 + 1),
        Case("a text of white space counts nothing", " \n\t\u{3000}", warning: "cw", 2),
        Case("a text that starts with a combining mark joins the warning", "\u{301}", warning: "e", 1),
        Case("custom limits: 10 per URL", "https://example.com/long/path/here and http://a.co", limits: tenPerURL, 10 + 5 + 10),
        Case("custom limits: the warning keeps its URLs", "https://a.co", warning: "https://b.co", limits: tenPerURL, 12 + 10),
    ]

    @Test("counts like Mastodon's StatusLengthValidator", arguments: cases)
    func counts(_ input: Case) {
        #expect(PostLength.count(text: input.text, contentWarning: input.warning, limits: input.limits) == input.expected)
        var counter = PostLengthCounter(limits: input.limits)
        #expect(counter.update(text: input.text, contentWarning: input.warning) == input.expected, "counted incrementally")
    }

    /// Pieces that stress the cuts, the entities and the grapheme rules.
    static let pieces = [
        "a", "b", "é", "e", "\u{301}", "\u{200D}", "👩", "🇫", "🇷", "\u{600}", " ", " ", "\n", "\r", "\t",
        "\u{A0}", "\u{3000}", "@", ".", "-", ":", "/", "(", ")", "\"", "?", "=", ",", "日本", "x",
        "https://example.com/a", "http://b.example", "https://", "@alice", "@bob@example.social", "@carol@",
        "://", "hello ", " world", "👨‍👩‍👧‍👦", "🇯🇵", "\r\n",
    ]

    @Test("the incremental count equals the full count after every random edit (seeded)")
    func incrementalEqualsFull() {
        let seed = testSeed(0x504F_5354_4C45_4E)
        print("PostLengthTests.incrementalEqualsFull: seed \(seed) (replay with FEEDLINE_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        func snippet() -> String {
            (0..<(1 + random.next(below: 3))).map { _ in Self.pieces[random.next(below: Self.pieces.count)] }.joined()
        }
        for draft in 0..<40 {
            let limits = draft.isMultiple(of: 4) ? Self.tenPerURL : .mastodonDefaults
            var counter = PostLengthCounter(limits: limits)
            var scalars = Array((0..<random.next(below: 60)).map { _ in snippet() }.joined().unicodeScalars)
            var warning: String?
            for edit in 0..<150 {
                let at = random.next(below: scalars.count + 1)
                switch random.next(below: 10) {
                case 0..<5:
                    scalars.insert(contentsOf: snippet().unicodeScalars, at: at)
                case 5..<8:
                    scalars.removeSubrange(at..<min(scalars.count, at + 1 + random.next(below: 4)))
                case 8:
                    scalars.replaceSubrange(at..<min(scalars.count, at + random.next(below: 20)), with: snippet().unicodeScalars)
                default:
                    warning = random.next(below: 3) == 0 ? nil : snippet()
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                let expected = PostLength.count(text: text, contentWarning: warning, limits: limits)
                let counted = counter.update(text: text, contentWarning: warning)
                #expect(
                    counted == expected,
                    "seed \(seed), draft \(draft), edit \(edit): \(String(reflecting: text)), warning \(String(reflecting: warning))")
                if counted != expected { return }
            }
        }
    }

    /// A 5,000-character draft: words, 50 URLs, remote and local mentions, an emoji now and then.
    static func longDraft() -> String {
        var random = SeededGenerator(seed: 0xD4AF7)
        var words: [String] = []
        var length = 0
        var urls = 0
        while length < 5_000 {
            let word: String
            switch random.next(below: 20) {
            case 0 where urls < 50:
                urls += 1
                word = "https://example.com/posts/\(random.next(below: 100_000))"
            case 1: word = "@user\(random.next(below: 100))@example.social"
            case 2: word = "@local\(random.next(below: 100))"
            case 3: word = "🙂"
            default: word = String(repeating: "w", count: 2 + random.next(below: 7))
            }
            words.append(word)
            length += word.count + 1
        }
        return words.joined(separator: " ")
    }

    @Test("a one-character edit in a long draft measures again only the words around it")
    func editWorkIsLocal() {
        let draft = Self.longDraft()
        var counter = PostLengthCounter()
        counter.update(text: draft, contentWarning: nil)
        #expect(counter.lastRemeasuredBytes == draft.utf8.count, "the first text is measured whole")
        for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
            var text = draft
            let index = text.index(text.startIndex, offsetBy: Int(Double(draft.count) * fraction))
            text.insert("k", at: index)
            #expect(counter.update(text: text, contentWarning: nil) == PostLength.count(text: text, contentWarning: nil))
            #expect(counter.lastRemeasuredBytes <= 160, "at \(fraction): \(counter.lastRemeasuredBytes) bytes measured again")
            #expect(counter.update(text: draft, contentWarning: nil) == PostLength.count(text: draft, contentWarning: nil))
            #expect(counter.lastRemeasuredBytes <= 160, "undo at \(fraction): \(counter.lastRemeasuredBytes) bytes measured again")
        }
        counter.update(text: draft, contentWarning: "a warning")
        #expect(counter.lastRemeasuredBytes == 0, "a new warning alone measures no text")
    }
}
