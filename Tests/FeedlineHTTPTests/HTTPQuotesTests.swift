@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Quote posts and a hashtag's header over HTTP, against the fake server: a status's `quote`
/// read from the timeline, a favourite made inside the quote sent for the quoted post, and
/// `GET /api/v1/tags/:name`.
@Suite("HTTP quote posts and hashtag headers")
struct HTTPQuotesTests {
    static let account = Mastodon.Account(id: "7", username: "priya", acct: "priya@foss.example", displayName: "Priya")

    static func status(_ id: String, minutes: Double, text: String, quote: Mastodon.Quote? = nil) -> Mastodon.Status {
        Mastodon.Status(
            id: id, uri: "https://foss.example/users/priya/statuses/\(id)", createdAt: Date(timeIntervalSince1970: 1_795_340_000 + minutes * 60),
            account: account, content: "<p>\(text)</p>", favouritesCount: 5, quote: quote
        )
    }

    @MainActor
    @Test("a quote in the timeline shows the quoted post; a favourite made inside it is sent for the quoted post and shows on its own row too")
    func favouriteInsideAQuote() async throws {
        let quoted = Self.status("100", minutes: 1, text: "Say no early.")
        var quoting = Self.status("200", minutes: 2, text: "Agreed.<p class=\"quote-inline\">RE: https://foss.example/@priya/100</p>")
        quoting.quote = Mastodon.Quote(state: "accepted", quotedStatus: quoted)
        try await withFakeServer(statuses: [quoting, quoted]) { fake, server in
            let service = try makeService(server)
            let session = FeedSession(service: service, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)), retryClock: ManualClock())
            session.root.appeared()
            await session.settle()
            let row = try #require(session.root.rows[id: .post("200")]?.post)
            #expect(row.text == "Agreed.", "the inline fallback is not shown twice")
            #expect(row.quote?.quoted?.post.text == "Say no early.")
            #expect(session.set(.favourite, true, post: try #require(row.quotedID)))
            await session.settle()
            #expect(fake.requests.contains { $0.method == "POST" && $0.path == "/api/v1/statuses/100/favourite" })
            #expect(session.root.rows[id: .post("200")]?.post?.quote?.quoted?.interaction.favourited == true)
            #expect(session.root.rows[id: .post("100")]?.post?.interaction.favourited == true)
            #expect(session.root.rows[id: .post("200")]?.post?.interaction.favourited == false)
        }
    }

    @Test("a hashtag's header: GET /api/v1/tags/:name with its week's use and whether you follow it; a name no post used says so")
    func tagHeader() async throws {
        try await withFakeServer(statuses: []) { fake, server in
            fake.trend([
                Mastodon.Hashtag(
                    name: "Birds", url: "https://x.example/tags/birds",
                    history: [Mastodon.Hashtag.Day(day: "1795305600", uses: 12, accounts: 5)]
                ),
            ])
            fake.followTags(["birds"])
            let service = try makeService(server)
            let tag = try await service.tag(named: "#birds")
            #expect(tag.name == "Birds" && tag.weeklyUses == 12 && tag.following == true)
            #expect(fake.requests.last?.path == "/api/v1/tags/birds")
            await #expect(throws: MastodonHTTPError.self) { try await service.tag(named: "a-b") }
            do {
                _ = try await service.tag(named: "a-b")
            } catch {
                #expect((error as? LocalizedError)?.errorDescription?.contains("uses #a-b yet") == true)
            }
        }
    }
}
