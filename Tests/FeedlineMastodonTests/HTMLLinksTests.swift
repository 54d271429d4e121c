import Feedline
import FeedlineMastodon
import Foundation
import Testing

/// The links a reader can follow in a status's HTML: what `link N` and `browse N K` number.
@Suite("Links of a post's HTML")
struct HTMLLinksTests {
    @Test("the text's links in order, each once, entities decoded; mentions and hashtags left out")
    func links() {
        let html = #"""
            <p><span class="h-card"><a href="https://fieldnotes.science/@kemi" class="u-url mention">@<span>kemi</span></a></span> see \#
            <a href="https://example.org/pond?a=1&amp;b=2" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="ellipsis">example.org/pond?a=1&amp;</span><span class="invisible">b=2</span></a> \#
            and <A HREF='https://example.org/second'>this</A> and again <a href="https://example.org/pond?a=1&amp;b=2">it</a> \#
            <a href="https://tidepool.social/tags/birds" class="mention hashtag" rel="tag">#<span>birds</span></a></p>
            """#
        #expect(HTMLLinks.links(in: html) == ["https://example.org/pond?a=1&b=2", "https://example.org/second"])
    }

    @Test("only http and https addresses with nothing a terminal or a shell could take for something else")
    func unsafe() {
        let html = #"""
            <a href="javascript:alert(1)">x</a><a href="file:///etc/passwd">x</a><a href="https://ok.example/a b">x</a>\#
            <a href="https://ok.example/&#x1b;[2J">x</a><a href="https://">x</a><a>no href</a><a href="https://ok.example/fine">x</a>\#
            <a href="https://ok.example/tab&#9;here">x</a><a href="https://ok.example/&#x200E;mark">x</a>
            """#
        #expect(HTMLLinks.links(in: html) == ["https://ok.example/fine"])
        #expect(PostLink.checked("https://ok.example/x") == "https://ok.example/x")
        #expect(PostLink.checked("https://ok.example/\u{7}") == nil)
        #expect(PostLink.checked("-https://ok.example") == nil)
        #expect(PostLink.checked("https://" + String(repeating: "a", count: 3_000)) == nil)
    }

    @Test("any input gives an answer in time linear in its length: an unclosed tag, a thousand anchors")
    func robust() {
        #expect(HTMLLinks.links(in: #"<a href="https://x.example/unclosed"#) == ["https://x.example/unclosed"])
        #expect(HTMLLinks.links(in: "<a").isEmpty)
        let many = (0..<1_000).map { #"<a href="https://x.example/\#($0)">\#($0)</a>"# }.joined()
        #expect(HTMLLinks.links(in: many).count == HTMLLinks.limit)
    }

    @Test("a status's links become the post's; its address, text links, card and attachments are what a reader opens, numbered")
    func mapped() throws {
        let json = #"""
            {"id":"1","uri":"https://x.example/statuses/1","url":"https://x.example/@a/1","created_at":"2026-11-21T17:00:00.000Z",
             "account":{"id":"7","username":"a","acct":"a","display_name":"A"},
             "content":"<p>read <a href=\"https://news.example/story\">this</a></p>","spoiler_text":"","visibility":"public",
             "media_attachments":[{"id":"m1","type":"image","url":"https://files.example/1.jpg","description":"a heron"}],
             "card":{"url":"https://cards.example/c","title":"A card","description":""},
             "mentions":[],"tags":[],"emojis":[],"reblogs_count":0,"favourites_count":0,"replies_count":0}
            """#
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8))
        let post = Post(status)
        #expect(post.links == ["https://news.example/story"])
        #expect(post.webAddress == "https://x.example/@a/1")
        #expect(post.linkTargets.map(\.url) == ["https://news.example/story", "https://cards.example/c", "https://files.example/1.jpg"])
    }
}
