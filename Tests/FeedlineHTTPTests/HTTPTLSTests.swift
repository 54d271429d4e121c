import AsyncHTTPClient
@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import NIOSSL
import Testing

/// TLS on the transport: a certificate the system's store does not vouch for is refused with
/// a sentence before a request is sent; the same server with its certificate trusted answers
/// (so the refusal is about trust, not about the server).
@Suite("HTTPS certificates", .timeLimit(.minutes(10)))
struct HTTPTLSTests {
    @Test("a self-signed certificate is refused, with a sentence naming the host, and nothing is sent")
    func selfSigned() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let server = try await TLSTestServer.start(try .make(in: scratch))
        let service = try makeService(try MastodonServer(parsing: server.baseURL))
        let error = await thrownError { _ = try await service.page(of: .public, after: nil) }
        let host = "127.0.0.1:\(server.port)"
        #expect(error as? MastodonHTTPError == .untrustedCertificate(host: host))
        #expect(
            (error as? MastodonHTTPError)?.description
                == "The secure connection to \(host) was refused: its certificate is not trusted (self-signed, expired, or for another name). "
                + "Check the server address; Feedline never connects without a valid certificate."
        )
        #expect(server.requests == 0, "no request, so no token, reached the server")

        // The same server, its certificate trusted by a client made for the test, answers.
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(scratch.file("cert.pem").path)]
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        let trusting = try MastodonHTTPService(
            server: try MastodonServer(parsing: server.baseURL), token: nil, pageSize: 20, timeout: .seconds(60), rateLimitWait: .zero,
            clock: ContinuousClock(), wallClock: .system, userAgent: "Feedline-test", transport: AsyncHTTPClientTransport(client: client)
        )
        let page = try await trusting.page(of: .public, after: nil)
        #expect(page.items.isEmpty)
        #expect(server.requests == 1)
        try await client.shutdown()
        await server.stop()
    }
}
