@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// Mastodon's quote fields (4.4+): a `Quote` with its `quoted_status`, a `ShallowQuote` one level
/// down, states known and unknown, the `quote-inline` fallback, and quotes on the sandbox.
@Suite struct QuoteMappingTests {
    static func account(_ id: String, _ acct: String) -> String {
        #"{"id": "\#(id)", "username": "\#(acct)", "acct": "\#(acct)", "display_name": "\#(acct.capitalized)"}"#
    }

    /// Priya's post quoting Kemi's, which quotes Ana's (sent as a `ShallowQuote`).
    static let json = #"""
        {"id": "30", "created_at": "2026-11-20T09:15:02.000Z", "account": \#(account("3", "priya")),
         "content": "<p>Couldn&#39;t agree more.</p><p class=\"quote-inline\">RE: <a href=\"https://x.example/@kemi/20\">https://x.example/@kemi/20</a></p>",
         "quote": {"state": "accepted", "quoted_status": {
            "id": "20", "created_at": "2026-11-20T08:00:00.000Z", "account": \#(account("2", "kemi")),
            "content": "<p>Say no early.</p><p class=\"quote-inline\">RE: <a href=\"https://x.example/@ana/10\">x</a></p>",
            "favourites_count": 7, "favourited": true,
            "filtered": [{"filter": {"id": "1", "title": "Work", "context": ["home"], "filter_action": "warn"}}],
            "quote": {"state": "accepted", "quoted_status_id": "10"}}}}
        """#

    @Test("a status's quote becomes the post's: state, id, the quoted post one level deep with its own state and filters; the inline fallback is not in the text")
    func quoteMaps() throws {
        let post = Post(try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8)))
        #expect(post.text == "Couldn't agree more.")
        let quote = try #require(post.quote)
        #expect(quote.state == .accepted && quote.postID == "20")
        let quoted = try #require(quote.post)
        #expect(quoted.text == "Say no early.")
        #expect(quoted.favourited && quoted.favouritesCount == 7)
        #expect(quoted.filters == [PostFilter(id: "1", title: "Work", contexts: [.home], action: .warn)])
        #expect(quoted.quote == Quote(state: .accepted, postID: "10"), "a shallow quote: its state and id")
    }

    @Test("every state Mastodon names maps; an unknown or missing state is unauthorized; a quoted_status that does not decode leaves the quote without it")
    func states() throws {
        for (name, state) in [
            ("pending", QuoteState.pending), ("accepted", .accepted), ("rejected", .rejected), ("revoked", .revoked),
            ("deleted", .deleted), ("unauthorized", .unauthorized), ("blocked_account", .blockedAccount),
            ("blocked_domain", .blockedDomain), ("muted_account", .mutedAccount), ("something_new", .unauthorized),
        ] {
            let json = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": \#(Self.account("1", "a")), "content": "<p>hi</p>", "quote": {"state": "\#(name)", "quoted_status": null}}"#
            let post = Post(try Mastodon.decode(Mastodon.Status.self, from: Data(json.utf8)))
            #expect(post.quote?.state == state, "\(name)")
            #expect(post.quote?.post == nil)
        }
        let missing = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": \#(Self.account("1", "a")), "quote": {"quoted_status": {"id": "2"}}}"#
        let post = Post(try Mastodon.decode(Mastodon.Status.self, from: Data(missing.utf8)))
        #expect(post.quote == Quote(state: .unauthorized), "no state: unauthorized; a quoted status without created_at or account is dropped")
        let none = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": \#(Self.account("1", "a")), "content": "<p class=\"quote-inline\">RE: x</p><p>hi</p>"}"#
        let plain = Post(try Mastodon.decode(Mastodon.Status.self, from: Data(none.utf8)))
        #expect(plain.quote == nil)
        #expect(plain.text == "RE: x\n\nhi", "without a quote, the fallback is the only trace of one: it stays")
    }

    @Test("a status with a quote writes it back as Mastodon does: a Quote with the status, a ShallowQuote with its id")
    func roundTrip() throws {
        let status = try Mastodon.decode(Mastodon.Status.self, from: Data(Self.json.utf8))
        let again = try Mastodon.decode(Mastodon.Status.self, from: Mastodon.makeEncoder().encode(status))
        #expect(again == status)
        #expect(again.quote?.quotedStatus?.quote?.quotedStatusID == "10")
    }

    @Test("HTML: with a quote shown, quote-inline elements go with their text and leave no blank lines")
    func inlineFallback() {
        let html = #"<p>First.</p><p class="quote-inline">RE: <a href="https://x.example/1">https://x.example/1</a></p><p>Last <span class="other quote-inline">(quoted)</span>word.</p>"#
        #expect(HTMLText.plainText(from: html, hidingQuoteFallback: true) == "First.\n\nLast word.")
        #expect(HTMLText.plainText(from: html) == "First.\n\nRE: https://x.example/1\n\nLast (quoted)word.")
    }

    @Test("the sandbox: an accepted quote carries the quoted post's current copy (a favourite on it shows in the quote), a pending one says so, a deleted quoted post makes it deleted")
    func sandboxQuotes() async throws {
        var quoted = Build.status(1, author: "kemi", favourites: 2)
        quoted.quote = Mastodon.Quote(state: "accepted", quotedStatusID: "0")
        var quoting = Build.status(2, author: "priya")
        quoting.quote = Mastodon.Quote(state: "accepted", quotedStatusID: quoted.id)
        var pending = Build.status(3, author: "ana")
        pending.quote = Mastodon.Quote(state: "pending", quotedStatusID: quoted.id)
        let service = try SandboxService(statuses: [quoted, quoting, pending], scenario: SandboxScenario(), pageSize: 10, clock: VirtualClock())
        let page = try await service.page(of: .home, after: nil)
        let byID = Dictionary(uniqueKeysWithValues: page.items.map { ($0.id, $0) })
        let quote = try #require(byID[PostID(quoting.id)]?.quote)
        #expect(quote.state == .accepted && quote.post?.id == PostID(quoted.id))
        #expect(quote.post?.quote?.post == nil, "one level deep")
        #expect(byID[PostID(pending.id)]?.quote == Quote(state: .pending, postID: PostID(quoted.id)))

        _ = try await service.set(.favourite, to: true, postID: PostID(quoted.id))
        let after = try await service.post(PostID(quoting.id))
        #expect(after.quote?.post?.favourited == true)
        #expect(after.quote?.post?.favouritesCount == 3)
    }

    @Test("the bundled fixtures hold quote posts: accepted (its fallback hidden), pending, revoked, and a quote of a quote")
    func bundledQuotes() async throws {
        let service = try SandboxService(fixture: SandboxAccountsTests.fixture(), clock: VirtualClock())
        let hugo = try await service.post("117638440000000001")
        #expect(hugo.quote?.state == .accepted)
        #expect(hugo.quote?.post?.author.handle == "priya@foss.community")
        #expect(!hugo.text.contains("RE:"))
        #expect(try await service.post("117638450000000002").quote?.state == .pending)
        #expect(try await service.post("117638445000000004").quote?.state == .revoked)
        let tomas = try await service.post("117638460000000003")
        #expect(tomas.quote?.post?.id == "117638440000000001")
        #expect(tomas.quote?.post?.quote == Quote(state: .accepted, postID: "117632273937832734"))
    }

    /// A status with `quote_approval` set to `approval` (raw JSON).
    static func approved(_ approval: String) -> String {
        #"{"id": "40", "created_at": "2026-11-20T09:15:02.000Z", "account": \#(account("3", "priya")), "content": "<p>hi</p>", "quote_approval": \#(approval)}"#
    }

    @Test("quote_approval maps: who at once, who after review, your verdict; names this version does not know are unsupported or unknown; a missing or broken one is nil and the status still decodes")
    func quoteApprovalMaps() throws {
        func decoded(_ approval: String) throws -> QuoteApproval? {
            Post(try Mastodon.decode(Mastodon.Status.self, from: Data(Self.approved(approval).utf8))).quoteApproval
        }
        #expect(try decoded(#"{"automatic": ["followers"], "manual": ["public"], "current_user": "manual"}"#)
            == QuoteApproval(automatic: [.followers], manual: [.public], currentUser: .manual))
        #expect(try decoded(#"{"automatic": ["friends_of_friends"], "manual": [], "current_user": "maybe"}"#)
            == QuoteApproval(automatic: [.unsupported], manual: [], currentUser: .unknown))
        #expect(try decoded(#"{"automatic": []}"#) == QuoteApproval(automatic: [], manual: [], currentUser: .unknown))
        #expect(try decoded(#""public""#) == nil, "a quote_approval that is not an object is dropped, not the status")
        #expect(try decoded("null") == nil)
        let unknown = try #require(try decoded(#"{"automatic": ["public"], "manual": [], "current_user": "unknown"}"#))
        #expect(unknown.currentUser == .unknown)
    }
}
