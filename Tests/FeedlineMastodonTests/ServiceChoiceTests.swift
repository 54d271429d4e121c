import Feedline
import FeedlineMastodon
import Foundation
import Testing

@Suite("Service choice")
struct ServiceChoiceTests {
    @Test("the sandbox choice serves the fixture directory, with the requested page size")
    func sandbox() async throws {
        let choice = ServiceChoice.sandbox(fixtures: try FixturePaths.directory("timeline"))
        #expect(!choice.isRemote)
        #expect(choice.summary == "the home timeline from the timeline fixtures")
        let service = try choice.makeService(postsPerPage: 7, clock: VirtualClock())
        let page = try await service.page(of: .home, after: nil)
        #expect(page.posts.count == 7)
    }

    @Test("a missing fixture directory or a bad page size is one sentence naming the problem")
    func sandboxErrors() throws {
        let missing = ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "/nonexistent/feedline-fixtures"))
        #expect {
            try missing.makeService(clock: VirtualClock())
        } throws: { error in
            let text = "\(error)"
            return text.contains("/nonexistent/feedline-fixtures") && !text.contains("\n")
        }
        let tooBig = ServiceChoice.sandbox(fixtures: try FixturePaths.directory("timeline"))
        #expect(throws: ServiceSetupError.self) { try tooBig.makeService(postsPerPage: 41, clock: VirtualClock()) }
    }

    @Test("server choices name their timeline and host, and report setup errors without the token")
    func server() throws {
        #expect(ServiceChoice.server(address: "mastodon.social", timeline: "tag:Swift", tokenFile: nil).summary
            == "the #Swift timeline of mastodon.social")
        #expect(ServiceChoice.server(address: "https://example.org", timeline: nil, tokenFile: nil).summary
            == "the home timeline of example.org")
        let choice = ServiceChoice.server(address: "https://example.org", timeline: "home", tokenFile: nil)
        #expect(choice.isRemote)
        // Home without a token is refused before anything is sent.
        #expect(throws: ServiceSetupError.self) {
            try choice.makeService(clock: ContinuousClock(), environment: [:])
        }
        let secret = "s3cr3t-token-value"
        let bad = ServiceChoice.server(address: "ftp://example.org", timeline: "public", tokenFile: nil)
        #expect {
            try bad.makeService(clock: ContinuousClock(), environment: ["FEEDLINE_TOKEN": secret])
        } throws: { error in
            "\(error)".contains("ftp://example.org") && !"\(error)".contains(secret)
        }
        let service = try ServiceChoice.server(address: "example.org", timeline: "public", tokenFile: nil)
            .makeService(clock: ContinuousClock(), environment: ["FEEDLINE_TOKEN": secret])
        #expect(!"\(service)".contains(secret))
    }
}
