import FeedlineAccounts
@testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing


/// `Login` as a library against the fake OAuth server, for the answers a real server gives
/// rarely and the binary tests do not reach: a discovery document sending sign-in elsewhere, a
/// registration the server forgot, an account name no file can hold, a rate limit. Each failure
/// names its step, stores no account, and leaves no issued token valid.
@MainActor
@Suite("Login steps against the fake server", .timeLimit(.minutes(10)))
struct LoginFlowTests {
    /// A sign-in to `fake` with a store in `scratch`.
    static func login(_ fake: FakeMastodon, _ scratch: Scratch) throws -> Login {
        let store = AccountStore(directory: FeedlineDirectory(url: scratch.file("feedline")))
        return try Login(address: fake.baseURL, store: store, timeout: .seconds(60))
    }

    /// The code the fake's authorization page shows for `authorization` (the browser's part).
    static func code(for authorization: Login.Authorization) async throws -> String {
        let page = try await Browser.page(authorization.url)
        return try #require(LoginHome.code(in: page), "the authorization page shows a code: \(page)")
    }

    /// The sign-in error `body` fails with (`nil`: it did not fail, or failed otherwise).
    static func failure(_ body: () async throws -> Void) async -> LoginError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? LoginError
        }
    }

    @Test("a discovery document that sends sign-in to another host is refused before anything is registered")
    func foreignEndpoint() async throws {
        try await withFakeServer(token: nil) { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let elsewhere = "https://sign-in.elsewhere.example/oauth/authorize"
            fake.enqueue(
                FakeMastodon.Canned(
                    method: "GET", pathPrefix: "/.well-known/oauth-authorization-server", status: 200,
                    body: "{\"issuer\":\"\(fake.baseURL)/\",\"authorization_endpoint\":\"\(elsewhere)\",\"token_endpoint\":\"\(fake.baseURL)/oauth/token\"}"
                )
            )
            let login = try Self.login(fake, scratch)
            let error = try #require(await Self.failure { _ = try await login.begin() })
            #expect(error.step == .discovery)
            #expect(error.reason == .foreignEndpoint(elsewhere))
            #expect(
                error.description
                    == "Signing in to \(fake.baseURL) failed while finding the server: its discovery document sends sign-in to another host (\(elsewhere)). No account was saved."
            )
            #expect(fake.requests.map(\.path) == ["/.well-known/oauth-authorization-server"])
        }
    }

    @Test("signing in over https:// to a server that answers plain HTTP says so and names the http:// address")
    func plainHTTPServer() async throws {
        try await withFakeServer(token: nil) { fake, server in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let address = "127.0.0.1:\(server.url.port ?? 0)"
            let store = AccountStore(directory: FeedlineDirectory(url: scratch.file("feedline")))
            let login = try Login(address: address, store: store, timeout: .seconds(60))
            let error = try #require(await Self.failure { _ = try await login.begin() })
            #expect(error.step == .discovery)
            #expect(error.reason == .unreachable(.plainHTTP(host: address, suggestion: "http://\(address)")))
            #expect(
                error.description
                    == "Signing in to https://\(address) failed while finding the server: the secure connection to \(address) failed: it answers plain HTTP (sign in with `feedline login http://\(address)`). No account was saved."
            )
        }
    }

    @Test("a registration the server forgot (invalid_client at the exchange) is dropped here, so the next sign-in registers again")
    func forgottenRegistration() async throws {
        try await withFakeServer(token: nil) { fake, server in
            fake.signInBrowser(as: "alice")
            let scratch = try Scratch()
            defer { scratch.remove() }
            let login = try Self.login(fake, scratch)
            let authorization = try await login.begin()
            #expect(try login.store.registration(for: server) != nil)
            let code = try await Self.code(for: authorization)
            fake.enqueue(
                FakeMastodon.Canned(
                    method: "POST", pathPrefix: "/oauth/token", status: 401,
                    body: "{\"error\":\"invalid_client\",\"error_description\":\"Client authentication failed.\"}"
                )
            )
            let error = try #require(await Self.failure { _ = try await login.finish(authorization, code: code) })
            #expect(error.step == .token)
            #expect(error.reason == .clientRejected)
            #expect(try login.store.registration(for: server) == nil)
            #expect(try login.store.accounts().isEmpty)

            // The next sign-in registers afresh and succeeds.
            let again = try await login.begin()
            let account = try await login.finish(again, code: try await Self.code(for: again))
            #expect(account.handle == "@alice@\(server.authority)")
            #expect(fake.requests.filter { $0.path == "/api/v1/apps" }.count == 2)
        }
    }

    @Test("an account name no file can safely hold fails the check, and the token just issued is revoked")
    func unusableUsername() async throws {
        try await withFakeServer(token: nil) { fake, _ in
            fake.signInBrowser(as: "alice")
            let scratch = try Scratch()
            defer { scratch.remove() }
            let login = try Self.login(fake, scratch)
            let authorization = try await login.begin()
            let code = try await Self.code(for: authorization)
            fake.enqueue(
                FakeMastodon.Canned(
                    method: "GET", pathPrefix: "/api/v1/accounts/verify_credentials", status: 200,
                    body: "{\"id\":\"1\",\"username\":\"../../evil\",\"acct\":\"../../evil\",\"display_name\":\"\",\"created_at\":\"2024-01-01T00:00:00.000Z\",\"note\":\"\",\"url\":\"\(fake.baseURL)/@x\",\"avatar\":\"\",\"header\":\"\",\"followers_count\":0,\"following_count\":0,\"statuses_count\":0}"
                )
            )
            let error = try #require(await Self.failure { _ = try await login.finish(authorization, code: code) })
            #expect(error.step == .verification)
            #expect(error.reason == .unusableUsername("../../evil"))
            let token = try #require(fake.issuedTokens.first)
            #expect(fake.isRevoked(token))
            #expect(try login.store.accounts().isEmpty)
            #expect(!error.description.contains(token))
        }
    }

    @Test("a rate limit at registration says so, and a code of spaces is no code")
    func rateLimitAndBlankCode() async throws {
        try await withFakeServer(token: nil) { fake, _ in
            fake.signInBrowser(as: "alice")
            let scratch = try Scratch()
            defer { scratch.remove() }
            let login = try Self.login(fake, scratch)
            fake.fail("/api/v1/apps", method: "POST", status: 429, error: "Too many requests")
            let limited = try #require(await Self.failure { _ = try await login.begin() })
            #expect(limited.step == .registration)
            #expect(limited.reason == .rateLimited)
            #expect(limited.description.hasSuffix("the server is rate limiting requests; try again in a few minutes. No account was saved."))

            let authorization = try await login.begin()
            let blank = try #require(await Self.failure { _ = try await login.finish(authorization, code: "  \n") })
            #expect(blank.step == .code)
            #expect(blank.reason == .noCode)
            #expect(!fake.requests.contains { $0.path == "/oauth/token" })
        }
    }
}
