import FeedlineTestSupport
import Foundation
import Testing

/// Quote posts through the binary on the bundled sandbox: a quoting row carries the quoted post
/// (its content and its own interaction state), a quote that is not shown says why, and a
/// favourite made on the quoted post by its id updates the quoting row.
@MainActor
@Suite("JSON-lines quote posts through the binary")
struct JSONLQuotesTests {
    static let hugoQuote = "117638440000000001"
    static let priya = "117632273937832734"

    /// The messages of `lines`, parsed.
    static func messages(_ stdout: Data) -> [[String: Any]] {
        String(decoding: stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The quotes of the row `post:id`, in order: in `timeline` messages and the rows `changes` inserts or updates.
    static func quotes(of id: String, in messages: [[String: Any]]) -> [[String: Any]] {
        messages.flatMap { message -> [[String: Any]] in
            let changed = ((message["inserted"] as? [[String: Any]]) ?? []) + ((message["updated"] as? [[String: Any]]) ?? [])
            let rows = (message["rows"] as? [[String: Any]]) ?? changed.compactMap { $0["row"] as? [String: Any] }
            return rows.filter { $0["id"] as? String == "post:\(id)" }.compactMap { $0["quote"] as? [String: Any] }
        }
    }

    @Test("a quoting row carries the quoted post and its own state; a favourite of the quoted post by id updates it; a pending quote says why")
    func quoteRows() async throws {
        let child = try FeedlineProcess(["--jsonl", "--no-stream", "--now", "2026-11-21T18:00:00Z", "--posts-per-page", "20"])
        child.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:@hugo@kettle.town"},"id":1}"#)
        child.send(#"{"cmd":"wait","id":2}"#)
        child.send(#"{"cmd":"favourite","post":"\#(Self.priya)","id":3}"#)
        child.send(#"{"cmd":"wait","id":4}"#)
        child.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:@nadia"},"id":5}"#)
        child.send(#"{"cmd":"wait","id":6}"#)
        child.closeInput()
        let exit = await child.finish()
        #expect(exit.status == 0)
        let messages = Self.messages(child.stdout)
        let quotes = Self.quotes(of: Self.hugoQuote, in: messages)
        let first = try #require(quotes.first)
        #expect(first["state"] as? String == "accepted")
        #expect(first["post"] as? String == Self.priya)
        #expect(first["shown"] as? String == "shown")
        #expect(first["favourited"] as? Bool == false)
        #expect(first["favourites"] as? Int == 612)
        let content = try #require(first["content"] as? [String: Any])
        #expect((content["author"] as? [String: Any])?["handle"] as? String == "@priya@foss.community")
        let last = try #require(quotes.last)
        #expect(last["favourited"] as? Bool == true, "the favourite made on the quoted post shows inside the quote")
        #expect(last["favourites"] as? Int == 613)
        let pending = try #require(Self.quotes(of: "117638450000000002", in: messages).first)
        #expect(pending["state"] as? String == "pending")
        #expect(pending["shown"] as? String == "unavailable")
        #expect(pending["reason"] as? String == "quote pending approval")
        #expect(pending["content"] is NSNull)
    }
}
