@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines account lists and search: lines and payloads")
struct JSONLAccountListCommandTests {
    @Test("accounts and search routes, search, accept and reject parse; display takes account and tag rows", arguments: [
        (#"{"cmd":"push","route":{"route":"accounts","list":"followers:2"}}"#, JSONLCommand(action: .push(.list(.accounts(.followers("2")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"following:@kemi@fieldnotes.science"}}"#, JSONLCommand(action: .push(.list(.accounts(.following("@kemi@fieldnotes.science")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"endorsed:@kemi@fieldnotes.science"}}"#, JSONLCommand(action: .push(.list(.accounts(.endorsed("@kemi@fieldnotes.science")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"mutes"},"id":1}"#, JSONLCommand(id: 1, action: .push(.list(.accounts(.mutes))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"blocks"}}"#, JSONLCommand(action: .push(.list(.accounts(.blocks))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"requests"}}"#, JSONLCommand(action: .push(.list(.accounts(.requests))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"favourited-by:117"}}"#, JSONLCommand(action: .push(.list(.accounts(.favouritedBy("117")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"boosted-by:117"}}"#, JSONLCommand(action: .push(.list(.accounts(.boostedBy("117")))), name: "push")),
        (##"{"cmd":"push","route":{"route":"search","query":"#birds"}}"##, JSONLCommand(action: .push(.list(.search("#birds"))), name: "push")),
        // `search` is a push of the search route, named as it was sent; the query is kept as given.
        (#"{"cmd":"search","query":" pond survey ","id":"s"}"#, JSONLCommand(id: "s", action: .push(.list(.search(" pond survey "))), name: "search")),
        (#"{"cmd":"accept","row":"account:3"}"#, JSONLCommand(action: .answerRequest(.account("3"), accept: true, screen: nil), name: "accept")),
        (#"{"cmd":"reject","row":"account:3","screen":2,"id":"r"}"#, JSONLCommand(id: "r", action: .answerRequest(.account("3"), accept: false, screen: 2), name: "reject")),
        (#"{"cmd":"display","rows":["account:1","tag:Birds"],"screen":1}"#, JSONLCommand(action: .display([.account("1"), .tag("birds")], screen: 1), name: "display")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static let listUsage = #"push: an accounts route needs "list": followers:ID, following:ID, endorsed:ID (an account id, or @user@host), mutes, blocks, requests, members:LIST_ID, favourited-by:POST_ID or boosted-by:POST_ID."#
    static let query = ##""query": what to look for, a string that is not blank, such as "birds", "#swift" or "@kemi@fieldnotes.science"."##

    static func rowUsage(_ name: String) -> String {
        #"\#(name) needs "row": an account row id such as "account:109302" (a row of {"route":"accounts","list":"requests"})."#
    }

    @Test("bad account-list lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"push","route":{"route":"accounts"},"id":1}"#, Self.listUsage, 1),
        (#"{"cmd":"push","route":{"route":"accounts","list":"friends"}}"#, Self.listUsage, nil),
        (#"{"cmd":"push","route":{"route":"accounts","list":"followers:"}}"#, Self.listUsage, nil),
        (#"{"cmd":"push","route":{"route":"accounts","list":2}}"#, Self.listUsage, nil),
        (#"{"cmd":"push","route":{"route":"search"}}"#, "push: a search route needs \(Self.query)", nil),
        (#"{"cmd":"push","route":{"route":"search","query":" \t"},"id":"q"}"#, "push: a search route needs \(Self.query)", "q"),
        (#"{"cmd":"search"}"#, "search needs \(Self.query)", nil),
        (#"{"cmd":"search","query":""}"#, "search needs \(Self.query)", nil),
        (#"{"cmd":"search","query":["birds"],"id":2}"#, "search needs \(Self.query)", 2),
        (#"{"cmd":"accept"}"#, Self.rowUsage("accept"), nil),
        (#"{"cmd":"accept","row":"account:"}"#, Self.rowUsage("accept"), nil),
        (#"{"cmd":"reject","row":"post:1","id":"x"}"#, Self.rowUsage("reject"), "x"),
        (#"{"cmd":"reject","row":3}"#, Self.rowUsage("reject"), nil),
        (#"{"cmd":"accept","row":"tag:birds"}"#, #"accept: tag:birds is a hashtag row, not an account; a follow request is an account row such as "account:109302"."#, nil),
        (#"{"cmd":"accept","row":"account:3","screen":"top"}"#, #"accept: "screen" is the index of a screen on the stack (0 at the bottom), not "top"."#, nil),
        // The relationship commands take the account's id, never a row id.
        (#"{"cmd":"follow","account":"account:3","id":"f"}"#, #"follow: account:3 is a row id; the account's id is 3, the row's "account"."#, "f"),
        (#"{"cmd":"mute","account":"tag:birds"}"#, #"mute: tag:birds is a hashtag row, not an account."#, nil),
        (#"{"cmd":"block","account":"post:9"}"#, #"block: post:9 is a row id, not an account id; an account row or a profile message gives the "account"."#, nil),
        (#"{"cmd":"relationships","accounts":["1","account:3"]}"#, #"relationships: account:3 is a row id; the account's id is 3, the row's "account"."#, nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    @Test("routes of account lists and searches are written as push reads them back")
    func routesRoundTrip() throws {
        let routes: [Route] = [
            .list(.accounts(.followers("2"))), .list(.accounts(.following("@kemi@fieldnotes.science"))), .list(.accounts(.requests)),
            .list(.accounts(.endorsed("2"))), .list(.accounts(.favouritedBy("7"))), .list(.accounts(.boostedBy("7"))), .list(.search("#birds")),
        ]
        #expect(JSONLMessage.routes(routes).json == ##"{"type":"routes","routes":[{"route":"accounts","list":"followers:2"},{"route":"accounts","list":"following:@kemi@fieldnotes.science"},{"route":"accounts","list":"requests"},{"route":"accounts","list":"endorsed:2"},{"route":"accounts","list":"favourited-by:7"},{"route":"accounts","list":"boosted-by:7"},{"route":"search","query":"#birds"}]}"##)
        guard case .object(let fields) = JSONLMessage.routes(routes), case .array(let written)? = fields.first(where: { $0.0 == "routes" })?.1 else {
            Issue.record("no routes in the message")
            return
        }
        for (route, object) in zip(routes, written) {
            #expect(try JSONLCommand.parse(JSONLValue.object([("cmd", "push"), ("route", object)]).json).get().action == .push(route))
        }
    }

    @Test("a relationship message ends with requestedBy and the answer to their request: on its way, refused, taken")
    func requestAnswerFields() {
        func line(_ answer: ToggleDisplay?, requestedBy: Bool) -> String {
            let relationship = Relationship(accountID: "3", followedBy: !requestedBy, requestedBy: requestedBy)
            return JSONLMessage.relationship(RelationshipChange(accountID: "3", display: RelationshipDisplay(relationship: relationship, requestAnswer: answer))).json
        }
        #expect(line(nil, requestedBy: true) == relationshipLine("3", requestedBy: true))
        #expect(line(ToggleDisplay(isOn: true, pending: true), requestedBy: true)
            == relationshipLine("3", requestedBy: true, requestAnswer: #"{"accept":true,"pending":true,"failure":null}"#))
        #expect(line(ToggleDisplay(isOn: false, pending: false, failure: "Could not reject the follow request: Gone."), requestedBy: true)
            == relationshipLine("3", requestedBy: true, requestAnswer: #"{"accept":false,"pending":false,"failure":"Could not reject the follow request: Gone."}"#))
        #expect(line(ToggleDisplay(isOn: true, pending: false), requestedBy: false)
            == relationshipLine("3", followedBy: true, requestAnswer: #"{"accept":true,"pending":false,"failure":null}"#))
    }

    @Test("an account row is the account's fields and its relationship (null until known); a tag row its name and week's use")
    func rowPayloads() {
        let dan = Profile(author: AccountListsServer.dan, bio: "Counts\nherons.", bot: true, locked: true, movedTo: AccountListsServer.alice)
        let unknown = ListRow.account(AccountRow(profile: dan))
        #expect(JSONLMessage.row(unknown, clock: .fixed(AccountListsServer.now)).json == #"{"id":"account:4","kind":"account","account":"4","handle":"@dan@elsewhere.example","name":"Dan","bio":"Counts\nherons.","bot":true,"locked":true,"group":false,"movedTo":"@alice","relationship":null}"#)
        let display = RelationshipDisplay(relationship: Relationship(accountID: "4", following: true, requestedBy: true), pending: [.follow])
        let known = ListRow.account(AccountRow(profile: dan, relationship: display))
        let relationship = relationshipLine("4", following: true, pending: ["follow"], requestedBy: true)
            .replacingOccurrences(of: #"{"type":"relationship","account":"4","#, with: "{")
        #expect(JSONLMessage.row(known, clock: .fixed(AccountListsServer.now)).json == #"{"id":"account:4","kind":"account","account":"4","handle":"@dan@elsewhere.example","name":"Dan","bio":"Counts\nherons.","bot":true,"locked":true,"group":false,"movedTo":"@alice","relationship":\#(relationship)}"#)
        #expect(JSONLMessage.row(.tag(AccountListsServer.birds), clock: .fixed(AccountListsServer.now)).json == #"{"id":"tag:birds","kind":"tag","name":"Birds","weeklyUses":12,"weeklyAccounts":5,"following":false}"#)
        #expect(JSONLMessage.row(.tag(Hashtag(name: "Pond")), clock: .fixed(AccountListsServer.now)).json == #"{"id":"tag:pond","kind":"tag","name":"Pond","weeklyUses":null,"weeklyAccounts":null,"following":null}"#)
    }
}

/// A server of four accounts for lists of accounts, searches and follow requests: bob's
/// followers are alice and carol; carol and dan asked to follow the user; bob (locked, whom the
/// user follows) is at birds.example, so a search for `Birds` finds him, the hashtag Birds (which
/// trends) and alice's post p1. Home is empty. A ``GatedServer`` whose model answers the calls the
/// tests make; every call is logged (``GatedServer/accountListsLog``: `accounts followers:2`,
/// `search Birds`, `accept 3`, `relationships 1,3`, `follow true 1`…), so each test states the
/// calls it expects; with `refusingFirstAnswer`, the first answer to a follow request is refused
/// (never transient), the next taken. Any other call (a thread, a post, writing…) fails the test.
enum AccountListsServer {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)  // 2026-11-21T18:00:00Z
    static let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    static let bob = Author(id: "2", displayName: "Bob", handle: "bob@birds.example")
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol")
    static let dan = Author(id: "4", displayName: "Dan", handle: "dan@elsewhere.example")
    static let birds = Hashtag(name: "Birds", weeklyUses: 12, weeklyAccounts: 5, following: false)
    static let pond = Post(id: "p1", author: alice, text: "Birds at the pond", createdAt: now.addingTimeInterval(-600))
    static let refusal = "This action is not allowed."

    static func profile(_ author: Author) -> Profile { Profile(author: author, locked: author.id == "2") }

    static func make(refusingFirstAnswer: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel([pond])
        for author in [alice, bob, carol, dan] { model.relationships.profiles[AccountID(author.id)] = profile(author) }
        model.relationships.locked = [AccountID(bob.id)]
        for relationship in [
            Relationship(accountID: "2", following: true), Relationship(accountID: "3", requestedBy: true), Relationship(accountID: "4", requestedBy: true),
        ] {
            model.relationships.byAccount[relationship.accountID] = relationship
        }
        model.relationships.followers[AccountID(bob.id)] = [AccountID(alice.id), AccountID(carol.id)]
        model.tags.trending = [birds]
        model.now = now
        let server = GatedServer(
            model, answering: [.page, .accounts, .search, .relationships, .setRelationship, .answerFollowRequest, .composeSettings],
            sourceLocation: sourceLocation
        )
        if refusingFirstAnswer { server.failNext(1, .answerFollowRequest, with: ServerRefusal(refusal)) }
        return server
    }
}

extension GatedServer {
    /// Every call so far, in order, in the account list tests' words: `page home`,
    /// `accounts followers:2`, `relationships 1,3`, `search Birds`, `accept 3`, `follow true 1`,
    /// `composeSettings`.
    var accountListsLog: [String] {
        calls.map { call in
            switch call.kind {
            case .composeSettings: "composeSettings"
            case .answerFollowRequest: "\(call.value == true ? "accept" : "reject") \(call.key)"
            case .setRelationship: "\(call.relationshipKind.map { "\($0)" } ?? "?") \(call.value.map { "\($0)" } ?? "?") \(call.key)"
            default: "\(call.kind.rawValue) \(call.key)"
            }
        }
    }
}

/// A driver on an ``AccountListsServer`` session, home at the bottom, a retry clock that never
/// moves.
@MainActor
final class AccountListsClient: DriverClient<GatedServer> {
    init(_ server: GatedServer) {
        super.init(server, now: AccountListsServer.now)
    }

    /// The row `id` of `screen`'s mirror, as JSON text with sorted keys.
    func row(_ id: String, on screen: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
        try await mirrors(sourceLocation: sourceLocation)[screen].rows.first { $0["id"] as? String == id }.flatMap(canonical)
    }
}

@MainActor
@Suite("JSON-lines account lists, search and follow requests", .timeLimit(.minutes(10)))
struct JSONLAccountListsDriverTests {
    /// A `changes` message's `deleted`, and the ids of its inserted and updated rows.
    static func summary(_ line: String) -> String {
        let message = WritingClient.object(line)
        let inserted = (message["inserted"] as? [Message] ?? []).compactMap { ($0["row"] as? Message)?["id"] as? String }
        let updated = (message["updated"] as? [Message] ?? []).compactMap { ($0["row"] as? Message)?["id"] as? String }
        return "screen \(message["screen"] as? Int ?? -1): deleted \(message["deleted"] as? [Int] ?? []) inserted \(inserted) updated \(updated)"
    }

    /// Each line of `lines` as its type, a `changes` line as its ``summary(_:)``, a `relationship`
    /// line whole.
    static func outline(_ lines: [String]) -> [String] {
        lines.map { line in
            switch WritingClient.object(line)["type"] as? String {
            case "changes": summary(line)
            case "relationship": line
            case let type: type ?? "?"
            }
        }
    }

    @Test("pushing a followers route lists the accounts, each row with the relationship loaded with the page (never bare first)")
    func followers() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        #expect(await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"followers:2"},"id":"p"}"#) == [
            #"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"accounts","list":"followers:2"}]}"#,
            #"{"type":"timeline","screen":1,"count":0,"rows":[],"status":{"loading":null,"failure":null,"olderFailure":null,"end":false,"waiting":0}}"#,
            #"{"type":"changes","screen":1,"count":0,"deleted":[],"inserted":[],"moved":[],"updated":[],"status":{"loading":"firstPage","failure":null,"olderFailure":null,"end":false,"waiting":0}}"#,
            #"{"type":"ok","cmd":"push","id":"p"}"#,
        ])
        #expect(Self.outline(await client.wait()) == [
            relationshipLine("1"), relationshipLine("3", requestedBy: true),
            "screen 1: deleted [] inserted [\"account:1\", \"account:3\"] updated []",
        ])
        #expect(try await client.rowIDs(1) == ["account:1", "account:3"])
        let carol = try await client.row("account:3", on: 1)
        #expect(carol == canonical([
            "id": "account:3", "kind": "account", "account": "3", "handle": "@carol", "name": "Carol", "bio": "", "bot": false, "locked": false,
            "group": false, "movedTo": NSNull(),
            "relationship": relationshipObject("3", requestedBy: true),
        ] as [String: Any]))
        #expect(client.server.accountListsLog == ["page home", "accounts followers:2", "relationships 1,3"])
    }

    @Test("search pushes the search route: accounts, then hashtags, then posts, as rows of their kinds")
    func search() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        let pushed = await client.send(#"{"cmd":"search","query":"Birds","id":"s"}"#)
        #expect(pushed.first == #"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"search","query":"Birds"}]}"#)
        #expect(pushed.last == #"{"type":"ok","cmd":"search","id":"s"}"#)
        await client.wait()
        let rows = try await client.mirrors()[1].rows
        #expect(rows.compactMap { $0["id"] as? String } == ["account:2", "tag:birds", "post:p1"])
        #expect(rows.compactMap { $0["kind"] as? String } == ["account", "tag", "post"])
        #expect(rows.first.flatMap(canonical) == canonical([
            "id": "account:2", "kind": "account", "account": "2", "handle": "@bob@birds.example", "name": "Bob", "bio": "", "bot": false, "locked": true,
            "group": false, "movedTo": NSNull(), "relationship": relationshipObject("2", following: true),
        ] as [String: Any]))
        #expect(rows.dropFirst().first.flatMap(canonical) == canonical(["id": "tag:birds", "kind": "tag", "name": "Birds", "weeklyUses": 12, "weeklyAccounts": 5, "following": false] as [String: Any]))
        #expect(rows.last?["text"] as? String == "Birds at the pond")
        #expect(client.server.accountListsLog == ["page home", "search Birds", "relationships 2"])
        // push of the same route is the same screen again.
        let again = await client.send(#"{"cmd":"push","route":{"route":"search","query":"Birds"}}"#)
        #expect(again.first == #"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"search","query":"Birds"},{"route":"search","query":"Birds"}]}"#)
    }

    @Test("accept shows the answer on its way before the ok; once taken, the row leaves the requests screen and they follow you")
    func accept() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"requests"}}"#)
        #expect(AccountsClient.only("relationship", await client.wait()) == [relationshipLine("3", requestedBy: true), relationshipLine("4", requestedBy: true)])
        #expect(try await client.rowIDs(1) == ["account:3", "account:4"])
        let pending = #"{"accept":true,"pending":true,"failure":null}"#
        #expect(Self.outline(await client.send(#"{"cmd":"accept","row":"account:3","id":"a"}"#)) == [
            relationshipLine("3", requestedBy: true, requestAnswer: pending), "screen 1: deleted [] inserted [] updated [\"account:3\"]", "ok",
        ])
        // A second answer while the first is on its way is refused, and nothing more is sent.
        #expect(await client.send(#"{"cmd":"reject","row":"account:3","id":"b"}"#) == [
            JSONLMessage.error("The follow request of @carol is being accepted already.", id: "b").json
        ])
        // The server's answer: the relationship says so first, then the row goes. (Every
        // relationship message of it says the same.)
        let taken = relationshipLine("3", followedBy: true, requestAnswer: #"{"accept":true,"pending":false,"failure":null}"#)
        let answered = await client.wait()
        #expect(answered.first == taken)
        #expect(Set(AccountsClient.only("relationship", answered)) == [taken])
        #expect(AccountsClient.only("changes", answered).map(Self.summary) == ["screen 1: deleted [0] inserted [] updated []"])
        #expect(try await client.rowIDs(1) == ["account:4"])
        #expect(client.server.accountListsLog == ["page home", "accounts requests", "relationships 3,4", "accept 3"])
        // The row is gone: answering it again is refused.
        #expect(await client.send(#"{"cmd":"accept","row":"account:3","id":"c"}"#) == [
            JSONLMessage.error("There is no follow request account:3 on screen 1.", id: "c").json
        ])
        // A fresh load of the requests no longer has it.
        await client.send(#"{"cmd":"refresh"}"#)
        await client.wait()
        #expect(try await client.rowIDs(1) == ["account:4"])
    }

    @Test("a refused answer says why on the row, which stays; answering again is sent again and taken")
    func refusedThenAnsweredAgain() async throws {
        let client = AccountListsClient(AccountListsServer.make(refusingFirstAnswer: true))
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"requests"}}"#)
        await client.wait()
        await client.send(#"{"cmd":"reject","row":"account:4","screen":1}"#)
        let failed = #"{"accept":false,"pending":false,"failure":"Could not reject the follow request: \#(AccountListsServer.refusal)"}"#
        #expect(Self.outline(await client.wait()) == [
            relationshipLine("4", requestedBy: true, requestAnswer: failed), "screen 1: deleted [] inserted [] updated [\"account:4\"]",
        ])
        #expect(try await client.rowIDs(1) == ["account:3", "account:4"])
        let row = try #require(try await client.mirrors()[1].rows.last)
        #expect(canonical(row["relationship"] ?? NSNull()) == canonical(relationshipObject("4", requestedBy: true, requestAnswer: failed)))
        // Answering again: on its way again, the failure gone.
        #expect(Self.outline(await client.send(#"{"cmd":"reject","row":"account:4","id":"again"}"#)) == [
            relationshipLine("4", requestedBy: true, requestAnswer: #"{"accept":false,"pending":true,"failure":null}"#),
            "screen 1: deleted [] inserted [] updated [\"account:4\"]", "ok",
        ])
        let answered = await client.wait()
        let taken = relationshipLine("4", requestAnswer: #"{"accept":false,"pending":false,"failure":null}"#)
        #expect(answered.first == taken)
        #expect(Set(AccountsClient.only("relationship", answered)) == [taken])
        #expect(AccountsClient.only("changes", answered).map(Self.summary) == ["screen 1: deleted [1] inserted [] updated []"])
        #expect(try await client.rowIDs(1) == ["account:3"])
        #expect(client.server.accountListsLog == ["page home", "accounts requests", "relationships 3,4", "reject 4", "reject 4"])
    }

    @Test("a follow of an account row's account shows at once on every screen with a row of it, covered or not; the answer confirms it")
    func followFromAccountRow() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"followers:2"}}"#)
        await client.wait()
        await client.send(#"{"cmd":"search","query":"Birds"}"#)
        await client.wait()
        let alice = try #require(try await client.mirrors()[1].rows.first)
        let account = try #require(alice["account"] as? String)
        #expect(account == "1")
        #expect(Self.outline(await client.send(#"{"cmd":"follow","account":"\#(account)","id":"f"}"#)) == [
            relationshipLine("1", following: true, pending: ["follow"]), "screen 1: deleted [] inserted [] updated [\"account:1\"]", "ok",
        ])
        #expect(Self.outline(await client.wait()) == [relationshipLine("1", following: true), "screen 1: deleted [] inserted [] updated [\"account:1\"]"])
        let followed = try #require(try await client.mirrors()[1].rows.first)
        #expect(canonical(followed["relationship"] ?? NSNull()) == canonical(relationshipObject("1", following: true)))
        // bob's row is on the search screen (2): a follow of bob updates it there.
        #expect(Self.outline(await client.send(#"{"cmd":"follow","account":"2","value":false}"#)) == [
            relationshipLine("2", pending: ["follow"]), "screen 2: deleted [] inserted [] updated [\"account:2\"]", "ok",
        ])
        await client.wait()
        _ = try await client.mirrors()
        #expect(client.server.accountListsLog == ["page home", "accounts followers:2", "relationships 1,3", "search Birds", "relationships 2", "follow true 1", "follow false 2"])
    }

    @Test("a mute takes the account's posts off a search, at once, and leaves its account row, which shows the mute")
    func muteOnSearch() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        await client.send(#"{"cmd":"search","query":"Birds"}"#)
        await client.wait()
        // alice wrote p1; bob is the account row.
        let alice = await client.send(#"{"cmd":"mute","account":"1"}"#)
        #expect(Self.outline(alice) == ["screen 1: deleted [2] inserted [] updated []", relationshipLine("1", muting: true, mutingNotifications: true, pending: ["mute"]), "ok"])
        let bob = await client.send(#"{"cmd":"mute","account":"2"}"#)
        #expect(Self.outline(bob) == [
            relationshipLine("2", following: true, muting: true, mutingNotifications: true, pending: ["mute"]),
            "screen 1: deleted [] inserted [] updated [\"account:2\"]", "ok",
        ])
        await client.wait()
        #expect(try await client.rowIDs(1) == ["account:2", "tag:birds"])
        // The two mutes are in flight at once: they may reach the server in either order.
        let calls = client.server.accountListsLog
        #expect(calls.prefix(4) == ["page home", "search Birds", "relationships 2", "composeSettings"])
        #expect(calls.count == 6 && Set(calls.suffix(2)) == ["mute true 1", "mute true 2"], "\(calls)")
    }

    @Test("accept and reject refuse what is not a follow request on a requests screen, and ask nothing; bad routes are errors")
    func refusals() async throws {
        let client = AccountListsClient(AccountListsServer.make())
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"followers:2"}}"#)
        await client.wait()
        let calls = client.server.accountListsLog
        #expect(await client.send(#"{"cmd":"accept","row":"account:3","id":1}"#) == [
            JSONLMessage.error(#"Screen 1 is not your follow requests; push {"route":"accounts","list":"requests"} and answer its rows."#, id: 1).json
        ])
        #expect(await client.send(#"{"cmd":"reject","row":"account:3","screen":0,"id":2}"#) == [
            JSONLMessage.error(#"Screen 0 is not your follow requests; push {"route":"accounts","list":"requests"} and answer its rows."#, id: 2).json
        ])
        #expect(await client.send(#"{"cmd":"accept","row":"account:3","screen":4,"id":3}"#) == [
            JSONLMessage.error("There is no screen 4; the stack has 2 (0–1).", id: 3).json
        ])
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"requests"}}"#)
        await client.wait()
        #expect(await client.send(#"{"cmd":"accept","row":"account:1","id":4}"#) == [
            JSONLMessage.error("There is no follow request account:1 on screen 2.", id: 4).json
        ])
        #expect(await client.send(#"{"cmd":"accept","row":"tag:birds","id":5}"#) == [
            JSONLMessage.error(#"accept: tag:birds is a hashtag row, not an account; a follow request is an account row such as "account:109302"."#, id: 5).json
        ])
        #expect(await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"fans"},"id":6}"#) == [
            JSONLMessage.error(JSONLAccountListCommandTests.listUsage, id: 6).json
        ])
        #expect(await client.send(#"{"cmd":"search","query":"  ","id":7}"#) == [
            JSONLMessage.error("search needs \(JSONLAccountListCommandTests.query)", id: 7).json
        ])
        #expect(await client.send(#"{"cmd":"follow","account":"account:3","id":8}"#) == [
            JSONLMessage.error(#"follow: account:3 is a row id; the account's id is 3, the row's "account"."#, id: 8).json
        ])
        await client.wait()
        #expect(client.server.accountListsLog == calls + ["accounts requests", "relationships 3,4"])
        #expect(try await client.rowIDs(2) == ["account:3", "account:4"])
    }
}

/// The account lists example of Docs/JSONL.md, replayed through the binary: a golden transcript.
@MainActor
@Suite("feedline --jsonl account lists through the binary", .timeLimit(.minutes(10)))
struct JSONLAccountListsBinaryTests {
    @Test("the account lists example in Docs/JSONL.md is what the binary prints (… stands for trimmed text)")
    func documentedExample() async throws {
        let commands = try await DocumentedExample.check(
            heading: "Account lists example", flags: ["--jsonl", "--no-stream", "--now", "2026-11-21T18:00:00Z", "--posts-per-page", "3"]
        )
        #expect(commands == 14)
    }
}

/// The `relationship` of an account row: the `relationship` message's fields without `type`
/// and `account`, as a JSON object.
func relationshipObject(
    _ account: String, following: Bool = false, followedBy: Bool = false, pending: [String] = [], requestedBy: Bool = false,
    requestAnswer: String = "null"
) -> Message {
    let line = relationshipLine(account, following: following, followedBy: followedBy, pending: pending, requestedBy: requestedBy, requestAnswer: requestAnswer)
    var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? Message ?? [:]
    object["type"] = nil
    object["account"] = nil
    return object
}
