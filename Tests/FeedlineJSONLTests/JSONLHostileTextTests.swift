import Feedline
import FeedlineJSONL
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// The JSON-lines encoder escapes what a hostile server sends: every screen of a sandbox whose
/// strings are made of escape sequences, C0 and C1 controls, line separators, bidirectional
/// controls and invisible characters (``HostileFixture``, seeded) writes lines that hold none of
/// them raw, each one JSON object on one line that decodes back to what was sent.
@MainActor
@Suite("JSON-lines hostile server text", .timeLimit(.minutes(10)))
struct JSONLHostileTextTests {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)

    /// Commands that push every kind of screen of the fixture.
    static func commands(posts: [String], accounts: [String], tag: String) -> [String] {
        var lines: [String] = []
        for post in posts {
            lines += [#"{"cmd":"open","post":"\#(post)"}"#, #"{"cmd":"wait"}"#, #"{"cmd":"pop"}"#]
            lines += [#"{"cmd":"push","route":{"route":"thread","post":"\#(post)"}}"#, #"{"cmd":"wait"}"#, #"{"cmd":"pop"}"#]
        }
        for account in accounts {
            lines += [#"{"cmd":"push","route":{"route":"feed","feed":"account:\#(account)"}}"#, #"{"cmd":"wait"}"#, #"{"cmd":"pop"}"#]
            lines += [#"{"cmd":"push","route":{"route":"accounts","list":"followers:\#(account)"}}"#, #"{"cmd":"wait"}"#, #"{"cmd":"pop"}"#]
        }
        for route in [
            #"{"route":"notifications"}"#, #"{"route":"conversations"}"#, #"{"route":"lists"}"#, #"{"route":"followedTags"}"#,
            #"{"route":"trendingTags"}"#, #"{"route":"search","query":"u1"}"#, #"{"route":"domainBlocks"}"#,
        ] {
            lines += [#"{"cmd":"push","route":\#(route)}"#, #"{"cmd":"wait"}"#, #"{"cmd":"pop"}"#]
        }
        lines += [#"{"cmd":"block","account":"\#(accounts[0])"}"#, #"{"cmd":"wait"}"#, #"{"cmd":"quit"}"#]
        return lines
    }

    @Test("every message of a hostile server's screens is one line with no control, bidirectional or invisible character raw (seeded)")
    func walk() async throws {
        let seed = testSeed(0x15_0A_4E)
        print("JSONLHostileTextTests seed \(seed) (FEEDLINE_SEED replays it)")
        for round in 0..<6 {
            var random = SeededGenerator(seed: seed &+ UInt64(round))
            let scratch = try Scratch()
            defer { scratch.remove() }
            let fixture = try HostileFixture.write(to: scratch.url, random: &random)
            let service = try SandboxService(fixture: try FixtureLoader.load(from: scratch.url), clock: VirtualClock(), wallClock: .fixed(Self.now))
            let client = DriverClient(service, now: Self.now)
            await client.start()
            // The posts and accounts as the client learns them: from the home timeline's rows.
            let rows = (client.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["type"] as? String == "changes" || $0["type"] as? String == "timeline" })
                .flatMap { ($0["rows"] as? [[String: Any]] ?? []) + (($0["inserted"] as? [[String: Any]] ?? []).compactMap { $0["row"] as? [String: Any] }) }
            let posts = Set(rows.compactMap { ($0["id"] as? String).flatMap { $0.hasPrefix("post:") ? String($0.dropFirst(5)) : nil } }).sorted()
            let accounts = ["100", "101", "102", "103"]
            #expect(posts.count >= fixture.posts - 1, "seed \(seed) round \(round): the home timeline's posts")
            for line in Self.commands(posts: posts, accounts: accounts, tag: fixture.tag) { await client.send(line) }
            for (number, line) in client.lines.enumerated() {
                let found = HostileFixture.forbidden(in: line, allowingLineFeeds: false)
                #expect(found.isEmpty, "seed \(seed) round \(round) line \(number + 1): \(found.map { String($0.value, radix: 16) }) in \(line.debugDescription)")
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "seed \(seed) round \(round) line \(number + 1) is one JSON object")
                if !found.isEmpty { return }
            }
            let profiles = client.written("profile")
            #expect(profiles.contains { $0.contains(#""movedTo":"#) && !$0.contains(#""movedTo":null"#) }, "seed \(seed) round \(round): the moved account's profile")
        }
    }

    @Test("a string's C0 and C1 controls, separators, bidirectional and invisible characters are escaped, and decode back to it")
    func escaping() throws {
        let text = "a\u{1B}]52;c;eA==\u{07}\u{85}\u{9B}\u{7F}\u{2028}\u{202E}\u{200B}\u{E0041}👩‍💻\n\t\"\\"
        let json = JSONLValue.object([("text", .string(text))]).json
        #expect(json == #"{"text":"a\u001b]52;c;eA==\u0007\u0085\u009b\u007f\u2028\u202e\u200b\udb40\udc41👩\u200d💻\n\t\"\\"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded?["text"] == text)
    }
}
