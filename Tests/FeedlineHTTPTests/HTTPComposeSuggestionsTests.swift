@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// What Tab asks a server while writing (issue 34), over HTTP against the fake server's Mastodon
/// rules (`FakeMastodon+Suggestions.swift`): the accounts starting with what was typed
/// (`GET /api/v1/accounts/search`, never resolving remote ones), the server's custom emoji
/// (`GET /api/v1/custom_emojis`), the hashtags followed and trending — each asked once a session.
@Suite("HTTP: what Tab asks while writing")
struct HTTPComposeSuggestionsTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    /// How many times an answer was heard.
    @MainActor
    final class Heard {
        var count = 0
    }

    @Test("an account start asks accounts/search once (q without @, resolve=false, limit 10, signed in); the handles found start so")
    @MainActor
    func accounts() async throws {
        try await withFixtureServer { fake, server in
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            session.suggestions.loadAccounts(startingWith: "@K")
            await session.settle()
            #expect(session.suggestions.handles == ["kemi@fieldnotes.science", "kwame@kestrel.social"])
            #expect(session.suggestions.searched == ["k"])
            #expect(session.suggestions.answered(.accounts("@k")))
            let asked = fake.requests.filter { $0.path == "/api/v1/accounts/search" }
            #expect(asked.map(\.query) == [["q": "k", "limit": "10", "resolve": "false"]])
            #expect(asked.first?.authorization == "Bearer \(secretToken)")

            session.suggestions.loadAccounts(startingWith: "k")
            session.suggestions.loadAccounts(startingWith: "zz")
            await session.settle()
            #expect(fake.requests.filter { $0.path == "/api/v1/accounts/search" }.count == 2, "k is not asked again; zz is")
            #expect(session.suggestions.searched == ["k", "zz"], "a start that found nothing is answered too")
            #expect(session.suggestions.handles.count == 2)
        }
    }

    @Test("the server's custom emoji load once (two asks on the way, one request, both told), sorted, each shortcode once")
    @MainActor
    func emoji() async throws {
        try await withFixtureServer { fake, server in
            fake.serveCustomEmoji([
                Mastodon.CustomEmoji(shortcode: "tea", url: "https://x.example/tea.png"),
                Mastodon.CustomEmoji(shortcode: "frog", url: "https://x.example/frog.png", visibleInPicker: false),
                Mastodon.CustomEmoji(shortcode: "tea", url: "https://x.example/tea2.png", category: "drinks"),
            ])
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            #expect(session.suggestions.emoji == nil, "nothing before it is asked")
            let heard = Heard()
            session.suggestions.loadEmoji { heard.count += 1 }
            session.suggestions.loadEmoji { heard.count += 1 }
            await session.settle()
            #expect(session.suggestions.emoji == ["frog", "tea"])
            #expect(heard.count == 2, "both asks hear the one answer")
            session.suggestions.loadEmoji()
            await session.settle()
            #expect(fake.requests.filter { $0.path == "/api/v1/custom_emojis" }.count == 1)
        }
    }

    @Test("hashtags: those followed first, then trending ones not already there, without case")
    @MainActor
    func tags() async throws {
        try await withFixtureServer { fake, server in
            fake.followTags(["Tidepools", "birds"])
            fake.trend(HTTPTagsTests.trends)
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            session.suggestions.loadTags()
            await session.settle()
            #expect(session.suggestions.tags == ["Tidepools", "birds", "gardening"])
        }
    }

    @Test("a server without custom emoji (404, as a non-Mastodon server answers) gives none, and is not asked again this session")
    @MainActor
    func failure() async throws {
        try await withFixtureServer { fake, server in
            fake.fail("/api/v1/custom_emojis", status: 404, error: "Record not found")
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            session.suggestions.loadEmoji()
            await session.settle()
            #expect(session.suggestions.emoji == [])
            session.suggestions.loadEmoji()
            await session.settle()
            #expect(fake.requests.filter { $0.path == "/api/v1/custom_emojis" }.count == 1)
        }
    }
}
