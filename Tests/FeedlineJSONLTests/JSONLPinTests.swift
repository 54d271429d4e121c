import Feedline
import Foundation
import Testing

/// `pin`, `unpin`, `muteThread` and `unmuteThread` over JSON-lines on the bundled sandbox
/// (signed in as @you): optimistic on every screen, refused in words before anything is sent
/// when Mastodon would refuse, a sixth pin rolled back with the server's sentence.
@MainActor
@Suite("JSON-lines pins and muted conversations")
struct JSONLPinTests {
    /// The posts (ids) of a list screen whose author has `handle` (or not).
    static func posts(_ client: DriverConversation, screen: Int, by handle: String, mine: Bool = true) -> [String] {
        client.mirrors[screen].rows.compactMap { row in
            guard let post = row["post"] as? String, row["boostedBy"] is NSNull,
                let author = row["author"] as? Message, (author["handle"] as? String == handle) == mine
            else { return nil }
            return post
        }
    }

    /// A driver with @you's profile pushed over home (screen 1), loaded.
    static func yourProfile() async throws -> DriverConversation {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:@you"}}"#)
        await client.settle()
        return client
    }

    @Test("pin marks your own post on every screen at once; a sixth is rolled back with the server's sentence; unpin undoes")
    func pins() async throws {
        let client = try await Self.yourProfile()
        let mine = Self.posts(client, screen: 1, by: "@you")
        try #require(mine.count >= 6)
        var replies = await client.send(#"{"cmd":"pin","post":"\#(mine[0])","id":"p"}"#)
        #expect(replies.last?.type == "ok" && replies.last?.id == "p")
        let state = try #require(replies.first { $0.type == "post" })
        #expect(state["pinned"] as? Bool == true && state["pending"] as? [String] == ["pin"])
        await client.settle()
        #expect(client.mirrors[1].rows.first { $0["post"] as? String == mine[0] }?["pinned"] as? Bool == true)
        for post in mine[1..<5] { await client.send(#"{"cmd":"pin","post":"\#(post)"}"#) }
        await client.settle()
        replies = await client.send(#"{"cmd":"pin","post":"\#(mine[5])","id":"sixth"}"#)
        #expect(replies.last?.type == "ok")
        let later = await client.settle()
        let refused = try #require(later.last { $0.type == "post" && $0["post"] as? String == mine[5] })
        #expect(refused["pinned"] as? Bool == false && refused["pending"] as? [String] == [])
        #expect(refused["error"] as? String == "Could not pin this post: Validation failed: You have already pinned the maximum number of posts")
        replies = await client.send(#"{"cmd":"unpin","post":"\#(mine[0])"}"#)
        #expect(replies.first { $0.type == "post" }?["pinned"] as? Bool == false)
    }

    @Test("someone else's post is refused before anything is sent, and so is a conversation you take no part in")
    func refusals() async throws {
        let client = try DriverConversation()
        await client.settle()
        let others = Self.posts(client, screen: 0, by: "@you", mine: false)
        let theirs = try #require(others.first)
        var replies = await client.send(#"{"cmd":"pin","post":"\#(theirs)","id":"x"}"#)
        #expect(replies.map(\.type) == ["error"])
        let message = try #require(replies.first?["message"] as? String)
        #expect(message.hasPrefix("Only your own posts can be pinned; this one is by @"))
        replies = await client.send(#"{"cmd":"muteThread","post":"\#(theirs)","id":"m"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect((replies.first?["message"] as? String)?.hasPrefix("Only a conversation you take part in can be muted") == true)
        // Undoing is never refused: nothing to undo is simply nothing.
        replies = await client.send(#"{"cmd":"unpin","post":"\#(theirs)","id":"u"}"#)
        #expect(replies.last?.type == "ok")
    }

    @Test("muteThread of your own post shows muted at once and stays; unmuteThread undoes it")
    func muteThread() async throws {
        let client = try await Self.yourProfile()
        let post = try #require(Self.posts(client, screen: 1, by: "@you").first)
        var replies = await client.send(#"{"cmd":"muteThread","post":"\#(post)","id":"m"}"#)
        #expect(replies.first { $0.type == "post" }?["muted"] as? Bool == true)
        let later = await client.settle()
        #expect(later.last { $0.type == "post" }?["pending"] as? [String] == [])
        replies = await client.send(#"{"cmd":"unmuteThread","post":"\#(post)"}"#)
        #expect(replies.first { $0.type == "post" }?["muted"] as? Bool == false)
    }
}
