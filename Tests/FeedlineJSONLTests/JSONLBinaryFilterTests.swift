import FeedlineTestSupport
import Foundation
import Testing

/// Server filters through `feedline --jsonl` on `Fixtures/filters` (see Scripts/make-filters-fixture.py).
extension JSONLBinaryTests {
    static let storytime = "117645328513148734"  // "Spoilers": warn in home and thread
    static let filmPost = "117644995892294069"  // "Film talk": hidden in home

    @Test("filtered posts: hidden ones are not rows, a warned one carries its filter until show reveals it on the row and the detail")
    func filters() async throws {
        let client = try Conversation(["--jsonl", "--fixtures", "Fixtures/filters", "--now", "2026-11-21T18:00:00Z"])
        await client.settle()
        let posts = client.mirror.rows.compactMap { $0["post"] as? String }
        #expect(!posts.contains(Self.filmPost))
        #expect(posts.count == 4, "the first page of 5 without the hidden one")
        // Page 2 is all hidden: page 3 comes by itself.
        await client.command(#"{"cmd":"loadMore","id":"m"}"#, id: "m")
        await client.settle()
        #expect(client.mirror.rows.count == 9)
        let warned = try #require(client.mirror.rows.first { $0["post"] as? String == Self.storytime })
        #expect((warned["filtered"] as? Message)?["title"] as? String == "Spoilers")
        #expect((warned["filtered"] as? Message)?["action"] as? String == "warn")

        let opened = await client.command(#"{"cmd":"open","post":"\#(Self.storytime)","id":"o"}"#, id: "o")
        #expect((opened.first { $0.type == "detail" }?["filtered"] as? Message)?["title"] as? String == "Spoilers")
        let shown = await client.command(#"{"cmd":"show","post":"\#(Self.storytime)","id":"s"}"#, id: "s")
        #expect(shown.contains { $0.type == "detail" && $0["filtered"] == nil })
        await client.command(#"{"cmd":"back","id":"b"}"#, id: "b")
        let row = try #require(client.mirror.rows.first { $0["post"] as? String == Self.storytime })
        #expect(row["filtered"] == nil, "the row follows the detail's reveal")

        let again = await client.command(#"{"cmd":"show","post":"\#(Self.storytime)","id":"s2"}"#, id: "s2")
        #expect(again.last?["message"] as? String == "No filter hides anything of post \(Self.storytime).")
        let hidden = await client.command(#"{"cmd":"show","post":"\#(Self.filmPost)","id":"s3"}"#, id: "s3")
        #expect(hidden.last?["message"] as? String == "Unknown post \(Self.filmPost): no screen on the stack shows it.")
        #expect(client.mirrors.problems.isEmpty, "\(client.mirrors.problems)")
        await client.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        let exit = await client.child.finish()
        #expect(exit.status == 0 && !exit.timedOut)
    }
}
