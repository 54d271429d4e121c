import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The built `feedline` binary follows, mutes and blocks against the fake Mastodon server: the
/// profile's header and relationship come from the server, each command reaches its endpoint,
/// and a mute takes the account's posts off home at once.
@Suite("Relationships over HTTP through the binary", .timeLimit(.minutes(10)))
struct HTTPRelationshipSessionTests {
    static let script = """
        profile @kemi@fieldnotes.science
        follow
        mute --for 1d
        back
        list
        unmute 1
        profile @kemi@fieldnotes.science
        block
        block --yes
        quit
        """

    @Test("profile header, follow, mute (her posts leave home), block after asking — each through its endpoint")
    func followMuteBlock() async throws {
        try await withFixtureServer { fake, _ in
            let scratch = try Scratch()
            defer { scratch.remove() }
            let script = scratch.file("relationships.feedline")
            try Data((Self.script + "\n").utf8).write(to: script)
            let arguments = ["--server", fake.baseURL, "--timeline", "home", "--script", script.path] + HTTPScriptedSessionTests.flags
            let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(!exit.timedOut && exit.status == 0, "\(exit.stderr)")
            let kemi = try #require(fake.knownAccounts().first { $0.acct == FixtureStatuses.kemi })
            let seen = fake.requests.map { "\($0.method) \($0.path)" }
            for request in [
                "GET /api/v1/accounts/relationships", "POST /api/v1/accounts/\(kemi.id)/follow",
                "POST /api/v1/accounts/\(kemi.id)/mute", "POST /api/v1/accounts/\(kemi.id)/block",
            ] {
                #expect(seen.contains(request), "the server never saw \(request): \(seen)")
            }
            // `unmute 1` on home names row 1's author, who is not Kemi any more: her rows left.
            #expect(!seen.contains("POST /api/v1/accounts/\(kemi.id)/unmute"))
            #expect(fake.relationship(kemi.id).blocking)
            #expect(!fake.relationship(kemi.id).following, "a block ends the follow")
            for text in [
                "Dr. Kemi Adeyemi @kemi@fieldnotes.science", "Done: following @kemi@fieldnotes.science.",
                "Done: muted @kemi@fieldnotes.science.", "Block @kemi@fieldnotes.science? ", "Done: blocked @kemi@fieldnotes.science.",
            ] {
                #expect(stdout.contains(text), "no \"\(text)\" in:\n\(stdout)")
            }
            // After the mute, home's rows are no one's but others'.
            let home = stdout.components(separatedBy: "home> list").dropFirst().first ?? ""
            let rows = home.components(separatedBy: "home> unmute").first ?? ""
            #expect(!rows.contains("Dr. Kemi Adeyemi"), "Kemi's posts still on home:\n\(rows)")
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }
}
