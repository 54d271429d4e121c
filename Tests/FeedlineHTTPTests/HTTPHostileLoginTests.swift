import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// `feedline login` quotes what the server said — the username it named, the error it sent —
/// and prints it through the one sanitiser: a server cannot write the terminal's title or
/// clipboard through a sign-in's sentence.
@MainActor
@Suite("Signing in to a hostile server", .timeLimit(.minutes(10)))
struct HTTPHostileLoginTests {
    static let hostile = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;title\u{07}\u{9B}2J\u{202E}ada\u{200B}"

    @Test("a username full of escape sequences is refused in a sentence that holds none of them")
    func hostileUsername() async throws {
        try await HTTPLoginTests.withOAuthServer(user: "eve" + Self.hostile) { fake in
            let home = try LoginHome()
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(run.stderr.contains("which cannot be stored safely"), "\(run.stderr.debugDescription)")
            #expect(HostileFixture.forbidden(in: run.stdout + run.stderr).isEmpty, "\((run.stdout + run.stderr).debugDescription)")
        }
    }

    @Test("an error body full of escape sequences is quoted without them")
    func hostileError() async throws {
        try await HTTPLoginTests.withOAuthServer { fake in
            let home = try LoginHome()
            fake.fail("/api/v1/accounts/verify_credentials", method: "GET", status: 500, error: "Broken" + Self.hostile)
            let run = try await home.login(fake.baseURL)
            #expect(run.status == 1)
            #expect(run.stderr.contains("failed while checking the new token"), "\(run.stderr.debugDescription)")
            #expect(HostileFixture.forbidden(in: run.stdout + run.stderr).isEmpty, "\((run.stdout + run.stderr).debugDescription)")
        }
    }
}
