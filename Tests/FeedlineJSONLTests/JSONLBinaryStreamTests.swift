import FeedlineTestSupport
import Foundation
import Testing

/// The sandbox scenario's stream through `feedline --jsonl`: every line is a command, so the
/// stream's `after_commands` count the `wait`s too (Fixtures/README.md lists the events).
extension JSONLBinaryTests {
    static let ruth = "117645328513148734"  // edited after the 4th command
    static let deletedPost = "117644283609620042"  // a Garden Bird Log post, deleted after the 6th

    @Test("live updates: new posts wait, an edit and a delete reach rows and detail, a reconnect catches up; changes alone rebuild the list")
    func stream() async throws {
        let client = try Conversation(["--jsonl", "--now", "2026-11-21T18:00:00Z"])
        // What the stream does after command N is pushed after N's ok: it shows in N+1's reply.
        let opening = await client.settle()  // 1
        #expect(opening.contains { $0.type == "stream" && $0["state"] as? String == "live" })
        #expect(client.rowIDs.count == 20 && client.rowIDs.contains("post:\(Self.deletedPost)"))
        let before = client.rowIDs
        await client.settle()  // 2: two posts arrive after it

        // They wait above, and no row moves.
        let opened = await client.command(#"{"cmd":"open","post":"\#(Self.ruth)","id":"o"}"#, id: "o")  // 3
        #expect(opened.compactMap { ($0["status"] as? Message)?["waiting"] as? Int } == [1, 2])
        #expect(client.rowIDs == before)
        await client.settle()  // 4: Ruth's post is edited after it

        // The open detail and her row both show the edit.
        let edit = await client.command(#"{"cmd":"back","id":"b"}"#, id: "b")  // 5
        let detail = try #require(edit.last { $0.type == "detail" }?["content"] as? Message)
        #expect((detail["text"] as? String)?.contains("she won again") == true)
        #expect(detail["editedAt"] as? String == "2026-11-21T17:58:00Z")
        let row = try #require(client.mirror.rows.first { $0["post"] as? String == Self.ruth })
        #expect((row["text"] as? String)?.contains("she won again") == true)
        #expect(row["editedAt"] as? String == "2026-11-21T17:58:00Z")
        await client.settle()  // 6: a post of the first page is deleted after it

        // Its row leaves and nothing else moves; showWaiting then puts the two new posts on top.
        let shown = await client.command(#"{"cmd":"showWaiting","id":"w"}"#, id: "w")  // 7
        #expect(shown.first { $0.type == "changes" }?["deleted"] as? [Int] == [before.firstIndex(of: "post:\(Self.deletedPost)") ?? -1])
        let remaining = before.filter { $0 != "post:\(Self.deletedPost)" }
        #expect(client.rowIDs.count == 21)
        #expect(Array(client.rowIDs.dropFirst(2)) == remaining)
        let nothing = await client.command(#"{"cmd":"showWaiting","id":"w2"}"#, id: "w2")  // 8
        #expect(nothing.last?["message"] as? String == "Nothing waits above screen 0.")

        // The stream drops after the 9th, a post comes while it is down after the 10th, and it is
        // back after the 12th: the catch-up finds that post, waiting above.
        var down: [Message] = []
        for _ in 9...13 { down += await client.settle() }
        let states = down.filter { $0.type == "stream" }.compactMap { $0["state"] as? String }
        #expect(states == ["reconnecting", "live"])
        #expect(down.contains { ($0["status"] as? Message)?["loading"] as? String == "catchUp" })
        #expect(down.compactMap { ($0["status"] as? Message)?["waiting"] as? Int }.last == 1)
        #expect(client.rowIDs.count == 21)
        await client.command(#"{"cmd":"showWaiting","id":"w3"}"#, id: "w3")
        await client.settle()
        #expect(client.rowIDs.count == 22)
        #expect(Array(client.rowIDs.dropFirst(3)) == remaining)

        // The mirror, built only from changes, equals a fresh snapshot; no post shows twice.
        let snapshot = await client.command(#"{"cmd":"timeline","id":"final"}"#, id: "final")
        let rows = try #require(snapshot.first { $0.type == "timeline" && $0.id == "final" }?["rows"] as? [Message])
        #expect(client.mirrors.problems.isEmpty, "\(client.mirrors.problems)")
        #expect(firstDifference(client.mirror.rows, rows) == nil)
        let posts = rows.compactMap { $0["post"] as? String }
        #expect(Set(posts).count == posts.count)
        #expect(!posts.contains(Self.deletedPost))

        let bye = await client.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        #expect(bye.last?.type == "ok")
        await client.read { $0.type == "bye" }
        let exit = await client.child.finish()
        #expect(exit.status == 0 && !exit.timedOut)
        #expect(client.strayLines.isEmpty, "not JSON objects: \(client.strayLines)")
    }
}
