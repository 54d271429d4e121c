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
}
