@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines relationship commands")
struct JSONLRelationshipCommandTests {
    static let aDay = JSONLCommand.Mute(duration: .seconds(86_400), notifications: false)

    @Test("relationship commands parse: value true when absent, the un… forms false, a mute's options only on a mute", arguments: [
        (#"{"cmd":"follow","account":"109302"}"#, JSONLCommand(action: .relationship(.follow, "109302", value: true, mute: nil), name: "follow")),
        (#"{"cmd":"follow","account":"109302","value":false,"id":1}"#, JSONLCommand(id: 1, action: .relationship(.follow, "109302", value: false, mute: nil), name: "follow")),
        (#"{"cmd":"unfollow","account":"7","value":true}"#, JSONLCommand(action: .relationship(.follow, "7", value: false, mute: nil), name: "unfollow")),
        (#"{"cmd":"mute","account":"7"}"#, JSONLCommand(action: .relationship(.mute, "7", value: true, mute: JSONLCommand.Mute()), name: "mute")),
        (#"{"cmd":"mute","account":"7","duration":null}"#, JSONLCommand(action: .relationship(.mute, "7", value: true, mute: JSONLCommand.Mute()), name: "mute")),
        (#"{"cmd":"mute","account":"7","duration":86400,"notifications":false}"#, JSONLCommand(action: .relationship(.mute, "7", value: true, mute: Self.aDay), name: "mute")),
        // Unmuting takes no options: they are not read.
        (#"{"cmd":"mute","account":"7","value":false,"duration":-1}"#, JSONLCommand(action: .relationship(.mute, "7", value: false, mute: nil), name: "mute")),
        (#"{"cmd":"unmute","account":"7","notifications":"no"}"#, JSONLCommand(action: .relationship(.mute, "7", value: false, mute: nil), name: "unmute")),
        (#"{"cmd":"block","account":"7","duration":5}"#, JSONLCommand(action: .relationship(.block, "7", value: true, mute: nil), name: "block")),
        (#"{"cmd":"unblock","account":"7","id":"u"}"#, JSONLCommand(id: "u", action: .relationship(.block, "7", value: false, mute: nil), name: "unblock")),
        (#"{"cmd":"notify","account":"7","value":false}"#, JSONLCommand(action: .relationship(.notify, "7", value: false, mute: nil), name: "notify")),
        (#"{"cmd":"boosts","account":"7"}"#, JSONLCommand(action: .relationship(.boosts, "7", value: true, mute: nil), name: "boosts")),
        (#"{"cmd":"relationships","accounts":["1","3","1"]}"#, JSONLCommand(action: .relationships(["1", "3"]), name: "relationships")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static let duration = #""duration" is how long the mute lasts in whole seconds, above 0 (leave it out for a mute without end), not"#
    static let accounts = #"relationships needs "accounts": a list of account id strings such as ["109302"]."#

    static func handle(_ command: String, _ handle: String) -> String {
        #"\#(command): \#(handle) is a handle, not an account id; push {"route":"feed","feed":"account:\#(handle)"} first and use the "account" of its profile message."#
    }

    @Test("bad relationship lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"follow","id":1}"#, #"follow needs "account": an account id string."#, 1),
        (#"{"cmd":"mute","account":""}"#, #"mute needs "account": an account id string."#, nil),
        (#"{"cmd":"block","account":109302,"id":"b"}"#, #"block needs "account": an account id string."#, "b"),
        (#"{"cmd":"follow","account":"7","value":"yes"}"#, #"follow: "value" is true or false, not "yes"."#, nil),
        (#"{"cmd":"notify","account":"7","value":1}"#, #"notify: "value" is true or false, not 1."#, nil),
        (#"{"cmd":"mute","account":"7","duration":0}"#, "mute: \(Self.duration) 0.", nil),
        (#"{"cmd":"mute","account":"7","duration":-60}"#, "mute: \(Self.duration) -60.", nil),
        (#"{"cmd":"mute","account":"7","duration":1.5}"#, "mute: \(Self.duration) 1.5.", nil),
        (#"{"cmd":"mute","account":"7","duration":"1h","id":"m"}"#, "mute: \(Self.duration) \"1h\".", "m"),
        (#"{"cmd":"mute","account":"7","duration":1e12}"#, "mute: \(Self.duration) 1000000000000.", nil),
        (#"{"cmd":"mute","account":"7","notifications":"no"}"#, #"mute: "notifications" is true or false (whether their notifications are muted too), not "no"."#, nil),
        // A handle, with or without its leading @, says how to find the id.
        (#"{"cmd":"follow","account":"@kemi@fieldnotes.science","id":"h"}"#, Self.handle("follow", "@kemi@fieldnotes.science"), "h"),
        (#"{"cmd":"unmute","account":"kemi@fieldnotes.science"}"#, Self.handle("unmute", "@kemi@fieldnotes.science"), nil),
        (#"{"cmd":"block","account":"@\#(String(repeating: "x", count: 60))"}"#, Self.handle("block", "@" + String(repeating: "x", count: 39) + "…"), nil),
        (#"{"cmd":"relationships"}"#, Self.accounts, nil),
        (#"{"cmd":"relationships","accounts":[]}"#, Self.accounts, nil),
        (#"{"cmd":"relationships","accounts":"109302"}"#, Self.accounts, nil),
        (#"{"cmd":"relationships","accounts":["1",2]}"#, #"relationships: 2 is not an account id string."#, nil),
        (#"{"cmd":"relationships","accounts":["1","@ruth"],"id":3}"#, Self.handle("relationships", "@ruth"), 3),
        (#"{"cmd":"folow","account":"7"}"#, "Unknown command \"folow\". Did you mean \"follow\"? Commands: \(JSONLCommandTests.commandList).", nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    @Test("a relationship message has every field, in order: dates in ISO 8601, pending kinds in a fixed order, the failure's sentence")
    func relationshipMessage() {
        let relationship = Relationship(
            accountID: "2", following: true, followedBy: true, muting: true, mutingNotifications: false,
            mutingUntil: AccountsServer.now.addingTimeInterval(3_600), notifying: true, showingBoosts: false, note: "met at the \"pond\""
        )
        let failure = RelationshipFailure(kind: .block, value: true, message: "Could not block this account: Forbidden.")
        let change = RelationshipChange(accountID: "2", display: RelationshipDisplay(relationship: relationship, pending: [.notify, .follow], failure: failure))
        #expect(JSONLMessage.relationship(change).json == relationshipLine(
            "2", following: true, followedBy: true, muting: true, mutingUntil: "2026-11-21T19:00:00Z", notifying: true, showingBoosts: false,
            note: #"met at the \"pond\""#, pending: ["follow", "notify"], failure: "Could not block this account: Forbidden."
        ))
        #expect(JSONLMessage.relationship(RelationshipChange(accountID: "9", display: RelationshipDisplay(relationship: Relationship(accountID: "9")))).json == #"{"type":"relationship","account":"9","following":false,"requested":false,"followedBy":false,"muting":false,"mutingNotifications":false,"mutingUntil":null,"blocking":false,"blockedBy":false,"domainBlocking":false,"notifying":false,"showingBoosts":true,"note":"","pending":[],"failure":null,"requestedBy":false,"requestAnswer":null}"#)
    }

    @Test("a profile message: who the account is, with its screen and route; an error instead when it failed; nothing while it loads")
    func profileMessage() throws {
        let loaded = ProfileHeader(requested: AccountID(handle: "bob@elsewhere.example"), profile: AccountsServer.profiles[0])
        #expect(JSONLMessage.profile(loaded, screen: 2)?.json == bobsProfile(screen: 2, route: "account:@bob@elsewhere.example"))
        let moved = ProfileHeader(requested: "3", profile: AccountsServer.profiles[1])
        #expect(JSONLMessage.profile(moved, screen: 1)?.json == #"{"type":"profile","screen":1,"route":{"route":"feed","feed":"account:3"},"account":"3","handle":"@carol","name":"carol","bio":"","fields":[],"followers":0,"following":0,"posts":0,"joined":null,"bot":true,"locked":false,"group":false,"movedTo":"@alice","featuredTags":[]}"#)
        let failed = ProfileHeader(requested: "9", failure: FeedFailure(message: "Record not found", isTransient: false))
        #expect(JSONLMessage.profile(failed, screen: 1)?.json == #"{"type":"profile","screen":1,"route":{"route":"feed","feed":"account:9"},"error":"Record not found"}"#)
        #expect(JSONLMessage.profile(ProfileHeader(requested: "9"), screen: 1) == nil)
    }
}

/// A `relationship` message line as the driver writes it: every field, in order; `requestAnswer`
/// is the field's JSON text.
func relationshipLine(
    _ account: String, following: Bool = false, requested: Bool = false, followedBy: Bool = false, muting: Bool = false,
    mutingNotifications: Bool = false, mutingUntil: String? = nil, blocking: Bool = false, blockedBy: Bool = false, domainBlocking: Bool = false,
    notifying: Bool = false, showingBoosts: Bool = true, note: String = "", pending: [String] = [], failure: String? = nil,
    requestedBy: Bool = false, requestAnswer: String = "null"
) -> String {
    func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
    return #"{"type":"relationship","account":"\#(account)","following":\#(following),"requested":\#(requested),"followedBy":\#(followedBy),"#
        + #""muting":\#(muting),"mutingNotifications":\#(mutingNotifications),"mutingUntil":\#(quoted(mutingUntil)),"blocking":\#(blocking),"#
        + #""blockedBy":\#(blockedBy),"domainBlocking":\#(domainBlocking),"notifying":\#(notifying),"showingBoosts":\#(showingBoosts),"#
        + #""note":"\#(note)","pending":[\#(pending.map { quoted($0) }.joined(separator: ","))],"failure":\#(quoted(failure)),"#
        + #""requestedBy":\#(requestedBy),"requestAnswer":\#(requestAnswer)}"#
}

/// Bob's `profile` message, on screen `screen` opened as `route`.
func bobsProfile(screen: Int, route: String) -> String {
    #"{"type":"profile","screen":\#(screen),"route":{"route":"feed","feed":"\#(route)"},"account":"2","handle":"@bob@elsewhere.example","name":"Bob","bio":"Tide tables\nand bad puns.","fields":[{"name":"Pronouns","value":"he/him","verified":false},{"name":"Site","value":"bob.example","verified":true}],"followers":120,"following":80,"posts":1234,"joined":"2023-11-14T22:13:20Z","bot":false,"locked":true,"group":false,"movedTo":null,"featuredTags":[]}"#
}

/// A server of one home feed by three accounts, their profiles (alice has none: her profile is
/// not found) and the user's relationships with them, which start as `relationships` says:
/// a ``GatedServer`` whose reads and relationship changes answer at once from its model (a
/// follow of bob, who is locked, is a request; a mute's end counts from ``now``), and which
/// serves no writing and no other account calls. Its account calls are logged
/// (``GatedServer/accountLog``), so each test states the calls it expects; a relationship change
/// is refused (never transient) when `refusing` is set.
enum AccountsServer {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)  // 2026-11-21T18:00:00Z
    static let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    static let bob = Author(id: "2", displayName: "Bob", handle: "bob@elsewhere.example")
    static let carol = Author(id: "3", displayName: "", handle: "carol")
    static let refusal = "This action is not allowed."

    /// Home, newest first: alice's a1, bob's b1, bob's boost w1 of alice's a2, carol's c1.
    static var home: [Post] {
        func post(_ id: String, _ minutesAgo: Double, _ author: Author, reblog: Post? = nil) -> Post {
            Post(id: PostID(id), author: author, text: "Post \(id)", createdAt: now.addingTimeInterval(-60 * minutesAgo), reblog: reblog)
        }
        return [post("a1", 1, alice), post("b1", 2, bob), post("w1", 3, bob, reblog: post("a2", 30, alice)), post("c1", 4, carol)]
    }

    static let profiles = [
        Profile(
            author: bob, bio: "Tide tables\nand bad puns.",
            fields: [Profile.Field(name: "Pronouns", value: "he/him"), Profile.Field(name: "Site", value: "bob.example", verified: true)],
            followersCount: 120, followingCount: 80, postsCount: 1_234, joined: Date(timeIntervalSince1970: 1_700_000_000), locked: true
        ),
        Profile(author: carol, bot: true, movedTo: alice),
    ]

    static func make(relationships: [Relationship] = [], refusing: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel(home)
        model.timelines.feeds[.home] = home.map(\.id)
        for author in [alice, bob, carol] { model.timelines.feeds[.account(AccountID(author.id))] = home.filter { $0.author.id == author.id }.map(\.id) }
        for profile in profiles { model.relationships.profiles[profile.accountID] = profile }
        model.relationships.locked = [AccountID(bob.id)]
        for relationship in relationships { model.relationships.byAccount[relationship.accountID] = relationship }
        model.now = now
        let server = GatedServer(
            model, answering: [.page, .newer, .notifications, .newerNotifications, .post, .context, .profile, .relationships, .setRelationship],
            sourceLocation: sourceLocation
        )
        server.fail(.composeSettings, .publish, .delete, .source, .history, .vote, with: WritingUnsupported())
        server.fail(
            .accounts, .search, .answerFollowRequest, .domainBlocks, .setDomainBlock, .tag, .setTagFollow, .followedTags, .trendingTags, .lists,
            .createList, .renameList, .deleteList, .setListMembership, .conversations, .markConversationRead, .removeConversation,
            with: AccountsUnsupported()
        )
        if refusing { server.fail(.setRelationship, with: FeedFailure(message: refusal, isTransient: false)) }
        return server
    }
}

extension GatedServer {
    /// Every account call so far, in order: `profile 2`, `relationships 1,3`,
    /// `mute true 2 for 3600 s, notifications false`…
    var accountLog: [String] {
        calls.compactMap { call in
            switch call.kind {
            case .profile, .relationships: return "\(call.kind.rawValue) \(call.key)"
            case .setRelationship:
                guard let kind = call.relationshipKind, let value = call.value else { return nil }
                let mute = call.mute ?? MuteOptions()
                let options = kind == .mute && value
                    ? " for \(mute.duration.map { "\($0.components.seconds) s" } ?? "ever"), notifications \(mute.notifications)" : ""
                return "\(kind) \(value) \(call.key)\(options)"
            default: return nil
            }
        }
    }
}

/// A driver on an ``AccountsServer`` session, home at the bottom, a retry clock that never moves.
@MainActor
final class AccountsClient: DriverClient<GatedServer> {
    init(_ server: GatedServer) {
        super.init(server, now: AccountsServer.now)
    }

    /// The messages of `lines` of type `type`.
    static func only(_ type: String, _ lines: [String]) -> [String] {
        lines.filter { WritingClient.object($0)["type"] as? String == type }
    }
}

@MainActor
@Suite("JSON-lines relationships and profiles", .timeLimit(.minutes(10)))
struct JSONLRelationshipDriverTests {
    static func ids(_ mirror: ChangesMirror) -> [String] { mirror.rows.compactMap { $0["post"] as? String } }

    @Test("a follow writes the relationship at once, pending, before its ok; the server's answer confirms it")
    func follow() async throws {
        let client = AccountsClient(AccountsServer.make())
        await client.start()
        #expect(await client.send(#"{"cmd":"follow","account":"3","id":"f"}"#) == [
            relationshipLine("3", following: true, pending: ["follow"]),
            #"{"type":"ok","cmd":"follow","id":"f"}"#,
        ])
        #expect(await client.wait() == [relationshipLine("3", following: true)])
        #expect(client.server.accountLog == ["follow true 3"])
        // Set again to what it is: nothing happens, nothing is asked.
        #expect(await client.send(#"{"cmd":"follow","account":"3","value":true,"id":"g"}"#) == [#"{"type":"ok","cmd":"follow","id":"g"}"#])
        #expect(await client.wait() == [])
        #expect(client.server.accountLog == ["follow true 3"])
    }

    @Test("a locked account's follow shows as following while on its way, then as requested once the server says so")
    func requested() async throws {
        let client = AccountsClient(AccountsServer.make())
        await client.start()
        #expect(await client.send(#"{"cmd":"follow","account":"2"}"#) == [
            relationshipLine("2", following: true, pending: ["follow"]),
            #"{"type":"ok","cmd":"follow"}"#,
        ])
        #expect(await client.wait() == [relationshipLine("2", requested: true)])
        #expect(client.server.accountLog == ["follow true 2"])
    }

    @Test("a mute takes the account's rows off home, as changes written before the relationship and the ok; its options reach the server, whose answer dates its end")
    func muteTakesHomeRows() async throws {
        let client = AccountsClient(AccountsServer.make())
        await client.start()
        let before = try await client.mirrors()[0]
        #expect(Self.ids(before) == ["a1", "b1", "w1", "c1"])
        let lines = await client.send(#"{"cmd":"mute","account":"2","duration":3600,"notifications":false,"id":"m"}"#)
        #expect(lines.count == 3)
        let changes = WritingClient.object(lines[0])
        #expect(changes["type"] as? String == "changes" && changes["screen"] as? Int == 0)
        #expect(changes["deleted"] as? [Int] == [1, 2] && changes["count"] as? Int == 2)
        #expect(Array(lines.dropFirst()) == [
            relationshipLine("2", muting: true, pending: ["mute"]),
            #"{"type":"ok","cmd":"mute","id":"m"}"#,
        ])
        let muted = try await client.mirrors()[0]
        #expect(Self.ids(muted) == ["a1", "c1"])
        // The answer: the mute stands, with its end; the rows stay off.
        let answered = await client.wait()
        #expect(AccountsClient.only("relationship", answered) == [relationshipLine("2", muting: true, mutingUntil: "2026-11-21T19:00:00Z")])
        #expect(client.server.accountLog == ["mute true 2 for 3600 s, notifications false"])
        let settled = try await client.mirrors()[0]
        #expect(Self.ids(settled) == ["a1", "c1"])
    }

    @Test("a refused mute puts the rows back and says why in the relationship's failure")
    func refusedMute() async throws {
        let client = AccountsClient(AccountsServer.make(refusing: true))
        await client.start()
        let lines = await client.send(#"{"cmd":"mute","account":"2"}"#)
        #expect(AccountsClient.only("relationship", lines) == [relationshipLine("2", muting: true, mutingNotifications: true, pending: ["mute"])])
        let muted = try await client.mirrors()[0]
        #expect(Self.ids(muted) == ["a1", "c1"])
        let answered = await client.wait()
        #expect(AccountsClient.only("relationship", answered) == [
            relationshipLine("2", failure: "Could not mute this account: \(AccountsServer.refusal)")
        ])
        #expect(AccountsClient.only("changes", answered).count == 1)
        let restored = try await client.mirrors()[0]
        #expect(Self.ids(restored) == ["a1", "b1", "w1", "c1"])
        #expect(client.server.accountLog == ["mute true 2 for ever, notifications true"])
        // retry does not send a refusal again (the server would refuse it again); muting again does.
        let retried = await client.send(#"{"cmd":"retry"}"#)
        #expect(AccountsClient.only("relationship", retried).isEmpty)
        await client.wait()
        #expect(client.server.accountLog.count == 1)
        let again = await client.send(#"{"cmd":"mute","account":"2"}"#)
        #expect(AccountsClient.only("relationship", again) == [relationshipLine("2", muting: true, mutingNotifications: true, pending: ["mute"])])
        await client.wait()
        #expect(client.server.accountLog.count == 2)
    }

    @Test("opening account:ID writes its profile once the header loads, and only once: what changes after is written as relationship messages")
    func profileOnOpening() async throws {
        let server = AccountsServer.make(relationships: [Relationship(accountID: "2", followedBy: true)])
        let client = AccountsClient(server)
        await client.start()
        let push = await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:2"},"id":"p"}"#)
        #expect(AccountsClient.only("profile", push).isEmpty, "the profile is on its way")
        let loaded = await client.wait()
        // The profile, then the relationship it asked for.
        #expect(loaded.filter { ["profile", "relationship"].contains(WritingClient.object($0)["type"] as? String) } == [
            bobsProfile(screen: 1, route: "account:2"), relationshipLine("2", followedBy: true),
        ])
        #expect(server.accountLog == ["profile 2", "relationships 2"])
        // A follow from the profile: relationship messages, no second profile.
        let follow = await client.send(#"{"cmd":"follow","account":"2"}"#) + (await client.wait())
        #expect(AccountsClient.only("profile", follow).isEmpty)
        #expect(AccountsClient.only("relationship", follow) == [
            relationshipLine("2", following: true, followedBy: true, pending: ["follow"]),
            relationshipLine("2", requested: true, followedBy: true),
        ])
        _ = try await client.mirrors()
    }

    @Test("a profile that cannot load says why, once per load: retry loads it again and writes it again")
    func profileFailure() async throws {
        let client = AccountsClient(AccountsServer.make())
        await client.start()
        let failed = #"{"type":"profile","screen":1,"route":{"route":"feed","feed":"account:9"},"error":"Record not found"}"#
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:9"}}"#)
        #expect(AccountsClient.only("profile", await client.wait()) == [failed])
        await client.send(#"{"cmd":"retry"}"#)
        #expect(AccountsClient.only("profile", await client.wait()) == [failed])
        #expect(client.server.accountLog == ["profile 9", "profile 9"])
    }

    @Test("relationships loads them in one request and writes each as it is learnt; a handle is refused with the command's id and nothing is asked")
    func load() async throws {
        let server = AccountsServer.make(relationships: [Relationship(accountID: "1", following: true, note: "from the pond")])
        let client = AccountsClient(server)
        await client.start()
        #expect(await client.send(#"{"cmd":"relationships","accounts":["1","3"],"id":"r"}"#) == [#"{"type":"ok","cmd":"relationships","id":"r"}"#])
        #expect(await client.wait() == [relationshipLine("1", following: true, note: "from the pond"), relationshipLine("3")])
        #expect(await client.send(#"{"cmd":"mute","account":"@bob@elsewhere.example","id":"h"}"#) == [
            JSONLMessage.error(JSONLRelationshipCommandTests.handle("mute", "@bob@elsewhere.example"), id: "h").json
        ])
        #expect(server.accountLog == ["relationships 1,3"])
    }
}

/// The relationships example of Docs/JSONL.md, replayed through the binary: a golden transcript.
@MainActor
@Suite("feedline --jsonl relationships through the binary", .timeLimit(.minutes(10)))
struct JSONLRelationshipBinaryTests {
    @Test("the relationships example in Docs/JSONL.md is what the binary prints (… stands for trimmed text)")
    func documentedExample() async throws {
        let commands = try await DocumentedExample.check(
            heading: "Relationships example", flags: ["--jsonl", "--no-stream", "--now", "2026-11-21T18:00:00Z", "--posts-per-page", "3"]
        )
        #expect(commands == 13)
    }
}
