@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines conversations: lines and payloads")
struct JSONLConversationCommandTests {
    @Test("openConversation, markRead and removeConversation name a conversation by id or by row; the conversations route parses", arguments: [
        (#"{"cmd":"openConversation","conversation":"41","id":1}"#, JSONLCommand(id: 1, action: .conversation(.open, "41"), name: "openConversation")),
        (#"{"cmd":"markRead","row":"conversation:41"}"#, JSONLCommand(action: .conversation(.markRead, "41"), name: "markRead")),
        (#"{"cmd":"removeConversation","conversation":"7"}"#, JSONLCommand(action: .conversation(.remove, "7"), name: "removeConversation")),
        (#"{"cmd":"push","route":{"route":"conversations"}}"#, JSONLCommand(action: .push(.list(.conversations)), name: "push")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad conversation lines are one exact sentence", arguments: [
        (#"{"cmd":"markRead"}"#, #"markRead needs "conversation": a conversation's id such as "41", or "row": a conversation row id such as "conversation:41"."#),
        (#"{"cmd":"removeConversation","conversation":""}"#, #"removeConversation needs "conversation": a conversation's id such as "41", or "row": a conversation row id such as "conversation:41"."#),
        (#"{"cmd":"markRead","row":"post:1"}"#, #"markRead: post:1 is not a conversation row; a conversation row id is such as "conversation:41"."#),
        (#"{"cmd":"markRead","row":"conversation:1","conversation":"1"}"#, #"markRead takes "conversation" or "row", not both."#),
    ])
    func invalid(line: String, message: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error): #expect(error.message == message)
        }
    }

    @Test("the conversations route is written as push reads it back")
    func route() throws {
        #expect(JSONLMessage.routes([.list(.conversations)]).json == #"{"type":"routes","routes":[{"route":"conversations"}]}"#)
    }
}

/// Two conversations: c1 with Kemi (unread), c2 with Ode. Calls are answered at once; a change
/// of a conversation in `refusing` is refused.
enum DirectMessages {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)
    static let kemi = Author(id: "7", displayName: "Kemi", handle: "kemi@fieldnotes.science")
    static let ode = Author(id: "8", displayName: "Ode", handle: "ode")
    static let me = Author(id: "1", displayName: "Me", handle: "me")

    static func conversation(_ id: String, with author: Author, unread: Bool, minutesAgo: Double) -> Feedline.Conversation {
        let post = Post(
            id: PostID("\(id)-last"), author: author, text: "Hello from \(author.name)", createdAt: now.addingTimeInterval(-60 * minutesAgo),
            visibility: .direct
        )
        return Feedline.Conversation(id: id, participants: [author], unread: unread, lastPost: post)
    }

    struct Refused: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { "This action is not allowed." }
    }

    static func make(refusing: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        let conversations = [conversation("c1", with: kemi, unread: true, minutesAgo: 5), conversation("c2", with: ode, unread: false, minutesAgo: 50)]
        var model = ServerModel(conversations.compactMap(\.lastPost))
        model.conversations = ServerConversations(conversations)
        let server = GatedServer(
            model, me: me, answering: [.page, .post, .context, .conversations, .markConversationRead, .removeConversation], sourceLocation: sourceLocation
        )
        for id in refusing { server.fail(.markConversationRead, .removeConversation, key: id, with: Refused()) }
        return server
    }
}

extension GatedServer {
    /// The conversation calls so far: `conversations`, `read c1`, `remove c2`.
    fileprivate var conversationCalls: [String] {
        calls.compactMap { call in
            switch call.kind {
            case .conversations: "conversations"
            case .markConversationRead: "read \(call.key)"
            case .removeConversation: "remove \(call.key)"
            default: nil
            }
        }
    }
}

@MainActor
@Suite("JSON-lines conversations", .timeLimit(.minutes(10)))
struct JSONLConversationsDriverTests {
    /// The rows of `screen`'s mirror as `ID` with `*` when unread and `!` when it shows a refusal.
    static func rows(_ client: DriverClient<GatedServer>, _ screen: Int) async throws -> [String] {
        try await client.mirrors()[screen].rows.map { row in
            let id = row["id"] as? String ?? "?"
            guard row["kind"] as? String == "conversation" else { return id }
            return id + (row["unread"] as? Bool == true ? "*" : "") + (row["failure"] is String ? "!" : "")
        }
    }

    @Test("a conversation row has its participants, unread and last post; openConversation pushes its thread and clears unread at once")
    func openMarksRead() async throws {
        let client = DriverClient(DirectMessages.make(), now: DirectMessages.now)
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"conversations"}}"#)
        await client.wait()
        #expect(try await Self.rows(client, 1) == ["conversation:c1*", "conversation:c2"])
        let first = try #require(try await client.mirrors()[1].rows.first)
        #expect(first["kind"] as? String == "conversation")
        #expect(first["conversation"] as? String == "c1")
        #expect((first["participants"] as? [[String: Any]])?.first?["handle"] as? String == "@kemi@fieldnotes.science")
        #expect((first["lastPost"] as? [String: Any])?["post"] as? String == "c1-last")
        #expect((first["lastPost"] as? [String: Any])?["visibility"] as? String == "direct")

        let opened = await client.send(#"{"cmd":"openConversation","row":"conversation:c1","id":"o"}"#)
        #expect(opened.last == #"{"type":"ok","cmd":"openConversation","id":"o"}"#)
        #expect(opened.contains(#"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"conversations"},{"route":"thread","post":"c1-last"}]}"#))
        #expect(try await Self.rows(client, 1) == ["conversation:c1", "conversation:c2"], "read at once, before the answer")
        await client.wait()
        #expect(client.server.conversationCalls == ["conversations", "read c1"])
        // Read already: markRead says so and asks nothing.
        let again = await client.send(#"{"cmd":"markRead","conversation":"c1","id":"m"}"#)
        #expect(again == [#"{"type":"error","message":"The conversation c1 is read already.","id":"m"}"#])
        let unknown = await client.send(#"{"cmd":"removeConversation","conversation":"c9"}"#)
        #expect(unknown == [#"{"type":"error","message":"Unknown conversation c9: no conversations screen has shown it (or it was removed)."}"#])
        #expect(client.server.conversationCalls == ["conversations", "read c1"])
    }

    @Test("removeConversation takes the row off at once; a refusal puts it back where it was, saying why")
    func removeRefused() async throws {
        let client = DriverClient(DirectMessages.make(refusing: ["c1"]), now: DirectMessages.now)
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"conversations"}}"#)
        await client.wait()
        await client.send(#"{"cmd":"removeConversation","row":"conversation:c1"}"#)
        #expect(try await Self.rows(client, 1) == ["conversation:c2"])
        await client.wait()
        #expect(try await Self.rows(client, 1) == ["conversation:c1*!", "conversation:c2"])
        let row = try #require(try await client.mirrors()[1].rows.first)
        #expect(row["failure"] as? String == "Could not remove the conversation with @kemi@fieldnotes.science: This action is not allowed.")
        await client.send(#"{"cmd":"removeConversation","conversation":"c2"}"#)
        await client.wait()
        #expect(try await Self.rows(client, 1) == ["conversation:c1*!"])
        #expect(client.server.conversationCalls == ["conversations", "remove c1", "remove c2"])
    }
}
