@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

/// A `domainBlock` message line as the driver writes it: every field, in order.
func domainBlockLine(_ domain: String, blocked: Bool, pending: Bool = false, failure: String? = nil) -> String {
    #"{"type":"domainBlock","domain":"\#(domain)","blocked":\#(blocked),"pending":\#(pending),"failure":\#(failure.map { "\"\($0)\"" } ?? "null")}"#
}

@Suite("JSON-lines domain blocks: lines and payloads")
struct JSONLDomainBlockCommandTests {
    @Test("blockDomain and unblockDomain parse: a domain keyed as the store keys it, a domain row's domain, other rows for the driver", arguments: [
        (#"{"cmd":"blockDomain","domain":"promo.example"}"#, JSONLCommand(action: .domainBlock(.domain("promo.example"), value: true, screen: nil), name: "blockDomain")),
        (#"{"cmd":"blockDomain","domain":" @Promo.Example ","id":1}"#, JSONLCommand(id: 1, action: .domainBlock(.domain("promo.example"), value: true, screen: nil), name: "blockDomain")),
        (#"{"cmd":"blockDomain","domain":"127.0.0.1:38111","value":false}"#, JSONLCommand(action: .domainBlock(.domain("127.0.0.1:38111"), value: false, screen: nil), name: "blockDomain")),
        // unblockDomain reads no "value".
        (#"{"cmd":"unblockDomain","domain":"promo.example","value":true}"#, JSONLCommand(action: .domainBlock(.domain("promo.example"), value: false, screen: nil), name: "unblockDomain")),
        (#"{"cmd":"unblockDomain","domain":"promo.example","value":"yes"}"#, JSONLCommand(action: .domainBlock(.domain("promo.example"), value: false, screen: nil), name: "unblockDomain")),
        // A domain row names its domain: no screen needs to show it.
        (#"{"cmd":"unblockDomain","row":"domain:Spam.Example","screen":1}"#, JSONLCommand(action: .domainBlock(.domain("spam.example"), value: false, screen: 1), name: "unblockDomain")),
        (#"{"cmd":"blockDomain","row":"account:3","screen":1,"id":"a"}"#, JSONLCommand(id: "a", action: .domainBlock(.row(.account("3")), value: true, screen: 1), name: "blockDomain")),
        (#"{"cmd":"blockDomain","row":"post:b1"}"#, JSONLCommand(action: .domainBlock(.row(.post("b1")), value: true, screen: nil), name: "blockDomain")),
        (#"{"cmd":"blockDomain","row":"notification:fav-1"}"#, JSONLCommand(action: .domainBlock(.row(.notification("fav-1")), value: true, screen: nil), name: "blockDomain")),
        (#"{"cmd":"push","route":{"route":"domainBlocks"},"id":2}"#, JSONLCommand(id: 2, action: .push(.list(.domainBlocks)), name: "push")),
        (#"{"cmd":"display","rows":["domain:spam.example"],"screen":1}"#, JSONLCommand(action: .display([.domain("spam.example")], screen: 1), name: "display")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static func usage(_ name: String) -> String {
        #"\#(name) needs "domain": a domain such as "promo.example", or "row": a domain, account, post or notification row id such as "domain:promo.example", "account:109302" or "post:123"."#
    }

    static func notADomain(_ name: String, _ text: String) -> String {
        #"\#(name): \#(text) is not a domain; a domain is a host name such as "promo.example"."#
    }

    @Test("bad domain block lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"blockDomain","id":1}"#, Self.usage("blockDomain"), 1),
        (#"{"cmd":"unblockDomain","domain":""}"#, Self.usage("unblockDomain"), nil),
        (#"{"cmd":"blockDomain","domain":5}"#, Self.usage("blockDomain"), nil),
        (#"{"cmd":"blockDomain","row":"row:1"}"#, Self.usage("blockDomain"), nil),
        (#"{"cmd":"blockDomain","row":"gap:1"}"#, Self.usage("blockDomain"), nil),
        (#"{"cmd":"blockDomain","domain":"not a domain","id":"d"}"#, Self.notADomain("blockDomain", "not a domain"), "d"),
        (#"{"cmd":"blockDomain","domain":"localhost"}"#, Self.notADomain("blockDomain", "localhost"), nil),
        (#"{"cmd":"blockDomain","domain":"https://promo.example/"}"#, Self.notADomain("blockDomain", "https://promo.example/"), nil),
        (#"{"cmd":"blockDomain","domain":".example"}"#, Self.notADomain("blockDomain", ".example"), nil),
        (#"{"cmd":"unblockDomain","row":"domain:bad domain"}"#, Self.notADomain("unblockDomain", "bad domain"), nil),
        (#"{"cmd":"blockDomain","domain":"\#(String(repeating: "x", count: 60))"}"#, Self.notADomain("blockDomain", String(repeating: "x", count: 40) + "…"), nil),
        // A handle, with or without its leading @, says which domain it is on.
        (#"{"cmd":"blockDomain","domain":"@kemi@fieldnotes.science","id":"h"}"#, "blockDomain: @kemi@fieldnotes.science is a handle, not a domain; its domain is fieldnotes.science.", "h"),
        (#"{"cmd":"blockDomain","domain":"Kemi@FieldNotes.science"}"#, "blockDomain: @kemi@fieldnotes.science is a handle, not a domain; its domain is fieldnotes.science.", nil),
        (#"{"cmd":"blockDomain","row":"tag:birds","id":"t"}"#, "blockDomain: tag:birds is a hashtag row, not an account or a domain.", "t"),
        (#"{"cmd":"blockDomain","domain":"promo.example","row":"post:b1"}"#, #"blockDomain takes "domain" or "row", not both."#, nil),
        (#"{"cmd":"blockDomain","domain":"promo.example","value":"yes"}"#, #"blockDomain: "value" is true or false, not "yes"."#, nil),
        (#"{"cmd":"blockDomain","row":"post:b1","screen":"top"}"#, #"blockDomain: "screen" is the index of a screen on the stack (0 at the bottom), not "top"."#, nil),
        (#"{"cmd":"blockdomain","domain":"promo.example"}"#, "Unknown command \"blockdomain\". Did you mean \"blockDomain\"? Commands: \(JSONLCommandTests.commandList).", nil),
        (#"{"cmd":"push","route":{"route":"domainblocks"}}"#, "push: unknown route \"domainblocks\"; \(JSONLCommandTests.routeUsage)", nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    @Test("a domainBlock message and a domain row have the same fields, in order; the route is written as push reads it back")
    func payloads() throws {
        let failure = "Could not block the domain promo.example: Forbidden."
        let change = DomainBlockChange(domain: "promo.example", display: ToggleDisplay(isOn: false, failure: failure))
        #expect(JSONLMessage.domainBlock(change).json == domainBlockLine("promo.example", blocked: false, failure: failure))
        let pending = DomainBlockChange(domain: "spam.example", display: ToggleDisplay(isOn: true, pending: true))
        #expect(JSONLMessage.domainBlock(pending).json == #"{"type":"domainBlock","domain":"spam.example","blocked":true,"pending":true,"failure":null}"#)
        let row = ListRow.domain("spam.example", block: ToggleDisplay(isOn: true, pending: true))
        #expect(JSONLMessage.row(row, clock: .fixed(DomainBlocksServer.now)).json == #"{"id":"domain:spam.example","kind":"domain","domain":"spam.example","blocked":true,"pending":true,"failure":null}"#)
        #expect(JSONLMessage.routes([.list(.feed(.home)), .list(.domainBlocks)]).json == #"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"domainBlocks"}]}"#)
        #expect(try JSONLCommand.parse(#"{"cmd":"push","route":{"route":"domainBlocks"}}"#).get().action == .push(.list(.domainBlocks)))
    }
}

/// A server for domain blocks. Home, newest first: alice's a1 (alice is on the user's own
/// server), bob's b1 (bob@promo.example), alice's boost w1 of bob's b2, carol's c1
/// (carol@elsewhere.example). The user blocked spam.example already; alice's followers are carol;
/// the one notification group says bob favourited a1.
///
/// Every call is answered at once from the model of a ``GatedServer`` and logged (``GatedServer/log``:
/// `page home`, `domainBlocks`, `block promo.example`, `unblock spam.example`,
/// `accounts followers:1`, `relationships 3`, `notifications`), so each test states the calls it
/// expects; a domain block change of a domain in `refusing` is refused (never transient). Any
/// other call fails the test.
enum DomainBlocksServer {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)  // 2026-11-21T18:00:00Z
    static let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    static let bob = Author(id: "2", displayName: "Bob", handle: "bob@promo.example")
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol@elsewhere.example")
    static let refusal = "This action is not allowed."
    static let favourited = "favourite-a1"

    static func post(_ id: String, _ minutesAgo: Double, _ author: Author, reblog: Post? = nil) -> Post {
        Post(id: PostID(id), author: author, text: "Post \(id)", createdAt: now.addingTimeInterval(-60 * minutesAgo), reblog: reblog)
    }

    static var home: [Post] {
        [post("a1", 1, alice), post("b1", 2, bob), post("w1", 3, alice, reblog: post("b2", 30, bob)), post("c1", 4, carol)]
    }

    static func make(refusing: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel(home)
        model.timelines.feeds[.home] = home.map(\.id)
        model.timelines.notifications = [
            NotificationGroup(
                id: favourited, kind: .favourite, accounts: [bob], count: 1, post: home[0], latestAt: now.addingTimeInterval(-30), newestID: "n1"
            )
        ]
        model.domainBlocks = ServerDomainBlocks(["spam.example"])
        model.relationships.profiles["3"] = Profile(author: carol)
        model.relationships.followers["1"] = ["3"]
        let server = GatedServer(model, answering: [.notifications, .domainBlocks, .setDomainBlock, .relationships], sourceLocation: sourceLocation)
        server.answer(.page, key: Feed.home.description)
        server.answer(.accounts, key: AccountList.followers("1").description)
        for domain in refusing { server.fail(.setDomainBlock, key: domain, with: Refused()) }
        return server
    }

    struct Refused: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { DomainBlocksServer.refusal }
    }
}

extension GatedServer {
    /// Every call so far as a line: `page home`, `block promo.example`, `relationships 3`, …
    var log: [String] {
        calls.map { call in
            switch call.kind {
            case .setDomainBlock: "\(call.value == true ? "block" : "unblock") \(call.key)"
            case .page, .accounts, .relationships: "\(call.kind.rawValue) \(call.key)"
            default: call.kind.rawValue
            }
        }
    }
}

/// A driver on a ``DomainBlocksServer`` session, home at the bottom, a retry clock that never
/// moves.
@MainActor
final class DomainBlocksClient: DriverClient<GatedServer> {
    init(_ server: GatedServer) {
        super.init(server, now: DomainBlocksServer.now)
    }

    /// Every `domainBlock` message written so far.
    var domainBlockLines: [String] { written("domainBlock") }
}

@MainActor
@Suite("JSON-lines domain blocks", .timeLimit(.minutes(10)))
struct JSONLDomainBlocksDriverTests {
    /// Each line of `lines` as its type, a `changes` line as its summary, a `domainBlock` line whole.
    static func outline(_ lines: [String]) -> [String] {
        lines.map { line in
            switch WritingClient.object(line)["type"] as? String {
            case "changes": JSONLAccountListsDriverTests.summary(line)
            case "domainBlock": line
            case let type: type ?? "?"
            }
        }
    }

    static let home = ["post:a1", "post:b1", "post:w1", "post:c1"]

    @Test("blockDomain takes the domain's posts and boosts of them off home at once, before the pending domainBlock and the ok; the answer confirms it")
    func block() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make())
        await client.start()
        #expect(try await client.rowIDs(0) == Self.home)
        #expect(Self.outline(await client.send(#"{"cmd":"blockDomain","domain":"Promo.Example","id":"b"}"#)) == [
            "screen 0: deleted [1, 2] inserted [] updated []",
            domainBlockLine("promo.example", blocked: true, pending: true),
            "ok",
        ])
        #expect(try await client.rowIDs(0) == ["post:a1", "post:c1"])
        #expect(await client.wait() == [domainBlockLine("promo.example", blocked: true)])
        #expect(client.server.log == ["page home", "block promo.example"])
        #expect(try await client.rowIDs(0) == ["post:a1", "post:c1"])
        // Set again to what it is: nothing happens, nothing is asked.
        #expect(await client.send(#"{"cmd":"blockDomain","domain":"promo.example","id":"again"}"#) == [#"{"type":"ok","cmd":"blockDomain","id":"again"}"#])
        #expect(await client.wait() == [])
        // Unblocking puts nothing back at once (later loads bring the posts again).
        #expect(Self.outline(await client.send(#"{"cmd":"unblockDomain","domain":"promo.example"}"#)) == [
            domainBlockLine("promo.example", blocked: false, pending: true), "ok",
        ])
        #expect(await client.wait() == [domainBlockLine("promo.example", blocked: false)])
        #expect(client.server.log == ["page home", "block promo.example", "unblock promo.example"])
        #expect(try await client.rowIDs(0) == ["post:a1", "post:c1"])
    }

    @Test("a refused block puts the rows back where they were and says why; retry does not send it again")
    func refused() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make(refusing: ["promo.example"]))
        await client.start()
        // The boost w1 names bob's domain: its row shows his post.
        #expect(Self.outline(await client.send(#"{"cmd":"blockDomain","row":"post:w1","id":"r"}"#)) == [
            "screen 0: deleted [1, 2] inserted [] updated []",
            domainBlockLine("promo.example", blocked: true, pending: true),
            "ok",
        ])
        let failure = "Could not block the domain promo.example: \(DomainBlocksServer.refusal)"
        #expect(Self.outline(await client.wait()) == [
            #"screen 0: deleted [] inserted ["post:b1", "post:w1"] updated []"#,
            domainBlockLine("promo.example", blocked: false, failure: failure),
        ])
        #expect(try await client.rowIDs(0) == Self.home)
        #expect(client.server.log == ["page home", "block promo.example"])
        // retry does not send a refusal again (the server would refuse it again).
        #expect(Self.outline(await client.send(#"{"cmd":"retry","id":"t"}"#)) == ["ok"])
        await client.wait()
        #expect(try await client.rowIDs(0) == Self.home)
        #expect(client.server.log == ["page home", "block promo.example"])
    }

    @Test("the domainBlocks route lists the blocked domains as domain rows; an unblock updates the row in place and leaves it")
    func domainBlocksRoute() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make())
        await client.start()
        #expect(Self.outline(await client.send(#"{"cmd":"push","route":{"route":"domainBlocks"},"id":"p"}"#)) == [
            "routes", "timeline", "screen 1: deleted [] inserted [] updated []", "ok",
        ])
        #expect(client.lines.contains(#"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"domainBlocks"}]}"#))
        // The page first, then what the store learnt from it.
        #expect(Self.outline(await client.wait()) == [
            #"screen 1: deleted [] inserted ["domain:spam.example"] updated []"#,
            domainBlockLine("spam.example", blocked: true),
        ])
        let blocked = try #require(try await client.mirrors()[1].rows.first)
        #expect(canonical(blocked) == canonical(["id": "domain:spam.example", "kind": "domain", "domain": "spam.example", "blocked": true, "pending": false, "failure": NSNull()] as [String: Any]))
        #expect(Self.outline(await client.send(#"{"cmd":"unblockDomain","row":"domain:spam.example","id":"u"}"#)) == [
            domainBlockLine("spam.example", blocked: false, pending: true),
            #"screen 1: deleted [] inserted [] updated ["domain:spam.example"]"#,
            "ok",
        ])
        #expect(Self.outline(await client.wait()) == [
            domainBlockLine("spam.example", blocked: false),
            #"screen 1: deleted [] inserted [] updated ["domain:spam.example"]"#,
        ])
        let unblocked = try #require(try await client.mirrors()[1].rows.first)
        #expect(canonical(unblocked) == canonical(["id": "domain:spam.example", "kind": "domain", "domain": "spam.example", "blocked": false, "pending": false, "failure": NSNull()] as [String: Any]))
        #expect(try await client.rowIDs(1) == ["domain:spam.example"])
        #expect(try await client.rowIDs(0) == Self.home)
        // The list asks once for the blocked domains (the store hears of them after the page
        // is applied: telling it first re-ran the list's requests while the page still showed
        // as loading, and the first page was asked for twice).
        #expect(client.server.log == ["page home", "domainBlocks", "unblock spam.example"])
    }

    @Test("an account row names its account's domain: the block takes that domain's posts off home, and the account row stays")
    func accountRow() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make())
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"followers:1"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(0) == Self.home)
        #expect(try await client.rowIDs(1) == ["account:3"])
        #expect(Self.outline(await client.send(#"{"cmd":"blockDomain","row":"account:3","screen":1}"#)) == [
            "screen 0: deleted [3] inserted [] updated []",
            domainBlockLine("elsewhere.example", blocked: true, pending: true),
            "ok",
        ])
        #expect(await client.wait() == [domainBlockLine("elsewhere.example", blocked: true)])
        #expect(try await client.rowIDs(0) == ["post:a1", "post:b1", "post:w1"])
        #expect(try await client.rowIDs(1) == ["account:3"])
        #expect(client.server.log == ["page home", "accounts followers:1", "relationships 3", "block elsewhere.example"])
    }

    @Test("a notification row names its first account's domain: the block takes the group off the notifications and the domain's posts off home")
    func notificationRow() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make())
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"notifications"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(1) == ["notification:\(DomainBlocksServer.favourited)"])
        #expect(Self.outline(await client.send(#"{"cmd":"blockDomain","row":"notification:\#(DomainBlocksServer.favourited)"}"#)) == [
            "screen 0: deleted [1, 2] inserted [] updated []",
            "screen 1: deleted [0] inserted [] updated []",
            domainBlockLine("promo.example", blocked: true, pending: true),
            "ok",
        ])
        await client.wait()
        #expect(try await client.rowIDs(0) == ["post:a1", "post:c1"])
        #expect(try await client.rowIDs(1) == [])
        #expect(client.server.log == ["page home", "notifications", "block promo.example"])
    }

    @Test("what names no remote domain is refused with one sentence, and nothing is asked or hidden")
    func refusals() async throws {
        let client = DomainBlocksClient(DomainBlocksServer.make())
        await client.start()
        let written = client.lines.count
        #expect(await client.send(#"{"cmd":"blockDomain","row":"post:a1","id":1}"#) == [
            JSONLMessage.error(#"@alice is on your own server, which cannot be blocked as a domain; {"cmd":"block","account":"1"} blocks the account."#, id: 1).json
        ])
        #expect(await client.send(#"{"cmd":"blockDomain","row":"post:nope","id":2}"#) == [
            JSONLMessage.error("There is no row post:nope on screen 0.", id: 2).json
        ])
        #expect(await client.send(#"{"cmd":"blockDomain","row":"post:b1","screen":3,"id":3}"#) == [
            JSONLMessage.error("There is no screen 3; the stack has 1 (0–0).", id: 3).json
        ])
        #expect(await client.send(#"{"cmd":"blockDomain","domain":"not a domain","id":4}"#) == [
            JSONLMessage.error(JSONLDomainBlockCommandTests.notADomain("blockDomain", "not a domain"), id: 4).json
        ])
        #expect(await client.send(#"{"cmd":"blockDomain","row":"tag:birds","id":5}"#) == [
            JSONLMessage.error("blockDomain: tag:birds is a hashtag row, not an account or a domain.", id: 5).json
        ])
        #expect(await client.send(#"{"cmd":"unblockDomain","domain":"@bob@promo.example","id":6}"#) == [
            JSONLMessage.error("unblockDomain: @bob@promo.example is a handle, not a domain; its domain is promo.example.", id: 6).json
        ])
        await client.wait()
        #expect(client.lines.count == written + 8)
        #expect(client.domainBlockLines.isEmpty)
        #expect(try await client.rowIDs(0) == Self.home)
        #expect(client.server.log == ["page home"])
    }
}
