@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines editPost, redraft, vote and history commands")
struct JSONLPostWritingCommandTests {
    @Test("editPost, redraft, vote and history parse, with their fields and ids; vote keeps the line's numbers, counted from 1", arguments: [
        (#"{"cmd":"editPost","post":"117650600813032245","id":"e"}"#, JSONLCommand(id: "e", action: .editPost("117650600813032245"), name: "editPost")),
        (#"{"cmd":"redraft","post":"1"}"#, JSONLCommand(action: .redraft("1"), name: "redraft")),
        (#"{"cmd":"history","post":"1","id":2}"#, JSONLCommand(id: 2, action: .history("1"), name: "history")),
        (#"{"cmd":"vote","post":"1","choices":[1,3]}"#, JSONLCommand(action: .vote("1", choices: [1, 3]), name: "vote")),
        (#"{"cmd":"vote","post":"1","choices":[2.0],"id":[1]}"#, JSONLCommand(id: .array([1]), action: .vote("1", choices: [2]), name: "vote")),
        // Repeated choices are the poll's business (one vote per choice).
        (#"{"cmd":"vote","post":"1","choices":[2,2]}"#, JSONLCommand(action: .vote("1", choices: [2, 2]), name: "vote")),
        // Fields a command does not read are ignored, as everywhere.
        (#"{"cmd":"editPost","post":"1","text":"ignored"}"#, JSONLCommand(action: .editPost("1"), name: "editPost")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static let choicesShape = "a list of choice numbers counted from 1, such as [2] or [1,3]"

    @Test("bad editPost, redraft, vote and history lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"editPost","id":1}"#, #"editPost needs "post": a post id string."#, 1),
        (#"{"cmd":"editPost","post":5}"#, #"editPost needs "post": a post id string."#, nil),
        (#"{"cmd":"redraft","post":""}"#, #"redraft needs "post": a post id string."#, nil),
        (#"{"cmd":"history","post":null,"id":"h"}"#, #"history needs "post": a post id string."#, "h"),
        (#"{"cmd":"vote","choices":[1]}"#, #"vote needs "post": a post id string."#, nil),
        (#"{"cmd":"vote","post":"1"}"#, #"vote needs "choices": \#(choicesShape)."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[],"id":"v"}"#, #"vote: "choices" is \#(choicesShape), not []."#, "v"),
        (#"{"cmd":"vote","post":"1","choices":2}"#, #"vote: "choices" is \#(choicesShape), not 2."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[0]}"#, #"vote: "choices" is \#(choicesShape), not [0]."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[1,-2]}"#, #"vote: "choices" is \#(choicesShape), not [1,-2]."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[1.5]}"#, #"vote: "choices" is \#(choicesShape), not [1.5]."#, nil),
        (#"{"cmd":"vote","post":"1","choices":["2"]}"#, #"vote: "choices" is \#(choicesShape), not ["2"]."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[1000000]}"#, #"vote: "choices" is \#(choicesShape), not [1000000]."#, nil),
        (#"{"cmd":"vote","post":"1","choices":null}"#, #"vote: "choices" is \#(choicesShape), not null."#, nil),
        (#"{"cmd":"vote","post":"1","choices":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,0]}"#, #"vote: "choices" is \#(choicesShape), not [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,…."#, nil),
        (#"{"cmd":"editpost","post":"1"}"#, #"Unknown command "editpost". Did you mean "editPost"? Commands: \#(JSONLCommandTests.commandList)."#, nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command):
            Issue.record("parsed as \(command)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }
}

/// The commands on the bundled sandbox (`Fixtures/timeline`), in process: the signed-in
/// account's profile (`account:@you`) and Ruth's, whose post has an open poll.
@MainActor
@Suite("JSON-lines editPost, redraft, vote and history on the sandbox", .timeLimit(.minutes(10)))
struct JSONLPostWritingSessionTests {
    /// One's own posts on the profile: edited, redrafted; one with a poll that ended.
    static let bookClub = "117650600813032245"
    static let bikeShop = "117643230566681259"
    static let endedPoll = "117609058024639893"
    /// Ruth's post with an open poll of four options, one choice (358 votes; "An app" has 132).
    static let ruthsPoll = "117626223555024433"

    /// A client on the timeline fixture with `feed` pushed and loaded (screen 1).
    private func client(pushing feed: String) async throws -> WritingClient {
        let client = try WritingClient(fixtures: "timeline")
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"\#(feed)"}}"#)
        await client.wait()
        return client
    }

    /// The row of post `id` in a `changes` line's `updated`, if it has one.
    private static func updatedRow(_ line: String, post id: String) -> [String: Any]? {
        let message = WritingClient.object(line)
        guard message["type"] as? String == "changes" else { return nil }
        let updated = message["updated"] as? [[String: Any]] ?? []
        return updated.compactMap { $0["row"] as? [String: Any] }.first { $0["original"] as? String == id }
    }

    @Test("editPost replies with the edit draft; sent, the edit reaches the post's row as changes before the draft is sent; history lists both versions")
    func editThenHistory() async throws {
        let client = try await client(pushing: "account:@you")
        let before = try #require(client.session.store.post(PostID(Self.bookClub))).text

        let started = await client.send(#"{"cmd":"editPost","post":"\#(Self.bookClub)","id":"e"}"#)
        #expect(started.count == 2 && started.last == #"{"type":"ok","cmd":"editPost","id":"e"}"#)
        let draft = WritingClient.object(try #require(started.first))
        #expect(draft["type"] as? String == "draft" && draft["id"] as? String == "e" && draft["draft"] as? String == "1")
        #expect(draft["editing"] as? String == Self.bookClub)
        #expect(draft["text"] as? String == before, "the edit starts from the post's text as typed")
        #expect(draft["phase"] as? String == "editing")

        // Who may see the post cannot change; sending back what was shown is fine.
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","visibility":"direct","id":"v"}"#) == [
            #"{"type":"error","message":"Draft 1 edits post \#(Self.bookClub): an edit cannot change who may see the post.","id":"v"}"#,
        ])
        let text = "Book club tonight: seven people, one book, three opinions."
        let edited = await client.send(#"{"cmd":"editDraft","draft":"1","text":"\#(text)","visibility":"public","id":"t"}"#)
        #expect(WritingClient.object(try #require(edited.first))["text"] as? String == text)

        let start = client.lines.count
        let sent = await client.send(#"{"cmd":"send","draft":"1","id":"s"}"#)
        #expect(WritingClient.drafts(sent) == ["1 sending 1 #s"])
        #expect(sent.last == #"{"type":"ok","cmd":"send","id":"s"}"#)
        // At once, before the reply: the profile's row shows the new text, marked edited.
        let shown = try #require(sent.compactMap { Self.updatedRow($0, post: Self.bookClub) }.first)
        #expect(shown["text"] as? String == text)
        #expect(shown["editedAt"] as? String == "2026-11-21T18:00:00Z")
        #expect(client.session.store.isEditing(PostID(Self.bookClub)))

        await client.wait()
        let written = Array(client.lines[start...])
        let firstShown = try #require(written.firstIndex { Self.updatedRow($0, post: Self.bookClub)?["text"] as? String == text })
        let confirmed = try #require(written.firstIndex { WritingClient.object($0)["phase"] as? String == "sent" })
        #expect(firstShown < confirmed)
        #expect(WritingClient.object(written[confirmed])["post"] as? String == Self.bookClub)
        // No row of the post showed the old text again.
        #expect(!written.contains { Self.updatedRow($0, post: Self.bookClub)?["text"] as? String == before })
        #expect(!client.session.store.isEditing(PostID(Self.bookClub)))

        let history = await client.send(#"{"cmd":"history","post":"\#(Self.bookClub)","id":"h"}"#)
        #expect(history.count == 2 && history.last == #"{"type":"ok","cmd":"history","id":"h"}"#)
        let message = WritingClient.object(try #require(history.first))
        #expect(message["type"] as? String == "history" && message["id"] as? String == "h" && message["post"] as? String == Self.bookClub)
        let versions = try #require(message["versions"] as? [[String: Any]])
        #expect(versions.map { $0["text"] as? String } == [before, text])
        #expect(versions.last?["createdAt"] as? String == "2026-11-21T18:00:00Z")
        #expect(versions.allSatisfy { $0["cw"] is NSNull && ($0["media"] as? [Any])?.isEmpty == true })
    }

    @Test("editPost of someone else's post is refused without asking; of an unknown post it names it; history of a post the server lacks says why")
    func editRefusals() async throws {
        let client = try await client(pushing: "account:@ruth")
        #expect(await client.send(#"{"cmd":"editPost","post":"\#(Self.ruthsPoll)","id":1}"#) == [
            #"{"type":"error","message":"Only your own posts can be edited; post \#(Self.ruthsPoll) is by @ruth.","id":1}"#,
        ])
        #expect(await client.send(#"{"cmd":"redraft","post":"\#(Self.ruthsPoll)","id":2}"#) == [
            #"{"type":"error","message":"Only your own posts can be redrafted; post \#(Self.ruthsPoll) is by @ruth.","id":2}"#,
        ])
        for command in ["editPost", "redraft"] {
            #expect(await client.send(#"{"cmd":"\#(command)","post":"nope","id":3}"#) == [
                #"{"type":"error","message":"Unknown post nope: no screen on the stack shows it.","id":3}"#,
            ])
        }
        #expect(await client.send(#"{"cmd":"history","post":"nope","id":4}"#) == [
            #"{"type":"error","message":"Could not load the versions of post nope: Record not found","id":4}"#,
        ])
        // A post never edited has one version.
        let one = WritingClient.object(try #require(await client.send(#"{"cmd":"history","post":"\#(Self.ruthsPoll)"}"#).first))
        #expect((one["versions"] as? [Any])?.count == 1)
        #expect(client.session.drafts.all.isEmpty)
    }

    @Test("vote: shown at once on the post's row, ok once the server answered; a second vote and bad choices are refused with their sentences")
    func vote() async throws {
        let client = try await client(pushing: "account:@ruth")
        // Refused before anything is sent: the poll takes one choice, has four.
        #expect(await client.send(#"{"cmd":"vote","post":"\#(Self.ruthsPoll)","choices":[1,3],"id":"a"}"#) == [
            #"{"type":"error","message":"The poll takes one choice.","id":"a"}"#,
        ])
        #expect(await client.send(#"{"cmd":"vote","post":"\#(Self.ruthsPoll)","choices":[5],"id":"b"}"#) == [
            #"{"type":"error","message":"The poll has no choice 5.","id":"b"}"#,
        ])
        #expect(await client.send(#"{"cmd":"vote","post":"nope","choices":[1],"id":"c"}"#) == [
            #"{"type":"error","message":"Unknown post nope: no screen on the stack shows it.","id":"c"}"#,
        ])

        let voted = await client.send(#"{"cmd":"vote","post":"\#(Self.ruthsPoll)","choices":[3],"id":"v"}"#)
        #expect(voted.last == #"{"type":"ok","cmd":"vote","id":"v"}"#)
        let row = try #require(voted.compactMap { Self.updatedRow($0, post: Self.ruthsPoll) }.first)
        let poll = try #require(row["poll"] as? [String: Any])
        let options = try #require(poll["options"] as? [[String: Any]])
        #expect(options.map { $0["title"] as? String } == ["Paper notebook", "Spreadsheet", "An app", "Pure vibes"])
        #expect(options.map { $0["chosen"] as? Bool } == [false, false, true, false], "choice 3 is the third option")
        #expect(options.map { $0["votes"] as? Int } == [41, 88, 133, 97])
        #expect(poll["votes"] as? Int == 359 && poll["voted"] as? Bool == true && poll["ended"] as? Bool == false)
        #expect(poll["multiple"] as? Bool == false && poll["expiresAt"] as? String == "2026-11-23T10:00:00Z")
        #expect(!client.session.store.isVoting(PostID(Self.ruthsPoll)), "ok comes after the server's answer")

        #expect(await client.send(#"{"cmd":"vote","post":"\#(Self.ruthsPoll)","choices":[1],"id":"again"}"#) == [
            #"{"type":"error","message":"You have voted in this poll already.","id":"again"}"#,
        ])
    }

    @Test("vote in a poll that has ended is refused; its row says ended, with the user's own choice")
    func endedPoll() async throws {
        let client = try await client(pushing: "account:@you")
        let listed = try #require(client.session.navigator.screens[1].list?.rows[id: .post(PostID(Self.endedPoll))])
        let payload = JSONLMessage.row(listed, clock: client.session.clock)
        let poll = try #require(WritingClient.object(payload.json)["poll"] as? [String: Any])
        #expect(poll["ended"] as? Bool == true && poll["voted"] as? Bool == true)
        #expect((poll["options"] as? [[String: Any]])?.map { $0["chosen"] as? Bool } == [true, false, false, false])
        #expect(await client.send(#"{"cmd":"vote","post":"\#(Self.endedPoll)","choices":[2],"id":"x"}"#) == [
            #"{"type":"error","message":"The poll has ended.","id":"x"}"#,
        ])
    }

    @Test("redraft waits for the delete: the post leaves its rows, then the reply is a new draft of its text; the post is gone from the server")
    func redraft() async throws {
        let client = try await client(pushing: "account:@you")
        let post = try #require(client.session.store.post(PostID(Self.bikeShop)))
        let replies = await client.send(#"{"cmd":"redraft","post":"\#(Self.bikeShop)","id":"r"}"#)
        #expect(replies.suffix(2).last == #"{"type":"ok","cmd":"redraft","id":"r"}"#)
        // The row left the profile before the reply.
        let left = replies.map(WritingClient.object).first { $0["type"] as? String == "changes" && $0["screen"] as? Int == 1 }
        #expect((left?["deleted"] as? [Int])?.count == 1)
        #expect(!(client.session.navigator.screens[1].list?.rows.contains { $0.id == .post(PostID(Self.bikeShop)) } ?? true))
        // One draft message, the reply: the post's text as typed, a new post (not an edit).
        #expect(WritingClient.drafts(replies) == ["1 editing #r"])
        let draft = WritingClient.object(try #require(replies.dropLast().last))
        #expect(draft["text"] as? String == post.text)
        #expect(draft["editing"] is NSNull && draft["replyTo"] is NSNull)
        #expect(draft["visibility"] as? String == "public" && draft["language"] as? String == post.language)
        #expect(client.session.drafts.all.map(\.id.rawValue) == ["1"])
        // The server no longer has it: a second redraft fails as a delete would.
        #expect(await client.send(#"{"cmd":"history","post":"\#(Self.bikeShop)","id":"h"}"#) == [
            #"{"type":"error","message":"Could not load the versions of post \#(Self.bikeShop): Record not found","id":"h"}"#,
        ])
    }
}

@MainActor
@Suite("JSON-lines vote the server refuses", .timeLimit(.minutes(10)))
struct JSONLRefusedVoteTests {
    @Test("a vote shown at once and refused by the server: the row shows the server's poll again, and the reply is the error")
    func refused() async throws {
        let session = FeedSession(service: GatedServer.refusingVotes(), clock: .fixed(Date(timeIntervalSince1970: 1_795_284_000)), retryClock: ManualClock())
        var lines: [String] = []
        let driver = JSONLinesDriver(session: session) { lines.append($0) }
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        lines.removeAll()
        _ = await driver.handle(#"{"cmd":"vote","post":"q1","choices":[2],"id":1}"#)
        #expect(lines.last == #"{"type":"error","message":"Your vote in the poll of post q1 did not count: Validation failed: You have already voted on this poll","id":1}"#)
        let polls = lines.map(WritingClient.object).filter { $0["type"] as? String == "changes" }.compactMap { message in
            ((message["updated"] as? [[String: Any]])?.first?["row"] as? [String: Any])?["poll"] as? [String: Any]
        }
        // Shown at once (choice 2 chosen, counted), then the server's poll as it has it.
        #expect(polls.map { $0["voted"] as? Bool } == [true, false])
        #expect(polls.map { ($0["options"] as? [[String: Any]])?.map { $0["votes"] as? Int } } == [[2, 2], [2, 1]])
        #expect(session.root.rows.first?.post?.post.poll?.voted == false)
    }
}

/// The editing and voting example of Docs/JSONL.md, replayed through the binary: a golden transcript.
@MainActor
@Suite("feedline --jsonl editing and voting through the binary", .timeLimit(.minutes(10)))
struct JSONLPostWritingBinaryTests {
    @Test("the editing and voting example in Docs/JSONL.md is what the binary prints (… stands for trimmed text)")
    func documentedExample() async throws {
        let commands = try await DocumentedExample.check(
            heading: "Editing and voting example", flags: ["--jsonl", "--fixtures", "Fixtures/timeline", "--now", "2026-11-21T18:00:00Z"]
        )
        #expect(commands == 16)
    }

    /// Whether `real` is `shown` with text trimmed at each `…`: every piece between ellipses
    /// appears in order, and the ends match exactly.
}
