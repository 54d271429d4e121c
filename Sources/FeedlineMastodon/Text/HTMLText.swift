/// Plain text from the HTML that Mastodon-compatible servers put in `content` and `spoiler_text`.
public enum HTMLText {
    /// The text a reader sees when the web UI shows `html`, as plain text.
    ///
    /// Guarantees:
    /// - **Lines.** Paragraphs (`<p>`, `<blockquote>`, `<pre>`, headings, lists) are separated by
    ///   one blank line; `<br>`, line-level blocks (`<div>`, `<li>` …) and raw newlines end a
    ///   line. At most one blank line ever appears in a row; spaces at the start and end of
    ///   lines, and blank lines at the start and end of the text, are removed (except inside
    ///   `<pre>`, whose text is kept as written). List items start with `• ` or, in `<ol>`, `1. `.
    /// - **Links** show their text, so mentions read `@user` and hashtags `#tag`. Mastodon's
    ///   shortened links show as its web UI does: `<span class="invisible">` parts are dropped and
    ///   a `<span class="ellipsis">` part is followed by `…`.
    /// - **Entities** are decoded: the named ones of HTML 4.01 plus `&apos;`, and numeric ones
    ///   in decimal (`&#39;`) and hex (`&#x1F600;`), with HTML5's Windows-1252 reading of
    ///   `&#128;`…`&#159;`. A reference that is unknown, lacks its `;`, or names no character
    ///   (zero, a surrogate, past U+10FFFF) is left as written.
    /// - **Other markup.** Images show their `alt` text; comments, `<script>` and `<style>`
    ///   contents are dropped; other tags are removed and their text kept. Custom emoji stay as
    ///   the `:shortcode:` text the server sent.
    /// - **Robustness.** Any input gives an answer: a `<` that does not start a tag (`a < b`,
    ///   `<3`) is text, unclosed elements end with the input, and a tag still open at the end of
    ///   the input is shown as the text it is.
    ///
    /// - **Quotes.** With `hidingQuoteFallback` (a post whose quote is shown), elements of
    ///   class `quote-inline` — the `RE: link` fallback servers write for clients without
    ///   quotes — are left out with their text, so the quote is not shown twice.
    ///
    /// - Complexity: O(n) time and memory in the UTF-8 length of `html`, whatever its content.
    public static func plainText(from html: String, hidingQuoteFallback: Bool = false) -> String {
        var source = html
        return source.withUTF8 { bytes in
            var renderer = HTMLTextRenderer(input: bytes, hidesQuoteFallback: hidingQuoteFallback)
            return renderer.render()
        }
    }
}
