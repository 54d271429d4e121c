@_spi(FeedService) import Feedline
import FeedlineREPL
import Foundation
import Testing

@Suite("Rendering")
struct RenderingTests {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)
    static let clock = WallClock.fixed(now)

    static func post(
        _ id: String, name: String, text: String, warning: String? = nil, favourites: Int = 3, favourited: Bool = false,
        reblog: Post? = nil
    ) -> Post {
        Post(
            id: PostID(id), author: Author(id: id, displayName: name, handle: "user\(id)@example.social"), text: text,
            createdAt: now.addingTimeInterval(-3 * 3600), contentWarning: warning, media: [Media(kind: .image, description: "a pond")],
            favouritesCount: favourites, favourited: favourited, reblog: reblog
        )
    }

    static let posts: [Post] = [
        post("1", name: "Ana Lima 🎮", text: "Launch day! 🚀🐈‍⬛ Two weeks of speedrunning later…"),
        post("2", name: "小林 葵", text: "今年最後のフィルムを入れました。何を撮ろうか、まだ決めていません。写真を撮るのが好きです。"),
        post("3", name: "陈文", text: "今天第二次做拉面，面条终于像同一家人了。猫在旁边监工。🍜🐈", favourites: 12_345, favourited: true),
        post("4", name: "ليلى حداد", text: "كلمة اليوم: «سَكِينة». Serenity? Calm?", warning: "language nerdery 🤓"),
        post("5", name: "Jonas", text: "Ein sehr langer deutscher Satz mit Donaudampfschifffahrtsgesellschaftskapitänsmütze und mehr.",
             reblog: post("6", name: "👩‍👩‍👧‍👦 Family account with a very very long display name indeed", text: "Boosted: e\u{301}te\u{301} 👍🏽")),
        post("7", name: "Evil\u{1B}[2J", text: "Clears\u{1B}[2J the screen\u{7} and\nbreaks lines"),
    ]

    @Test("a quote is drawn under its row behind a bar, its marks the quoted post's own; each display says what it is; every line fits", arguments: [40, 80])
    func quoteLines(_ width: Int) {
        let quoted = Self.post("q", name: "Priya", text: "Say no early and kindly.", favourites: 612, favourited: true)
        var quoting = Self.post("p", name: "Hugo", text: "Couldn't agree more.")
        quoting.media = []
        quoting.quote = Quote(state: .accepted, post: quoted)
        let renderer = RowRenderer(width: width, clock: Self.clock)
        let filter = PostFilter(title: "Work", contexts: [.home], action: .warn)
        let displays: [(QuotedPost?, Quote, FilterContext?, String)] = [
            (QuotedPost(post: quoted), Quote(state: .accepted, post: quoted), nil, "Say no early"),
            (nil, Quote(state: .pending, postID: "q"), nil, "(quote pending approval)"),
            (nil, Quote(state: .deleted, postID: "q"), nil, "(quoted post deleted)"),
            (nil, Quote(state: .accepted, postID: "q"), nil, "(quoted post not loaded:"),
        ]
        for (current, quote, context, expected) in displays {
            var post = quoting
            post.quote = quote
            let lines = renderer.textLines(.post(PostRow(post: post, filterContext: context, quoted: current)), number: 4)
            #expect(lines.contains { $0.contains("│ ") && $0.contains(expected) }, "\(expected) at \(width)")
            for line in lines { #expect(TextWidth.width(of: line) <= width) }
        }
        var warned = quoted
        warned.filters = [filter]
        var post = quoting
        post.quote = Quote(state: .accepted, post: warned)
        let lines = renderer.textLines(.post(PostRow(post: post, filterContext: .home, quoted: QuotedPost(post: warned))), number: 4)
        #expect(lines.contains { $0.contains("Filtered: Work") }, "warned in the quoting row's context")
        #expect(!lines.contains { $0.contains("Say no early") })
        let shown = renderer.textLines(.post(PostRow(post: quoting, quoted: QuotedPost(post: quoted))), number: 4)
        #expect(shown.contains { $0.contains("★ 612") }, "the quoted post's own marks")
    }

    @Test("character widths: CJK and emoji take two columns, combining marks none")
    func widths() {
        #expect(TextWidth.width(of: "abc") == 3)
        #expect(TextWidth.width(of: "小林") == 4)
        #expect(TextWidth.width(of: "🐸") == 2)
        #expect(TextWidth.width(of: "👩‍👩‍👧‍👦") == 2)
        #expect(TextWidth.width(of: "👍🏽") == 2)
        #expect(TextWidth.width(of: "🇯🇵") == 2)
        #expect(TextWidth.width(of: "❤️") == 2)
        #expect(TextWidth.width(of: "e\u{301}") == 1)
        #expect(TextWidth.width(of: "ｏｐｅｎ") == 8)
        #expect(TextWidth.width(of: "★☆▲△") == 4)
    }

    /// Fuzz finding (render target, Fixtures/fuzz/render/found-zwj-after-space.bin): a text
    /// starting with a ZWJ joined the space before it into a cluster counted as a two-column
    /// emoji, so an indented row line was one column wider than the width.
    @Test("a stray ZWJ or emoji selector after a space or a letter does not widen it")
    func strayJoiners() {
        #expect(TextWidth.width(of: " \u{200D}") == 1)
        #expect(TextWidth.width(of: "a\u{FE0F}") == 1)
        #expect(TextWidth.width(of: "#\u{FE0F}\u{20E3}") == 2)
        let text = "\u{200D}👧\u{200D}👦 Family"
        #expect(TextWidth.width(of: "      " + text) == 6 + TextWidth.width(of: text))
        let post = Self.post("9", name: "Fam", text: text)
        for width in [20, 23, 40] {
            let lines = RowRenderer(width: width, clock: Self.clock).textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: 1)
            for line in lines { #expect(TextWidth.width(of: line) <= width, "\(line.debugDescription) is wider than \(width)") }
        }
    }

    @Test("truncating and wrapping never exceed the width and never split a character")
    func truncateAndWrap() {
        #expect(TextWidth.truncate("小林 葵です", to: 6) == "小林 …")
        #expect(TextWidth.truncate("short", to: 10) == "short")
        for text in Self.posts.map(\.text) + [String(repeating: "語", count: 100)] {
            for width in [1, 5, 13, 40] {
                #expect(TextWidth.width(of: TextWidth.truncate(text, to: width)) <= width)
                for line in TextWidth.wrap(text, to: width) {
                    #expect(TextWidth.width(of: line) <= max(width, 2), "\(line.debugDescription) at \(width) from \(text.debugDescription)")
                }
            }
        }
        #expect(TextWidth.wrap("one two three", to: 7) == ["one two", "three"])
        #expect(TextWidth.wrap("a\n\nb", to: 7) == ["a", "", "b"])
    }

    @Test("rows at 40, 80 and 120 columns: every line fits and the marks end at the right edge", arguments: [40, 80, 120])
    func rows(_ width: Int) {
        let renderer = RowRenderer(width: width, clock: Self.clock)
        for (index, post) in Self.posts.enumerated() {
            let row = ListRow.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post)))
            let lines = renderer.textLines(row, number: index + 1)
            for line in lines {
                #expect(TextWidth.width(of: line) <= width, "\(line) is wider than \(width)")
                #expect(!line.contains("\u{1B}"), "escape from post data reached the terminal")
            }
            #expect(TextWidth.width(of: lines[0]) == width, "marks not right-aligned: \(lines[0])")
            #expect(lines[0].hasPrefix(String(format: " %3d  ", index + 1)))
        }
    }

    /// Fuzz finding (render target, Fixtures/fuzz/render/found-narrow-*.bin): at 20 columns, or
    /// from row 1000 on, the first line was wider than the width.
    @Test("narrow rows keep the name and the marks whole: the marks move to their own line rather than squeeze the name",
          arguments: [20, 23, 30, 40])
    func narrowRows(_ width: Int) {
        let renderer = RowRenderer(width: width, clock: Self.clock)
        let post = Self.posts[0]
        for (number, favourites) in [(1, 0), (1_000, 3), (1_786, 845_325), (12, 9_223_372_036_854_775_807)] {
            var interaction = PostInteraction(serverCopy: post)
            interaction.favouritesCount = favourites
            let lines = renderer.textLines(.post(PostRow(post: post, interaction: interaction)), number: number)
            for line in lines { #expect(TextWidth.width(of: line) <= width, "\(line.debugDescription) is wider than \(width)") }
            let marks = "☆ \(favourites)  △ 0"
            if lines[0].hasSuffix(marks) {
                // One line: exactly the width, and the name kept at least 8 columns (or whole).
                #expect(TextWidth.width(of: lines[0]) == width, "marks not right-aligned: \(lines[0].debugDescription)")
                #expect(lines[0].contains("Ana Lim"))
            } else if TextWidth.width(of: marks) <= width - 6 {
                #expect(lines[1] == "      " + marks, "marks below the name: \(lines.debugDescription)")
                #expect(lines[0].contains("Ana"))
            }
        }
        let roomy = RowRenderer(width: 40, clock: Self.clock).textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: 3)
        #expect(roomy[0].hasSuffix("☆ 3  △ 0") && TextWidth.width(of: roomy[0]) == 40)
        let wide = RowRenderer(width: 80, clock: Self.clock).textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: 1_000)
        #expect(wide[0].hasPrefix(" 1000  Ana Lima 🎮 · 3h"))
        #expect(TextWidth.width(of: wide[0]) == 80)
    }

    /// A thread row at `depth`, the focus or not, as the thread list makes it.
    static func threadRow(_ post: Post, depth: Int, focus: Bool = false) -> ListRow {
        .post(PostRow(post: post, interaction: PostInteraction(serverCopy: post), thread: ThreadPlace(depth: depth, isFocus: focus)))
    }

    @Test("a thread's rows are indented two columns per level under the number, every line of them; the focus is marked ▸ before its number")
    func threadRows() {
        let renderer = RowRenderer(width: 80, clock: Self.clock)
        let post = Self.posts[0]
        let flat = renderer.textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: 2)
        let root = renderer.textLines(Self.threadRow(post, depth: 0), number: 2)
        #expect(root == flat, "depth 0, not the focus: drawn as any row")
        let focus = renderer.textLines(Self.threadRow(post, depth: 0, focus: true), number: 2)
        #expect(focus[0].hasPrefix("▸  2  Ana Lima"), "\(focus)")
        #expect(Array(focus.dropFirst()) == Array(flat.dropFirst()))
        for depth in 1...3 {
            let lines = renderer.textLines(Self.threadRow(post, depth: depth), number: 2)
            let pad = String(repeating: " ", count: 2 * depth)
            #expect(lines[0].hasPrefix("   2  " + pad + "Ana Lima"), "\(lines)")
            #expect(lines[1].hasPrefix("      " + pad + "Launch day!"), "\(lines)")
            #expect(TextWidth.width(of: lines[0]) == 80 && lines[0].hasSuffix("☆ 3  △ 0"), "marks stay at the right edge: \(lines[0])")
            for line in lines { #expect(TextWidth.width(of: line) <= 80) }
        }
        // + and ~ stand in for the focus mark; a blank marker keeps it.
        #expect(renderer.textLines(Self.threadRow(post, depth: 0, focus: true), number: 2, marker: "~")[0].hasPrefix("~  2  Ana"))
        #expect(renderer.textLines(Self.threadRow(post, depth: 0, focus: true), number: 2, marker: " ")[0].hasPrefix("▸  2  Ana"))
    }

    @Test("deep replies stop indenting after five levels, and at narrow widths the indent takes at most half the row's text room",
          arguments: [20, 24, 30, 40, 80, 120])
    func deepThreadRows(_ width: Int) {
        let renderer = RowRenderer(width: width, clock: Self.clock)
        let cap = min(10, (width - 6) / 2 / 2 * 2)
        for depth in [0, 1, 4, 5, 6, 12, 1_000] {
            for post in Self.posts {
                let cached = RowRenderer(width: width, clock: Self.clock, cache: RenderCache())
                for renderer in [renderer, cached] {
                    let lines = renderer.textLines(Self.threadRow(post, depth: depth, focus: depth == 4), number: 7)
                    for line in lines { #expect(TextWidth.width(of: line) <= width, "\(line.debugDescription) is wider than \(width)") }
                    let indent = min(2 * depth, cap)
                    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 6 + indent)) }, "\(lines)")
                    #expect(lines.last.map { $0.count > 6 + indent } == true, "text shows beside the indent: \(lines)")
                }
            }
        }
    }

    @Test("a row shows marks, counts, the booster and the content warning instead of the text")
    func rowContent() {
        let renderer = RowRenderer(width: 80, clock: Self.clock)
        func lines(_ index: Int) -> [String] {
            let post = Self.posts[index]
            return renderer.textLines(.post(PostRow(post: post, interaction: PostInteraction(serverCopy: post))), number: index + 1)
        }
        #expect(lines(2)[0].hasSuffix("★ 12345  △ 0"))
        #expect(lines(0)[0].hasSuffix("☆ 3  △ 0"))
        #expect(lines(0)[0].contains("Ana Lima 🎮 · 3h"))
        #expect(lines(3)[1].contains("CW: language nerdery 🤓 (open 4 to read)"))
        #expect(!lines(3).joined().contains("Serenity"))
        #expect(lines(4)[1].contains("▲ boosted by Jonas"))
        #expect(lines(4)[2].contains("Boosted:"))
        #expect(lines(1)[1].hasSuffix("… [image]"), "a long text is cut before what the post carries")
        let gap = renderer.textLines(.gap(Gap(below: "1", above: "2")), number: 21)
        #expect(gap == ["  21  ┄┄ posts may be missing here: gap 21 loads them ┄┄"])
        let failed = PostInteraction(favourited: false, favouritesCount: 3, reblogged: false, reblogsCount: 0,
                                     failure: InteractionFailure(kind: .favourite, value: true, message: "Could not favourite this post: Boom."))
        let failedLines = renderer.textLines(.post(PostRow(post: Self.posts[0], interaction: failed)), number: 1, marker: "~")
        #expect(failedLines.first?.hasPrefix("~  1  ") == true)
        #expect(failedLines.last == "      ! Could not favourite this post: Boom.")
    }

    @Test("colour codes only with colour on, and widths are the same either way")
    func colour() {
        let plain = RowRenderer(width: 60, style: .plain, clock: Self.clock)
        let coloured = RowRenderer(width: 60, style: Style(color: true), clock: Self.clock)
        let row = ListRow.post(PostRow(post: Self.posts[2], interaction: PostInteraction(serverCopy: Self.posts[2])))
        #expect(!plain.textLines(row, number: 1).joined().contains("\u{1B}["))
        let strip = { (text: String) in text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
        #expect(coloured.textLines(row, number: 1).map(strip) == plain.textLines(row, number: 1))
    }

    @Test("the detail wraps the full text at 40, 80 and 120 columns", arguments: [40, 80, 120])
    func detail(_ width: Int) {
        let renderer = DetailRenderer(width: width, clock: Self.clock)
        for post in Self.posts {
            let state = PostDetailState(id: post.id, known: PostChange(originalID: post.originalID, post: post.content, interaction: PostInteraction(serverCopy: post)))
            let lines = renderer.textLines(state)
            for line in lines { #expect(TextWidth.width(of: line) <= width, "\(line) is wider than \(width)") }
            let joined = lines.joined(separator: " ")
            #expect(joined.contains("Nov 21, 2026 at 15:00 UTC · 3h"))
            #expect(joined.contains("[image: a pond]"))
            #expect(joined.contains("favourite"))
            #expect(!joined.contains("\u{1B}"))
        }
        var loading = PostDetailState(id: "9")
        loading.reduce(.appeared)
        #expect(renderer.textLines(loading) == ["Loading the post…", "Loading the thread…"])
    }

    @Test("the status line names what loads, what failed with the command that fixes it, or the rows shown")
    func status() {
        let renderer = RowRenderer(width: 80, clock: Self.clock)
        #expect(renderer.statusLine(ListStatus(loading: .olderPage), shown: 10, total: 20) == ["Loading older posts…"])
        let failed = ListStatus(failure: .init(intent: .olderPage, failure: FeedFailure(message: "The server is unavailable.", isTransient: true)))
        #expect(renderer.statusLine(failed, shown: 5, total: 5) == ["Could not load older posts: The server is unavailable. Type retry."])
        #expect(renderer.statusLine(ListStatus(), shown: 10, total: 20) == ["Rows 1–10 of 20 shown; more shows the next."])
        #expect(renderer.statusLine(ListStatus(reachedEnd: true), shown: 12, total: 12) == ["Rows 1–12 shown. End of timeline."])
    }
}

/// The renderers' lines as the text they print, for tests that read them as strings.
extension RowRenderer {
    func textLines(_ row: ListRow, number: Int, marker: Character = " ") -> [String] {
        lines(row, number: number, marker: marker).map(\.text)
    }
}

extension DetailRenderer {
    func textLines(_ state: PostDetailState) -> [String] {
        lines(state).map(\.text)
    }

    func textLines(_ part: Part, of state: PostDetailState) -> [String] {
        lines(part, of: state).map(\.text)
    }
}
