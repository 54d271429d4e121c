import Feedline
import Foundation
import Testing

/// `translate` and `original` over JSON-lines on the bundled sandbox: the reply waits for the
/// server; every screen's copy of the post carries `translation`; a post the sandbox has no
/// translation of is an error with its sentence; `original` takes it off again.
@MainActor
@Suite("JSON-lines translations")
struct JSONLTranslationTests {
    /// Jonas's German post on home, which the sandbox's fixtures translate.
    static let german = "117644521228740549"

    @Test("translate shows the translation on every screen's copy of the post, then original takes it off")
    func translate() async throws {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"post","id":"\#(Self.german)"}}"#)
        await client.settle()
        var replies = await client.send(#"{"cmd":"translate","post":"\#(Self.german)","id":"t"}"#)
        #expect(replies.last?.type == "ok" && replies.last?.id == "t")
        let outcome = try #require(replies.first { $0.type == "outcome" })
        #expect(outcome["result"] as? String == "done" && outcome.id == "t")
        let shown = try #require(replies.last { $0.type == "post" && $0["post"] as? String == Self.german }?["translation"] as? Message)
        #expect(shown["state"] as? String == "shown" && shown["from"] as? String == "de" && shown["by"] as? String == "DeepL.com")
        #expect((shown["text"] as? String)?.hasPrefix("Hackspace Christmas party on 18 Dec!") == true)
        let row = client.mirrors[0].rows.first { $0["post"] as? String == Self.german }
        #expect((row?["translation"] as? Message)?["state"] as? String == "shown")
        replies = await client.send(#"{"cmd":"original","post":"\#(Self.german)","id":"o"}"#)
        #expect(replies.last?.type == "ok")
        #expect(client.mirrors[0].rows.first { $0["post"] as? String == Self.german }?["translation"] == nil)
        replies = await client.send(#"{"cmd":"original","post":"\#(Self.german)","id":"o2"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "No translation of post \(Self.german) shows.")
    }

    @Test("a post without a translation, an unknown post and a line without a post are errors in words")
    func errors() async throws {
        let client = try DriverConversation()
        await client.settle()
        let english = try #require(client.mirrors[0].rows.compactMap { $0["post"] as? String }.first { $0 != Self.german })
        var replies = await client.send(#"{"cmd":"translate","post":"\#(english)","id":"e"}"#)
        #expect(replies.last?.type == "error")
        #expect(
            replies.last?["message"] as? String
                == "Could not translate post \(english): The sandbox has no translation of this post: its fixtures translate only some posts not in English."
        )
        replies = await client.send(#"{"cmd":"translate","post":"nope","id":"u"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "Unknown post nope: no screen on the stack shows it.")
        replies = await client.send(#"{"cmd":"translate","id":"x"}"#)
        #expect(replies.first?["message"] as? String == "translate needs \"post\": a post id string.")
    }
}
