@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's translations over HTTP: the server's v2 description says whether it translates
/// (read once); `POST /api/v1/statuses/:id/translate` answers Mastodon's `Translation`, its HTML
/// made text as a post's is; a server that offers none is said so without asking; a private post
/// is refused with the server's sentence.
@Suite("HTTP translations")
struct HTTPTranslationTests {
    static func target(_ statuses: [Mastodon.Status]) throws -> Mastodon.Status {
        try #require(statuses.first { $0.reblog == nil && $0.visibility == .public })
    }

    @Test("translate reads the description once, POSTs to the post's path with the token, and maps the Translation")
    func translated() async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try Self.target(statuses)
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.offerTranslations([target.id: ("<p>Christmas party on the 18th! &amp; mulled wine<br>Everyone welcome.</p>", "de")], spoiler: "")
            let service = try makeService(server)
            let translation = try await service.translate(PostID(target.id))
            #expect(translation.text == "Christmas party on the 18th! & mulled wine\nEveryone welcome.")
            #expect(translation.sourceLanguage == "de" && translation.provider == "DeepL.com" && translation.contentWarning == nil)
            _ = try await service.translate(PostID(target.id))
            #expect(
                fake.requests.map { "\($0.method) \($0.path)" }
                    == ["GET /api/v2/instance", "POST /api/v1/statuses/\(target.id)/translate", "POST /api/v1/statuses/\(target.id)/translate"]
            )
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("a server whose description offers no translations is said so, and nothing is POSTed", arguments: [false, true])
    func off(_ described: Bool) async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try Self.target(statuses)
        try await withFakeServer(statuses: statuses) { fake, server in
            // Described without translations, or not described (404: a server before 4.0).
            if described { fake.describe(v2: FakeMastodon.describing(translation: false)) }
            let service = try makeService(server)
            for _ in 1...2 {
                do {
                    _ = try await service.translate(PostID(target.id))
                    Issue.record("translated on a server that offers none")
                } catch {
                    let failure = FeedFailure(error)
                    #expect(failure.message == "\(server.description) does not offer translations: its administrators have not set up a translation service.")
                    #expect(!failure.isTransient)
                }
            }
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == ["GET /api/v2/instance"])
        }
    }

    @Test("a private post is refused with the server's sentence (403)")
    func privatePost() async throws {
        var statuses = try FixtureStatuses.timeline()
        let index = try #require(statuses.firstIndex { $0.reblog == nil && $0.visibility == .public })
        statuses[index].visibility = .private
        let target = statuses[index]
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.offerTranslations([target.id: ("<p>Hidden</p>", "de")])
            let service = try makeService(server)
            do {
                _ = try await service.translate(PostID(target.id))
                Issue.record("a private post was translated")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("This action is not allowed"), "\(failure.message)")
                #expect(!failure.isTransient)
            }
        }
    }

    @Test("a session shows the server's translation on the detail, escape sequences and all made harmless by the front")
    @MainActor
    func session() async throws {
        let statuses = try FixtureStatuses.timeline()
        let target = try Self.target(statuses)
        try await withFakeServer(statuses: statuses) { fake, server in
            fake.offerTranslations([target.id: ("<p>Bell\u{07} and \u{1B}[2Jclear</p>", "de")])
            let session = FeedSession(service: try makeService(server), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)))
            session.navigator.push(.post(PostID(target.id)))
            guard case .post(let detail) = session.navigator.top else { throw CancellationError() }
            detail.appeared()
            await session.settle()
            #expect(detail.translate() == nil)
            await session.settle()
            // The core keeps the server's text; what shows it cleans it (the REPL's and
            // JSON-lines' tests check their output).
            #expect(detail.current.interaction?.translatedText == "Bell\u{07} and \u{1B}[2Jclear")
        }
    }
}
