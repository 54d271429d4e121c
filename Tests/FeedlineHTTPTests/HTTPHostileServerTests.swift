@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// What a hostile (or broken) server cannot do to a session through the service: make it hold
/// more than a page, or an answer past the size limit, or follow it in circles.
@Suite("A hostile server", .timeLimit(.minutes(10)))
struct HTTPHostileServerTests {
    @Test("a page far longer than asked is cut to the page size; its next link still pages on")
    func longPageIsCut() async throws {
        try await withFakeServer { fake, server in
            let statuses = try FixtureStatuses.timeline()
            let body = String(decoding: try Mastodon.makeEncoder().encode(statuses), as: UTF8.self)
            let next = server.url(path: "/api/v1/timelines/home", query: [URLQueryItem(name: "max_id", value: statuses[19].id)]).absoluteString
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, headers: ["Link": "<\(next)>; rel=\"next\""], body: body))
            let service = try makeService(server, pageSize: 20)
            let page = try await service.page(of: .home, after: nil)
            #expect(statuses.count > 100)
            #expect(page.posts.map(\.id) == statuses.prefix(20).map { PostID($0.id) })
            #expect(page.next?.rawValue == next)
        }
    }

    @Test("an answer past 8 MiB is refused with its sentence, announced or chunked, and the session can ask again")
    func hugeAnswer() async throws {
        try await withFakeServer { fake, server in
            let piece = String(repeating: " ", count: 64 << 10)
            let service = try makeService(server)
            for announced in [true, false] {
                // 512 MiB of spaces (valid JSON whitespace, so only the size can refuse it).
                fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 200, body: piece, repeats: (8192, announced)))
                let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
                #expect(error as? MastodonHTTPError == .answerTooLarge(limitBytes: 8 << 20))
                #expect(
                    (error as? MastodonHTTPError)?.description
                        == "The server's answer is larger than 8 MiB, far more than any Mastodon answer, so Feedline did not read it."
                )
            }
            let page = try await service.page(of: .home, after: nil)
            #expect(!page.posts.isEmpty)
        }
    }

    @Test("a redirect loop within the server says so, in a sentence, and is not transient")
    func redirectLoop() async throws {
        try await withFakeServer { fake, server in
            fake.enqueue(.init(pathPrefix: "/api/v1/timelines/home", status: 302, headers: ["Location": "/elsewhere"], body: "", times: 50))
            fake.enqueue(.init(pathPrefix: "/elsewhere", status: 302, headers: ["Location": "/api/v1/timelines/home"], body: "", times: 50))
            let service = try makeService(server)
            let error = await thrownError { _ = try await service.page(of: .home, after: nil) }
            #expect(error as? MastodonHTTPError == .redirectLoop)
            #expect(
                (error as? MastodonHTTPError)?.description
                    == "The server keeps redirecting the request (a redirect loop), so it never answers it. Check the address given to --server."
            )
            #expect((error as? MastodonHTTPError)?.isTransient == false)
        }
    }

    @Test("no answer within the idle limit, and an answer still coming at the total limit, are two sentences with their own limits")
    func twoTimeouts() {
        let limits = HTTPTransferLimits(idle: .seconds(20), total: .seconds(60))
        #expect(
            MastodonHTTPError.transport(HTTPTransportError(.idleTimeout), host: "social.example", limits: limits).description
                == "The server did not answer within 20 seconds. Check your connection and try again."
        )
        #expect(
            MastodonHTTPError.transport(HTTPTransportError(.totalTimeout), host: "social.example", limits: limits).description
                == "The server's answer was still coming after 60 seconds, so Feedline stopped waiting for it. Try again later."
        )
        #expect(
            MastodonHTTPError.transport(HTTPTransportError(.headerTooLarge), host: "social.example", limits: limits).description
                == "The server's answer has header fields too large to read, which no Mastodon-compatible server sends. Check the address given to --server."
        )
    }
}
