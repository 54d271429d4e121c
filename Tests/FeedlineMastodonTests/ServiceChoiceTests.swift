@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

@Suite("Service choice")
struct ServiceChoiceTests {
    @Test("the sandbox choice serves the fixture directory, with the requested page size")
    func sandbox() async throws {
        let directory = try FixturePaths.directory("timeline")
        let choice = ServiceChoice.sandbox(fixtures: directory)
        #expect(!choice.isRemote)
        // The bundled directory, found by itself: named as the bundled sandbox, not by a path of this machine.
        #expect(choice.summary == "the home timeline of the bundled sandbox (Fixtures/timeline)")
        #expect(ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "Fixtures/timeline")).summary == "the home timeline from the fixtures in Fixtures/timeline")
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

    @Test("the sandbox is named by its directory's path as given: /tmp is /tmp, not \"tmp\"; a relative path stays relative")
    func sandboxNamedByPath() {
        #expect(ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "/tmp")).summary == "the home timeline from the fixtures in /tmp")
        #expect(ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "Fixtures/faults")).summary
            == "the home timeline from the fixtures in Fixtures/faults")
        #expect(ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "/srv/a/timeline")).summary
            != ServiceChoice.sandbox(fixtures: URL(fileURLWithPath: "/srv/b/timeline")).summary)
    }

    @Test("a server with a port is named host:port, as its accounts are (feedline config and the greeting)")
    func serverWithPort() throws {
        #expect(ServiceChoice.server(address: "http://127.0.0.1:38111", timeline: "public", tokenFile: nil).summary
            == "the public timeline of 127.0.0.1:38111")
        let server = try MastodonServer(parsing: "http://127.0.0.1:38111")
        let token = try AccessToken("secret-value", source: .account("grace@127.0.0.1:38111"))
        #expect(ServiceChoice.account(id: "grace@127.0.0.1:38111", server: server, timeline: nil, token: token).summary
            == "the home timeline of 127.0.0.1:38111 as @grace@127.0.0.1:38111")
        #expect(ServiceChoice.server(address: "https://mastodon.social", timeline: nil, tokenFile: nil).summary
            == "the home timeline of mastodon.social", "no port when the address has none")
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
