import FeedlineTestSupport
import Foundation
import Testing

/// `switchAccount` on the sandbox through the built binary: the bundled sandbox's second
/// identity, kemi, is switched to and back as a stored account is.
@MainActor
@Suite("feedline --jsonl: switchAccount on the sandbox", .timeLimit(.minutes(10)))
struct JSONLSandboxSwitchTests {
    static let flags = ["--jsonl", "--no-stream", "--no-state", "--now", "2026-11-21T18:00:00Z"]

    @Test("unknown and in-use names are errors; kemi: ok, bye, then hello and her home; you: back")
    func switchesIdentity() async throws {
        let client = try Conversation(Self.flags)
        await client.settle()
        let carol = await client.command(#"{"cmd":"switchAccount","account":"carol","id":"c"}"#, id: "c")
        #expect(carol.last?.type == "error")
        #expect(carol.last?["message"] as? String == "The sandbox has no identity \"carol\"; its identities are you, kemi (account lists them).")
        let own = await client.command(#"{"cmd":"switchAccount","account":"you","id":"y"}"#, id: "y")
        #expect(own.last?["message"] as? String == "You are you already.")

        let before = client.messages.count
        await client.command(#"{"cmd":"switchAccount","account":"kemi","id":"k"}"#, id: "k")
        await client.settle()
        let after = Array(client.messages[before...])
        let types = after.compactMap(\.type)
        if let ok = types.firstIndex(of: "ok") {
            #expect(Array(types[(ok + 1)...].prefix(2)) == ["bye", "hello"], "\(types)")
        } else {
            Issue.record("no ok for switchAccount: \(types)")
        }
        let text = after.compactMap(canonical).joined(separator: "\n")
        #expect(text.contains("117655900000000004"), "her home's newest post (Inês's larvae) is listed")
        #expect(!text.contains("117645532415752138"), "your home's (Sam's herons) is not")

        await client.command(#"{"cmd":"switchAccount","account":"you","id":"back"}"#, id: "back")
        let home = await client.settle().compactMap(canonical).joined(separator: "\n")
        #expect(home.contains("117645532415752138"), "back on your home")
        client.send(#"{"cmd":"quit"}"#)
        let exit = await client.child.finish()
        #expect(exit.status == 0 && exit.stderr.isEmpty, "\(exit.stderr)")
        #expect(client.strayLines.isEmpty)
    }

    @Test("an identity whose directory is missing: ok, an error saying why, and no bye: the session goes on, its draft there")
    func missingIdentity() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fixtures = try scratch.sandbox("ghostly", scenario: #"{"identities": [{"name": "ghost", "fixtures": "identities/ghost"}]}"#)
        let client = try Conversation(["--jsonl", "--no-stream", "--no-state", "--fixtures", fixtures.path])
        await client.settle()
        await client.command(#"{"cmd":"draft","text":"A draft of yours.","id":"d"}"#, id: "d")
        let before = client.messages.count
        await client.command(#"{"cmd":"switchAccount","account":"ghost","id":"g"}"#, id: "g")
        await client.settle()
        let after = Array(client.messages[before...])
        let types = after.compactMap(\.type)
        #expect(Array(types.prefix(2)) == ["ok", "error"] && !types.contains("bye") && !types.contains("hello"), "\(types)")
        #expect(after.dropFirst().first?["message"] as? String == "The fixture directory \(fixtures.path)/identities/ghost does not exist.", "\(after)")
        let drafts = await client.command(#"{"cmd":"drafts","id":"l"}"#, id: "l")
        #expect(drafts.contains { ($0["drafts"] as? [Any])?.isEmpty == false }, "\(drafts)")
        client.send(#"{"cmd":"quit"}"#)
        let exit = await client.child.finish()
        #expect(exit.status == 0, "\(exit.stderr)")
        #expect(client.strayLines.isEmpty)
    }
}
