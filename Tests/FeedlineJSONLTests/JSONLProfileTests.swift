@_spi(FeedService) import Feedline
import FeedlineJSONL
import Foundation
import Testing

/// Your profile over JSON-lines on the bundled sandbox: `editProfile` changes the sandbox's own
/// account — your name on your posts at once on every screen — and its `outcome` says what the
/// server did; a refusal is the server's sentence, a bad field an `error` line.
@MainActor
@Suite("JSON-lines profile")
struct JSONLProfileTests {
    /// The name each post row by you shows on the screen on top (your profile).
    static func names(_ client: DriverConversation) -> Set<String> {
        guard let rows = client.session.navigator.screens.last?.list?.rows else { return [] }
        return Set(rows.compactMap { (row: ListRow) in row.post?.post }.filter { $0.author.handle == "you" }.map { $0.author.displayName })
    }

    @Test("editProfile shows at once on your posts and is answered; too long a name is refused with the server's sentence")
    func edit() async throws {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:@you"}}"#)
        await client.settle()
        #expect(Self.names(client) == ["You"])
        var replies = await client.send(#"{"cmd":"editProfile","id":"p","name":"You, by the pond","fields":[{"name":"Pronouns","value":"they/them"}],"locked":true}"#)
        #expect(replies.last?.type == "ok")
        replies = await client.settle()
        let outcome = try #require(replies.last { $0.type == "outcome" })
        #expect(outcome["id"] as? String == "p" && outcome["result"] as? String == "done")
        #expect((outcome["subject"] as? [String: Any])?["change"] as? String == "profile")
        #expect(Self.names(client) == ["You, by the pond"])
        #expect(client.session.shownOwnProfile?.fields == [Profile.Field(name: "Pronouns", value: "they/them")])

        await client.send(#"{"cmd":"editProfile","id":"q","name":"A name far longer than thirty characters"}"#)
        replies = await client.settle()
        let refused = try #require(replies.last { $0.type == "outcome" })
        #expect(refused["result"] as? String == "refused")
        #expect(refused["sentence"] as? String == "Validation failed: Display name is too long (maximum is 30 characters)")
        #expect(Self.names(client) == ["You, by the pond"])
    }

    @Test("a field of the wrong type, or nothing to change, is an error line at once")
    func badFields() async throws {
        let client = try DriverConversation()
        var replies = await client.send(#"{"cmd":"editProfile","id":"a","locked":"yes"}"#)
        #expect((replies.last?["message"] as? String)?.hasPrefix("editProfile: \"locked\" is true or false. editProfile takes \"name\"") == true)
        replies = await client.send(#"{"cmd":"editProfile","id":"b"}"#)
        #expect(replies.last?.type == "error")
        replies = await client.send(#"{"cmd":"editProfile","id":"c","fields":[{"name":"x"}]}"#)
        #expect(replies.last?["message"] as? String == "editProfile: each of \"fields\" is {\"name\":…,\"value\":…} with two strings.")
    }
}
