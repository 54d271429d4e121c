@_spi(FeedService) import Feedline
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 26's screens through the built binary against the fake server: your lists (read and
/// made), a direct conversation (read, which marks it read), a hashtag's header — each at its
/// endpoint.
@Suite("HTTP lists, conversations and hashtag headers through the binary")
struct HTTPDiscoverySessionTests {
    static let script = """
        lists
        lists new Field notes
        conversations
        open 1
        back
        tag birds
        quit
        """

    @Test("lists, lists new, conversations, open a conversation, tag NAME: each through its endpoint, and the screens say what the server said")
    func screens() async throws {
        try await withFixtureServer { fake, _ in
            fake.makeList("Birders")
            let first = try #require(try FixtureStatuses.timeline().first)
            fake.startConversations(lastStatuses: [first.id], unread: [first.id])
            let scratch = try Scratch()
            defer { scratch.remove() }
            let script = scratch.file("discovery.feedline")
            try Data((Self.script + "\n").utf8).write(to: script)
            let arguments = ["--server", fake.baseURL, "--timeline", "home", "--script", script.path] + HTTPScriptedSessionTests.flags
            let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(!exit.timedOut && exit.status == 0, "\(exit.stderr)")
            let seen = fake.requests.map { "\($0.method) \($0.path)" }
            for request in [
                "GET /api/v1/lists", "POST /api/v1/lists", "GET /api/v1/conversations", "POST /api/v1/conversations/c\(first.id)/read",
                "GET /api/v1/tags/birds",
            ] {
                #expect(seen.contains(request), "the server never saw \(request): \(seen)")
            }
            #expect(fake.userLists.map(\.title) == ["Birders", "Field notes"])
            #expect(fake.conversationSummary == ["c\(first.id)"], "read on the server")
            for text in ["Birders", "Field notes", "conversations> open 1", "#birds> "] {
                #expect(stdout.contains(text), "no \"\(text)\" in:\n\(stdout)")
            }
        }
    }
}
