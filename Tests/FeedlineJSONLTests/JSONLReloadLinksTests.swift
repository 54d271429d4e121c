import FeedlineTestSupport
import Foundation
import Testing

/// `reload` and a post's addresses in the JSON-lines protocol, through the binary.
@MainActor
@Suite("feedline --jsonl reload and links", .timeLimit(.minutes(10)))
struct JSONLReloadLinksTests {
    @Test("reload loads a screen again from its top: status loading reload, then the first page replaces the rows (a mirror of the changes stays exact)")
    func reload() async throws {
        let client = try Conversation(JSONLBinaryTests.flags)
        await client.settle()
        await client.command(#"{"cmd":"loadMore","id":"m"}"#, id: "m")
        await client.settle()
        #expect(client.rowIDs.count == 40)
        let replies = await client.command(#"{"cmd":"reload","id":"r"}"#, id: "r")
        #expect(replies.contains { $0.type == "changes" && ($0["status"] as? [String: Any])?["loading"] as? String == "reload" })
        #expect(replies.last?.type == "ok")
        await client.settle()
        #expect(client.rowIDs.count == 20, "the first page again")
        #expect(client.mirror.problems.isEmpty)
        #expect(client.messages.last { $0.type == "changes" }.flatMap { ($0["status"] as? [String: Any])?["loading"] } is NSNull)
    }

    @Test("a post's payload carries its web address (url) and what it links to (links, numbered from 1 as link N numbers them)")
    func urlAndLinks() async throws {
        let client = try Conversation(JSONLBinaryTests.flags)
        await client.settle()
        let first = try #require(client.mirror.rows.first)
        #expect(first["url"] as? String == "https://inkwell.art/@sam/117645532415779633")
        let links = try #require(first["links"] as? [[String: Any]])
        #expect(links.count == 1)
        #expect(links.first?["kind"] as? String == "media")
        #expect((links.first?["url"] as? String)?.hasPrefix("https://files.tidepool.social/") == true)
        #expect((links.first?["media"] as? String)?.hasPrefix("[image: Pencil sketches") == true)
        // A post whose text links somewhere lists that link (older pages have some).
        func linking() -> [String: Any]? {
            client.mirror.rows.first { row in (row["links"] as? [[String: Any]])?.contains { $0["kind"] as? String == "link" } == true }
        }
        for page in 0..<4 where linking() == nil {
            await client.command(#"{"cmd":"loadMore","id":"m\#(page)"}"#, id: "m\(page)")
            await client.settle()
        }
        let link = try #require(linking()?["links"] as? [[String: Any]])
        #expect((link.first { $0["kind"] as? String == "link" }?["url"] as? String)?.hasPrefix("https://") == true)
    }
}
