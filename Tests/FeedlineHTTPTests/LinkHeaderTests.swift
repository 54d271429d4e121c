import FeedlineTestSupport
import FeedlineMastodon
import Testing

/// RFC 8288 `Link` parsing: what Mastodon and others send, the grammar's freedoms, and garbage.
@Suite("Link header")
struct LinkHeaderTests {
    private let older = "https://m.example/api/v1/timelines/home?max_id=109"
    private let newer = "https://m.example/api/v1/timelines/home?min_id=120"

    @Test("Mastodon's header: next is older, prev is newer")
    func mastodon() {
        let header = LinkHeader(parsing: "<\(older)>; rel=\"next\", <\(newer)>; rel=\"prev\"")
        #expect(header.next == older)
        #expect(header.previous == newer)
        #expect(header.links.count == 2)
    }

    @Test(
        "spacing, parameter order, quoting and case do not matter",
        arguments: [
            "<OLD>;rel=next,<NEW>;rel=prev",
            "  <OLD> ;  rel = \"next\" ,\t<NEW>\t;\trel=\"prev\"  ",
            "<OLD>; title=\"older, earlier\"; rel=\"next\", <NEW>; type=\"application/json\"; REL=PREV",
            "<NEW>; rel=\"previous\", <OLD>; rel=\"NEXT\"",
            ", ,<OLD>; rel=\"next\",, <NEW>; rel=prev,",
            "<OLD>; rel=\"next last\", <NEW>; rel=\"first prev\"",
            "<OLD>; rel=\"next\"\r\n , <NEW>; rel=\"prev\"",
        ]
    )
    func tolerated(_ template: String) {
        let header = LinkHeader(parsing: template.replacingOccurrences(of: "OLD", with: older).replacingOccurrences(of: "NEW", with: newer))
        #expect(header.next == older)
        #expect(header.previous == newer)
    }

    @Test("several relation types, parameters kept in order, only the first rel counts")
    func parameters() throws {
        let header = LinkHeader(parsing: #"<a>; rel="next LAST"; title="x\"y"; crossorigin; rel="prev""#)
        let link = try #require(header.links.first)
        #expect(link.target == "a")
        #expect(link.relations == ["next", "last"])
        #expect(
            link.parameters == [
                .init(name: "rel", value: "next LAST"), .init(name: "title", value: "x\"y"),
                .init(name: "crossorigin", value: nil), .init(name: "rel", value: "prev"),
            ]
        )
        #expect(header.previous == nil)
        #expect(header.target(for: "Last") == "a")
    }

    @Test("commas inside targets and quoted values do not split links")
    func commas() {
        let header = LinkHeader(parsing: #"<https://x/a,b>; title="a, b"; rel=next, <c>; rel=prev"#)
        #expect(header.next == "https://x/a,b")
        #expect(header.previous == "c")
    }

    @Test(
        "garbage yields no links or only the well-formed ones, never a crash",
        arguments: [
            "", " ", ",", ";", "<", ">", "<>", "\"", "rel=next", "<a", "<a; rel=next", "next", "; rel=next",
            "<a>; rel=\"next", "<a>; rel=", "<a>;;;; rel=next", "<a>; =next", "\u{0}\u{1}<\u{FFFF}>", "<a> junk; rel=next",
            "garbage, <b>; rel=prev", "<a>; rel=next <b>; rel=prev",
        ]
    )
    func garbage(_ text: String) {
        let header = LinkHeader(parsing: text)
        #expect(header.links.count <= 2)
        for link in header.links { #expect(!link.target.contains(">")) }
    }

    @Test("specific garbage is read as expected")
    func garbageDetails() {
        #expect(LinkHeader(parsing: "<a>; rel=\"next").next == "a")  // unterminated quote: to the end
        #expect(LinkHeader(parsing: "<a>; rel=").links.first?.relations == [])
        #expect(LinkHeader(parsing: "<a>;;;; rel=next").next == "a")
        #expect(LinkHeader(parsing: "<a> junk; rel=next").links.first?.relations == [])  // junk drops the element's rest
        #expect(LinkHeader(parsing: "garbage, <b>; rel=prev").previous == "b")
        #expect(LinkHeader(parsing: "<a; rel=next").links.isEmpty)
        #expect(LinkHeader(parsing: ["<a>; rel=next", "<b>; rel=prev"]).previous == "b")
    }

    @Test("seeded scalar soup never traps; a long header parses in one pass")
    func soup() {
        var generator = SeededGenerator(seed: 8288)
        let alphabet = Array("<>;,=\" \t\\abcnextprevrel\u{0}é🙂".unicodeScalars)
        for _ in 0..<300 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<80, using: &generator) {
                scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            let header = LinkHeader(parsing: String(scalars))
            #expect(header.links.count <= scalars.count)
        }
        let long = String(repeating: "<a>; rel=next, ", count: 20_000)
        #expect(LinkHeader(parsing: long).links.count == 20_000)
    }
}
