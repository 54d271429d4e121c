import FeedlineTestSupport
import Foundation
import Testing

/// `account NAME` in the built binary, with two accounts stored (by `feedline login`) in a
/// scratch `XDG_CONFIG_HOME`, each on its own fake server: the session goes on with the other
/// account's home, the prompt names the account, each account keeps its own state file and
/// drafts, and names that are unknown or ambiguous are refused with a sentence.
@MainActor
@Suite("Switching accounts inside a session", .timeLimit(.minutes(10)))
struct HTTPAccountSwitchTests {
    static let flags = ["--now", "2026-11-21T18:00:00Z", "--width", "80", "--no-stream"]

    /// Two fakes, alice signed in on the first and bob on the second (bob last: the default).
    static func withTwoAccounts(
        _ body: (_ home: LoginHome, _ alice: (FakeMastodon, String), _ bob: (FakeMastodon, String)) async throws -> Void
    ) async throws {
        let timeline = try FixtureStatuses.timeline()
        try await withFakeServer(statuses: timeline, token: nil) { first, _ in
            try await withFakeServer(statuses: Array(timeline.dropFirst(3)), token: nil) { second, _ in
                first.signInBrowser(as: "alice")
                second.signInBrowser(as: "bob")
                let home = try LoginHome()
                #expect(try await home.login(first.baseURL).status == 0)
                #expect(try await home.login(second.baseURL).status == 0)
                let alice = "alice@127.0.0.1:\(first.baseURL.split(separator: ":").last ?? "")"
                let bob = "bob@127.0.0.1:\(second.baseURL.split(separator: ":").last ?? "")"
                try await body(home, (first, alice), (second, bob))
            }
        }
    }

    @Test("account NAME: the other account's home, the prompt names it, a draft stays with its account, one state file each")
    func switchAndBack() async throws {
        try await Self.withTwoAccounts { home, alice, bob in
            let state = home.scratch.url.appendingPathComponent("state")
            let input = """
                account
                post
                a draft of bob's
                .back
                account alice
                drafts
                account \(bob.1.prefix(5))
                drafts
                quit

                """
            let aliceHomeBefore = alice.0.requests.filter { $0.path == "/api/v1/timelines/home" }.count
            // `post` alone asks for the default visibility; the fake has none to give.
            bob.0.fail("/api/v1/preferences", status: 404)
            let run = try await home.run(Self.flags + ["--state", state.path], stdin: input)
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.isEmpty, "\(run)")
            let out = run.stdout
            // The list marks the current account; the prompts name the account.
            #expect(out.contains("  \(alice.1)\n* \(bob.1)\n"), "\(out)")
            #expect(out.contains("\(bob.1) home> account alice\n"), "\(out)")
            #expect(out.contains("\(alice.1) home> drafts\n"), "\(out)")
            #expect(out.contains("Feedline: the home timeline of \(alice.1.split(separator: "@").last ?? "") as @\(alice.1)."), "\(out)")
            // alice's home was read with alice's token.
            #expect(alice.0.requests.filter { $0.path == "/api/v1/timelines/home" }.count > aliceHomeBefore)
            // The draft stays with bob.
            let segments = out.components(separatedBy: "home> drafts\n")
            #expect(segments.count == 3, "\(out)")
            if segments.count == 3 {
                #expect(!segments[1].contains("a draft of bob's"), "\(out)")
                #expect(segments[2].contains("a draft of bob's"), "\(out)")
            }
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []).filter { $0.hasSuffix(".sqlite") }.sorted()
            #expect(files.count == 2 && files.contains { $0.contains("@alice@") } && files.contains { $0.contains("@bob@") }, "\(files)")
        }
    }

    @Test("a favourite not sent stays queued with its account (said in one line) and is sent when that account is opened again")
    func unsentStaysWithItsAccount() async throws {
        try await Self.withTwoAccounts { home, alice, bob in
            let state = home.scratch.url.appendingPathComponent("state")
            alice.0.enqueue(.init(method: "POST", pathPrefix: "/api/v1/statuses/", status: 500, body: "{\"error\":\"Internal error\"}"))
            let run = try await home.run(
                Self.flags + ["--state", state.path, "--account", alice.1], stdin: "fav 1\naccount bob\naccount alice\nquit\n"
            )
            #expect(run.status == 0, "\(run)")
            let said = run.stdout.replacingOccurrences(of: "\n", with: " ")
            #expect(said.contains("home> account bob Not sent yet: your favourite of "), "\(run.stdout)")
            #expect(said.contains(". It is sent when \(alice.1) is opened again. Feedline: the home timeline of"), "\(run.stdout)")
            let favourites = alice.0.requests.filter { $0.method == "POST" && $0.path.hasSuffix("/favourite") }
            #expect(favourites.count == 2, "sent, refused with 500, and sent again when alice was opened again: \(run.stdout)")
            #expect(Set(favourites.map(\.path)).count == 1)
            #expect(!bob.0.requests.contains { $0.method == "POST" && $0.path.hasPrefix("/api/v1/statuses") }, "nothing of alice's goes to bob's server")
        }
    }

    @Test("an unknown name is one sentence and the session stays; a token given by hand does not switch")
    func refusals() async throws {
        try await Self.withTwoAccounts { home, alice, bob in
            let run = try await home.run(Self.flags + ["--no-state", "--width", "200"], stdin: "account carol\nwhere\nquit\n")
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains(
                "\(bob.1) home> account carol\nNo account \"carol\" is signed in; the signed-in accounts are \(alice.1), \(bob.1) (account lists them).\n\(bob.1) home> where\n"
            ), "\(run)")
            let byHand = try await home.run(Self.flags + ["--no-state", "--width", "200"], stdin: "account alice\nquit\n", environment: ["FEEDLINE_TOKEN": "by-hand"])
            #expect(byHand.stdout.contains("home> account alice\nThis session's token comes from FEEDLINE_TOKEN, which wins over stored accounts: account NAME switches only without it.\n"), "\(byHand)")
        }
    }

    @Test("JSON-lines switchAccount: ok, bye for the account left, then hello and the new account's home; unknown and ambiguous names are errors")
    func jsonLines() async throws {
        try await Self.withTwoAccounts { home, alice, bob in
            let input = [
                #"{"cmd":"switchAccount","account":"carol","id":1}"#, #"{"cmd":"switchAccount","account":"b","id":2}"#,
                #"{"cmd":"wait","id":3}"#, #"{"cmd":"switchAccount","account":"alice","id":4}"#, #"{"cmd":"wait","id":5}"#, #"{"cmd":"quit"}"#,
            ].joined(separator: "\n") + "\n"
            let before = alice.0.requests.count
            let run = try await home.run(["--jsonl", "--no-state"] + Self.flags, stdin: input)
            #expect(run.status == 0, "\(run)")
            let types = run.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let data = String(line).data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
                return (object["type"] as? String).map { type in type + ((object["id"] as? Int).map { ":\($0)" } ?? "") }
            }
            #expect(types.filter { $0 == "hello" }.count == 2, "\(types)")
            #expect(types.filter { $0 == "bye" }.count == 2, "\(types)")
            // carol: unknown; b: bob, the account in use.
            #expect(types.contains("error:1") && types.contains("error:2"), "\(types)")
            #expect(run.stdout.contains("You are \(bob.1) already."), "\(run.stdout)")
            // ok, then bye for bob, then hello for alice.
            if let ok = types.firstIndex(of: "ok:4") {
                #expect(Array(types[(ok + 1)...].prefix(2)) == ["bye", "hello"], "\(types)")
            } else {
                Issue.record("no ok for switchAccount: \(types)")
            }
            #expect(alice.0.requests.dropFirst(before).contains { $0.path == "/api/v1/timelines/home" })
        }
    }

    @Test("on a terminal: Tab completes the name, the switch keeps the console (prompt, history, line editing) and the terminal is restored")
    func terminal() async throws {
        try await Self.withTwoAccounts { home, alice, bob in
            let result = try await PtyScript.run("repl-pty-smoke.py", ["account-switch", home.scratch.url.path, alice.1, bob.1])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.hasSuffix("ok\n"), "\(result.output)")
        }
    }
}
