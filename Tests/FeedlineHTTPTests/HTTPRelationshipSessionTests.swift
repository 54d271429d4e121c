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
                "Done: muted @kemi@fieldnotes.science until ", "Block @kemi@fieldnotes.science? ", "Done: blocked @kemi@fieldnotes.science.",
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

    static let accountsScript = """
        search @lady@coast.example
        follow 1
        requests
        accept 1
        top
        block-domain 3 --yes
        domains
        quit
        """

    @Test("search resolves a remote handle and follows it from its row, accept answers a request, block-domain takes the domain's posts off home — each through its endpoint")
    func searchRequestsDomains() async throws {
        try await withFixtureServer { fake, _ in
            fake.addRemote([HTTPAccountListsTests.lady])
            fake.fill(.requests, with: [HTTPAccountListsTests.juniper])
            let scratch = try Scratch()
            defer { scratch.remove() }
            let script = scratch.file("accounts.feedline")
            try Data((Self.accountsScript + "\n").utf8).write(to: script)
            let arguments = ["--server", fake.baseURL, "--timeline", "home", "--script", script.path] + HTTPScriptedSessionTests.flags
            let (exit, stdout) = try await FeedlineProcess.run(arguments, environment: ["FEEDLINE_TOKEN": secretToken])
            #expect(!exit.timedOut && exit.status == 0, "\(exit.stderr)")
            let seen = fake.requests.map { "\($0.method) \($0.path)" }
            for request in [
                "GET /api/v2/search", "POST /api/v1/accounts/511/follow", "GET /api/v1/follow_requests",
                "POST /api/v1/follow_requests/500/authorize", "POST /api/v1/domain_blocks", "GET /api/v1/domain_blocks",
            ] {
                #expect(seen.contains(request), "the server never saw \(request): \(seen)")
            }
            #expect(fake.requests.first { $0.path == "/api/v2/search" }?.query["resolve"] == "true", "a handle is resolved")
            #expect(fake.relationship("511").following)
            #expect(fake.accountIDs(on: .requests).isEmpty)
            for text in [
                "The Bird Lady @lady@coast.example", "Done: following @lady@coast.example.",
                "Done: accepted @juniper's follow request; they follow you now.", "Done: blocked the domain",
            ] {
                #expect(stdout.contains(text), "no \"\(text)\" in:\n\(stdout)")
            }
            let blocked = try #require(fake.blockedDomains.first)
            // Home's rows after the block: none by an account of that domain.
            let home = stdout.components(separatedBy: "home> block-domain").dropFirst().first?.components(separatedBy: "> domains").first ?? ""
            let names = fake.knownAccounts().filter { $0.acct.hasSuffix("@" + blocked) }.map(\.displayName)
            #expect(!names.isEmpty)
            #expect(home.contains("removed: post by"), "the block took rows off home:\n\(home)")
            for name in names { #expect(!home.contains("  " + name + " ·"), "rows of \(name) (\(blocked)) still on home:\n\(home)") }
            #expect(stdout.contains("\(blocked) · blocked"), "the domains screen lists it:\n\(stdout)")
        }
    }
}

