import Feedline
import Foundation
import Testing

/// `report` and `rules` over JSON-lines on the bundled sandbox: a report marks the post's rows
/// and the account at once and its `outcome` follows; rules come in the server's order with the
/// ids a report names; misuse is an error in words.
@MainActor
@Suite("JSON-lines reports")
struct JSONLReportTests {
    @Test("rules replies with the sandbox's rules; report marks the post on every row, then the outcome says done")
    func report() async throws {
        let client = try DriverConversation()
        await client.settle()
        var replies = await client.send(#"{"cmd":"rules","id":"r"}"#)
        #expect(replies.map(\.type) == ["rules", "ok"])
        let rules = try #require(replies.first?["rules"] as? [Message])
        #expect(rules.compactMap { $0["id"] as? String } == ["1", "2", "4"])
        let row = try #require(client.mirrors[0].rows.first { $0["kind"] as? String == "post" })
        let post = try #require(row["post"] as? String)
        let account = try #require((client.session.store.post(PostID(post))?.content.author.id))
        replies = await client.send(
            #"{"cmd":"report","account":"\#(account)","posts":["\#(post)"],"category":"violation","rules":["2"],"comment":"Ads","id":"p"}"#
        )
        #expect(replies.last?.type == "ok" && replies.last?.id == "p")
        await client.settle()
        let marked = client.mirrors[0].rows.first { $0["post"] as? String == post }
        #expect((marked?["reported"] as? Message)?["pending"] as? Bool == false)
        let outcome = try #require(client.messages.last { $0.type == "outcome" })
        #expect(outcome["result"] as? String == "done" && outcome.id == "p" && (outcome["subject"] as? Message)?["change"] as? String == "report")
        replies = await client.send(#"{"cmd":"report","account":"\#(account)","id":"again"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "You already reported the account \(account) this session.")
    }

    @Test("rules without a violation, a violation without rules and a report without an account are errors in words")
    func errors() async throws {
        let client = try DriverConversation()
        await client.settle()
        var replies = await client.send(#"{"cmd":"report","account":"1","category":"spam","rules":["2"]}"#)
        #expect(replies.first?["message"] as? String == #"report: "rules" go only with "category":"violation" (this report is spam)."#)
        replies = await client.send(#"{"cmd":"report","account":"1","category":"violation"}"#)
        #expect(replies.first?["message"] as? String == #"report: "category":"violation" names the rules broken in "rules" (their ids, as rules replies)."#)
        replies = await client.send(#"{"cmd":"report"}"#)
        #expect(replies.first?["message"] as? String == #"report needs "account": an account id string."#)
        replies = await client.send(#"{"cmd":"report","account":"1","category":"rude"}"#)
        #expect(replies.first?["message"] as? String == #"report: "category" is one of "spam", "legal", "violation", "other", not "rude"."#)
    }
}
