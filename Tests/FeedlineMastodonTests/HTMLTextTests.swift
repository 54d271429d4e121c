import Testing

import FeedlineMastodon

@Suite struct HTMLTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var html: String
        var text: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty content", html: "", text: ""),
        Case(name: "plain text", html: "hello world", text: "hello world"),
        Case(name: "one paragraph", html: "<p>Hello, world.</p>", text: "Hello, world."),
        Case(name: "paragraphs", html: "<p>One.</p><p>Two.</p><p>Three.</p>", text: "One.\n\nTwo.\n\nThree."),
        Case(name: "br", html: "<p>line one<br />line two<br>line three</p>", text: "line one\nline two\nline three"),
        Case(name: "two br make one blank line", html: "<p>a<br><br>b</p>", text: "a\n\nb"),
        Case(name: "many br never more than one blank line", html: "a<br><br><br><br>b", text: "a\n\nb"),
        Case(name: "akkoma style br paragraphs", html: "first<br/>second<br/><br/>third", text: "first\nsecond\n\nthird"),
        Case(name: "whitespace between paragraphs", html: "<p>a</p>\n  <p>b</p>\n", text: "a\n\nb"),
        Case(name: "raw newlines are line breaks", html: "a\nb\n\nc", text: "a\nb\n\nc"),
        Case(name: "leading and trailing breaks trimmed", html: "<br><p></p><p>x</p><br><br>", text: "x"),
        Case(name: "spaces before a break trimmed", html: "<p>a   </p><p>   b</p>", text: "a\n\nb"),
        Case(
            name: "mention",
            html: #"<p><span class="h-card" translate="no"><a href="https://kettle.town/@tomas" class="u-url mention">@<span>tomas</span></a></span> hi</p>"#,
            text: "@tomas hi"
        ),
        Case(
            name: "hashtag",
            html: #"<p>so good <a href="https://tidepool.social/tags/jazz" class="mention hashtag" rel="tag">#<span>jazz</span></a></p>"#,
            text: "so good #jazz"
        ),
        Case(
            name: "long link with invisible and ellipsis spans",
            html: #"<p><a href="https://example.com/a/very/long/path/to/a/page" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very/long/path/t</span><span class="invisible">o/a/page</span></a></p>"#,
            text: "example.com/a/very/long/path/t…"
        ),
        Case(
            name: "short link with empty class",
            html: #"<a href="https://status.example"><span class="invisible">https://</span><span class="">status.example</span><span class="invisible"></span></a>"#,
            text: "status.example"
        ),
        Case(name: "plain link text", html: #"see <a href="https://a.example/x">https://a.example/x</a>."#, text: "see https://a.example/x."),
        Case(name: "named entities", html: "Tom &amp; Jerry &lt;3 &quot;cheese&quot; it&apos;s", text: "Tom & Jerry <3 \"cheese\" it's"),
        Case(name: "nbsp and typographic", html: "a&nbsp;b &mdash; c&hellip; &copy; &eacute;t&eacute;", text: "a\u{A0}b — c… © été"),
        Case(name: "decimal and hex", html: "it&#39;s &#34;x&#34; &#x1F600; &#X41;", text: "it's \"x\" 😀 A"),
        Case(name: "windows-1252 numeric", html: "&#150; &#147;q&#148;", text: "– “q”"),
        // Every reference from &#128; to &#159;: the 27 Windows-1252 characters, and the five
        // unassigned numbers as their own code points.
        Case(
            name: "windows-1252 range",
            html: (128...159).map { "&#\($0);" }.joined(),
            text: "€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ"
        ),
        Case(name: "unknown named entity left", html: "&bogus; &AMP; &amp", text: "&bogus; &AMP; &amp"),
        Case(name: "invalid numeric left", html: "&#0; &#xD800; &#x110000; &#; &#x; &#12", text: "&#0; &#xD800; &#x110000; &#; &#x; &#12"),
        Case(name: "overlong numeric left", html: "&#0000000000065;", text: "&#0000000000065;"),
        // Found by fuzzing: nine hex digits overflowed a 32-bit sum.
        Case(name: "nine hex digits left", html: "&#x1F600Defa; &#xFFFFFFFFF;", text: "&#x1F600Defa; &#xFFFFFFFFF;"),
        Case(name: "entity decoded once", html: "&amp;lt;", text: "&lt;"),
        Case(name: "bare ampersand", html: "AT&T & co", text: "AT&T & co"),
        Case(name: "less than in text", html: "<p>1 < 2 and 3 <= 4, <3</p>", text: "1 < 2 and 3 <= 4, <3"),
        Case(name: "entity lt is text not a tag", html: "&lt;p&gt;not a tag&lt;/p&gt;", text: "<p>not a tag</p>"),
        Case(name: "custom emoji stay", html: "<p>nice :blobcat: :verified_cat:</p>", text: "nice :blobcat: :verified_cat:"),
        Case(name: "nested inline tags", html: "<p><strong>bold <em>and <a href='x'>linked</a></em></strong> end</p>", text: "bold and linked end"),
        Case(name: "unclosed paragraph", html: "<p>first<p>second", text: "first\n\nsecond"),
        Case(name: "unclosed span keeps text", html: "<span>open forever", text: "open forever"),
        Case(name: "unclosed invisible span hides to its parent's end", html: "<a><span class=\"invisible\">gone</a> shown", text: "shown"),
        Case(name: "stray close tags", html: "</span></a>text</b>", text: "text"),
        Case(name: "tag cut off at end shows as text", html: "hello <a href=\"x", text: "hello <a href=\"x"),
        Case(name: "unterminated tag then entities still decoded", html: "a <b c &amp; d", text: "a <b c & d"),
        Case(name: "comment dropped", html: "a<!-- hidden -->b", text: "ab"),
        Case(name: "unclosed comment drops the rest", html: "a<!-- never closed", text: "a"),
        Case(name: "script and style dropped", html: "a<script>alert('<p>x</p>')</script>b<style>p{}</style>c", text: "abc"),
        Case(name: "quoted greater-than in attribute", html: #"<a title="a > b">link</a>"#, text: "link"),
        Case(name: "image alt text", html: #"hi <img src="x.png" alt=":wave: &amp; bye"> there"#, text: "hi :wave: & bye there"),
        Case(name: "lists", html: "<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>", text: "• one\n• two\n\n1. first\n2. second"),
        Case(name: "blockquote and headings", html: "<h1>Title</h1><blockquote><p>quoted</p></blockquote><p>after</p>", text: "Title\n\nquoted\n\nafter"),
        Case(name: "pre keeps whitespace", html: "<pre>  let x = 1\n  let y = 2</pre><p>done</p>", text: "  let x = 1\n  let y = 2\n\ndone"),
        // Fuzz finding (html target, Fixtures/fuzz/html/found-pre-space-then-block.html): the
        // `<pre>` space was trimmed before the break, which was then written first.
        Case(name: "pre with only a space before a block", html: "<pre> <s><dd>c", text: "c"),
        Case(name: "pre with only spaces before a paragraph", html: "<pre>  </pre><p>x</p>", text: "x"),
        Case(name: "pre with a space, a block and a newline", html: "<pre> <a><dd>\nz", text: "z"),
        Case(name: "uppercase tags", html: "<P>A<BR>B</P>", text: "A\nB"),
        Case(name: "non-latin scripts", html: "<p>抹茶を点てる練習。</p><p>«وما الحبُّ إلا للحبيبِ الأوّلِ»</p>", text: "抹茶を点てる練習。\n\n«وما الحبُّ إلا للحبيبِ الأوّلِ»"),
        Case(name: "emoji zwj sequences", html: "<p>👩‍💻 🏳️‍🌈 🐕‍🦺</p>", text: "👩‍💻 🏳️‍🌈 🐕‍🦺"),
        Case(name: "lone angle brackets", html: "<", text: "<"),
        Case(name: "lone close marker", html: "</", text: "</"),
        Case(name: "lone ampersand", html: "&", text: "&"),
    ]

    @Test(arguments: cases)
    func convertsHTMLToText(_ example: Case) {
        #expect(HTMLText.plainText(from: example.html) == example.text)
    }

    @Test func everyPrefixOfAStatusConvertsWithoutTrapping() {
        let html = #"<p><span class="h-card"><a href="https://x.example/@a" class="u-url mention">@<span>a</span></a></span> x &amp; y &#x1F600; <a href="https://e.example/long/path/abcdefghijklmnopqrstuvwxyz"><span class="invisible">https://</span><span class="ellipsis">e.example/long/path/abcdefghij</span><span class="invisible">klmnopqrstuvwxyz</span></a><br/>end</p>"#
        let bytes = Array(html.utf8)
        for length in 0...bytes.count {
            let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
            let text = HTMLText.plainText(from: prefix)
            #expect(text.utf8.count <= prefix.utf8.count + 3)
        }
        #expect(HTMLText.plainText(from: html) == "@a x & y 😀 e.example/long/path/abcdefghij…\nend")
    }

    /// Inputs that make naive converters rescan: each would take quadratic time if a failed tag,
    /// entity or close-tag search restarted from the next byte. Output size bounds the work.
    @Test(arguments: [
        String(repeating: "<a", count: 50_000),
        String(repeating: "<a b=\"", count: 30_000),
        String(repeating: "&#1234567", count: 30_000),
        String(repeating: "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", count: 10_000),
        String(repeating: "<span>", count: 50_000) + String(repeating: "</b>", count: 50_000),
        String(repeating: "<!--", count: 50_000),
        String(repeating: "<p>x</p>", count: 50_000),
    ])
    func pathologicalInputsFinish(_ html: String) {
        let text = HTMLText.plainText(from: html)
        #expect(text.utf8.count <= html.utf8.count * 2)
    }

    /// Seeded soups of HTML fragments: whatever the mix, the result is trimmed and never has
    /// more than one blank line in a row (outside `<pre>`, which is left out here, as is `&nbsp;`,
    /// which is text and may start or end it).
    @Test func randomFragmentSoupsGiveTidyText() {
        let fragments = [
            "<p>", "</p>", "<br>", "<br/>", "<span class=\"invisible\">", "<span class=\"ellipsis\">", "</span>", "<a href='x'>",
            "</a>", "&amp;", "&#", "&#x41;", "<", ">", "&", "x", "word", " ", "  ", "\n", "\n\n", "\t", "'", "\"",
            "<!--", "-->", "<script>", "</script>", "<li>", "<ol>", "</ol>", "<ul>", "</ul>", "<div>", "</div>", "é", "👩‍💻", "عربي",
            "<img alt=\"pic\">", "<b", "=",
        ]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2_000 {
            let html = (0..<next(40)).map { _ in fragments[next(fragments.count)] }.joined()
            let text = HTMLText.plainText(from: html)
            #expect(!text.contains("\n\n\n"), "\(html.debugDescription)")
            #expect(text.first.map { !$0.isWhitespace } ?? true, "\(html.debugDescription)")
            #expect(text.last.map { !$0.isWhitespace } ?? true, "\(html.debugDescription)")
        }
    }
}
