@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

/// A `tagFollow` message line as the driver writes it: every field, in order.
func tagFollowLine(_ tag: String, following: Bool, pending: Bool = false, failure: String? = nil) -> String {
    #"{"type":"tagFollow","tag":"\#(tag)","following":\#(following),"pending":\#(pending),"failure":\#(failure.map { "\"\($0)\"" } ?? "null")}"#
}

@Suite("JSON-lines hashtags and trends: lines and payloads")
struct JSONLTagCommandTests {
    @Test("followTag and unfollowTag parse to the tag store's key; the tag routes and the trending feed parse", arguments: [
        (#"{"cmd":"followTag","tag":"birds"}"#, JSONLCommand(action: .tagFollow("birds", value: true), name: "followTag")),
        (#"{"cmd":"followTag","tag":" #Birds ","id":1}"#, JSONLCommand(id: 1, action: .tagFollow("birds", value: true), name: "followTag")),
        (#"{"cmd":"followTag","tag":"pond_life2","value":false}"#, JSONLCommand(action: .tagFollow("pond_life2", value: false), name: "followTag")),
        (#"{"cmd":"followTag","tag":"Ökologie"}"#, JSONLCommand(action: .tagFollow("ökologie", value: true), name: "followTag")),
        // unfollowTag reads no "value".
        (#"{"cmd":"unfollowTag","tag":"birds","value":true}"#, JSONLCommand(action: .tagFollow("birds", value: false), name: "unfollowTag")),
        (#"{"cmd":"unfollowTag","tag":"birds","value":"yes"}"#, JSONLCommand(action: .tagFollow("birds", value: false), name: "unfollowTag")),
        // A hashtag row names its hashtag: no screen needs to show it ("screen" is not read).
        (#"{"cmd":"followTag","row":"tag:Swift","id":"r"}"#, JSONLCommand(id: "r", action: .tagFollow("swift", value: true), name: "followTag")),
        (#"{"cmd":"unfollowTag","row":"tag:#swift","screen":"top"}"#, JSONLCommand(action: .tagFollow("swift", value: false), name: "unfollowTag")),
        (#"{"cmd":"push","route":{"route":"followedTags"},"id":2}"#, JSONLCommand(id: 2, action: .push(.list(.followedTags)), name: "push")),
        (#"{"cmd":"push","route":{"route":"trendingTags"}}"#, JSONLCommand(action: .push(.list(.trendingTags)), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"trending"}}"#, JSONLCommand(action: .push(.list(.feed(.trending))), name: "push")),
        (#"{"cmd":"root","feed":"trending"}"#, JSONLCommand(action: .root(.trending), name: "root")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static func usage(_ name: String) -> String {
        ##"\##(name) needs "tag": a hashtag's name such as "birds" or "#birds", or "row": a hashtag row id such as "tag:birds"."##
    }

    static func notATag(_ name: String, _ text: String) -> String {
        #"\#(name): \#(text) is not a hashtag; a hashtag's name is letters, digits and underscores, such as "birds"."#
    }

    @Test("bad hashtag lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"followTag","id":1}"#, Self.usage("followTag"), 1),
        (#"{"cmd":"unfollowTag","tag":""}"#, Self.usage("unfollowTag"), nil),
        (#"{"cmd":"followTag","tag":["birds"]}"#, Self.usage("followTag"), nil),
        (#"{"cmd":"followTag","row":"birds"}"#, Self.usage("followTag"), nil),
        (#"{"cmd":"followTag","row":"post:1"}"#, Self.usage("followTag"), nil),
        (#"{"cmd":"followTag","row":"domain:promo.example"}"#, Self.usage("followTag"), nil),
        (#"{"cmd":"followTag","tag":"bird watching","id":"b"}"#, Self.notATag("followTag", "bird watching"), "b"),
        (##"{"cmd":"followTag","tag":"#"}"##, Self.notATag("followTag", "#"), nil),
        (#"{"cmd":"followTag","tag":"c++"}"#, Self.notATag("followTag", "c++"), nil),
        (#"{"cmd":"unfollowTag","row":"tag:no-dashes"}"#, Self.notATag("unfollowTag", "no-dashes"), nil),
        (#"{"cmd":"followTag","row":"account:3","id":"a"}"#, #"followTag: account:3 is an account row, not a hashtag; {"cmd":"follow","account":"3"} follows the account."#, "a"),
        (#"{"cmd":"unfollowTag","row":"account:3"}"#, #"unfollowTag: account:3 is an account row, not a hashtag; {"cmd":"unfollow","account":"3"} unfollows the account."#, nil),
        (#"{"cmd":"followTag","tag":"birds","row":"tag:birds"}"#, #"followTag takes "tag" or "row", not both."#, nil),
        (#"{"cmd":"followTag","tag":"birds","value":1}"#, #"followTag: "value" is true or false, not 1."#, nil),
        (#"{"cmd":"followtag","tag":"birds"}"#, "Unknown command \"followtag\". Did you mean \"followTag\"? Commands: \(JSONLCommandTests.commandList).", nil),
        (#"{"cmd":"push","route":{"route":"trends"}}"#, "push: unknown route \"trends\"; \(JSONLCommandTests.routeUsage)", nil),
        (#"{"cmd":"push","route":{"route":"feed","feed":"trends"}}"#, "push: \(JSONLCommandTests.feedUsage)", nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    @Test("a tagFollow message has every field, in order; the tag routes and the trending feed are written as push reads them back")
    @MainActor
    func payloads() throws {
        let failure = "Could not follow #swift: Forbidden."
        let refused = TagFollowChange(tag: "swift", display: ToggleDisplay(isOn: false, failure: failure))
        #expect(JSONLMessage.tagFollow(refused).json == tagFollowLine("swift", following: false, failure: failure))
        let pending = TagFollowChange(tag: "birds", display: ToggleDisplay(isOn: true, pending: true))
        #expect(JSONLMessage.tagFollow(pending).json == #"{"type":"tagFollow","tag":"birds","following":true,"pending":true,"failure":null}"#)
        let routes: [Route] = [.list(.feed(.trending)), .list(.followedTags), .list(.trendingTags)]
        let written = JSONLMessage.routes(routes).json
        #expect(written == #"{"type":"routes","routes":[{"route":"feed","feed":"trending"},{"route":"followedTags"},{"route":"trendingTags"}]}"#)
        // Each route object, sent back in a push, is the same route.
        let objects = try #require(WritingClient.object(written)["routes"] as? [Any])
        for (route, object) in zip(routes, objects) {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            #expect(try JSONLCommand.parse(#"{"cmd":"push","route":\#(json)}"#).get().action == .push(route))
        }
    }
}

/// A server for hashtags and trends. Home is alice's h1; the trending posts are bob's t1 and
/// carol's t2. The user follows Birds; the trending hashtags are Birds, Swift (each saying
/// whether the user follows it) and Pond (whose `following` the server leaves out).
///
/// A ``GatedServer`` of them answers these calls at once, and ``GatedServer/tagCalls`` lists them
/// (`page home`, `page trending`, `followedTags`, `trendingTags`, `follow swift`, `unfollow
/// birds`), so each test states the calls it expects; a follow change of a hashtag in
/// `refusing` is refused (never transient). Any other call fails the test.
enum TagsServer {
    static let now = Date(timeIntervalSince1970: 1_795_284_000)  // 2026-11-21T18:00:00Z
    static let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    static let bob = Author(id: "2", displayName: "Bob", handle: "bob@promo.example")
    static let carol = Author(id: "3", displayName: "Carol", handle: "carol@elsewhere.example")
    static let refusal = "This action is not allowed."

    static func post(_ id: String, _ minutesAgo: Double, _ author: Author) -> Post {
        Post(id: PostID(id), author: author, text: "Post \(id)", createdAt: now.addingTimeInterval(-60 * minutesAgo))
    }

    static let home = [post("h1", 1, alice)]
    static let trending = [post("t1", 90, bob), post("t2", 30, carol)]

    struct Refused: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { TagsServer.refusal }
    }

    /// The server: it follows Birds; its trends are Birds, Swift and Pond (whose following it
    /// leaves out).
    static func make(refusing: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel(home + trending)
        model.timelines.feeds[.home] = home.map(\.id)
        model.timelines.feeds[.trending] = trending.map(\.id)
        model.tags = ServerTags(["Birds"])
        model.tags.trending = [
            Hashtag(name: "Birds", weeklyUses: 33, weeklyAccounts: 11, following: false), Hashtag(name: "Swift", weeklyUses: 21, weeklyAccounts: 7, following: false),
            Hashtag(name: "Pond", weeklyUses: 9),
        ]
        let server = GatedServer(model, me: alice, answering: [.page, .followedTags, .trendingTags, .setTagFollow], sourceLocation: sourceLocation)
        for name in refusing { server.fail(.setTagFollow, key: name, with: Refused()) }
        return server
    }
}

extension GatedServer {
    /// Every call so far, in order: `page home`, `followedTags`, `trendingTags`, `follow swift`, `unfollow birds`.
    var tagCalls: [String] {
        calls.map { call in
            switch call.kind {
            case .page: "page \(call.key)"
            case .setTagFollow: "\(call.value == true ? "follow" : "unfollow") \(call.key)"
            default: call.kind.rawValue
            }
        }
    }
}

/// A driver on a ``TagsServer`` server's session, home at the bottom, a retry clock that never moves.
@MainActor
final class TagsClient: DriverClient<GatedServer> {
    init(_ server: GatedServer) {
        super.init(server, now: TagsServer.now)
    }

    /// The rows of `screen`'s mirror, each as `ID following` (`true`, `false` or `null`) for a
    /// hashtag row, its id for any other.
    func rows(_ screen: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        try await mirrors(sourceLocation: sourceLocation)[screen].rows.map { row in
            let id = row["id"] as? String ?? "?"
            guard row["kind"] as? String == "tag" else { return id }
            let following = row["following"].map { $0 is NSNull ? "null" : ($0 as? Bool).map(String.init) ?? "?" } ?? "?"
            return "\(id) \(following)"
        }
    }

    /// Every `tagFollow` message written so far.
    var tagFollowLines: [String] { written("tagFollow") }
}

@MainActor
@Suite("JSON-lines hashtags and trends", .timeLimit(.minutes(10)))
struct JSONLTagsDriverTests {
    /// Each line of `lines` as its type, a `changes` line as its summary, a `tagFollow` line whole.
    static func outline(_ lines: [String]) -> [String] {
        lines.map { line in
            switch WritingClient.object(line)["type"] as? String {
            case "changes": JSONLAccountListsDriverTests.summary(line)
            case "tagFollow": line
            case let type: type ?? "?"
            }
        }
    }

    @Test("followTag says at once that the hashtag is followed, pending, before the ok; the server's answer confirms it")
    func follow() async throws {
        let client = TagsClient(TagsServer.make())
        await client.start()
        #expect(await client.send(##"{"cmd":"followTag","tag":"#Swift","id":"f"}"##) == [
            tagFollowLine("swift", following: true, pending: true), #"{"type":"ok","cmd":"followTag","id":"f"}"#,
        ])
        #expect(client.session.tags.follow("swift") == ToggleDisplay(isOn: true, pending: true))
        #expect(await client.wait() == [tagFollowLine("swift", following: true)])
        #expect(client.server.tagCalls == ["page home", "follow swift"])
        // Set again to what it is: nothing happens, nothing is asked.
        #expect(await client.send(#"{"cmd":"followTag","row":"tag:swift","id":"again"}"#) == [#"{"type":"ok","cmd":"followTag","id":"again"}"#])
        #expect(await client.wait() == [])
        #expect(await client.send(#"{"cmd":"unfollowTag","row":"tag:swift"}"#) == [
            tagFollowLine("swift", following: false, pending: true), #"{"type":"ok","cmd":"unfollowTag"}"#,
        ])
        #expect(await client.wait() == [tagFollowLine("swift", following: false)])
        #expect(client.server.tagCalls == ["page home", "follow swift", "unfollow swift"])
        #expect(try await client.rows(0) == ["post:h1"])
    }

    @Test("a hashtag's row is updated in place on every list that shows it, after the tagFollow message and before the ok")
    func rowsFollowTheStore() async throws {
        let client = TagsClient(TagsServer.make())
        await client.start()
        #expect(Self.outline(await client.send(#"{"cmd":"push","route":{"route":"followedTags"},"id":"p"}"#)) == [
            "routes", "timeline", "screen 1: deleted [] inserted [] updated []", "ok",
        ])
        #expect(client.lines.contains(#"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"followedTags"}]}"#))
        // The page first, then what the store learnt from it.
        #expect(Self.outline(await client.wait()) == [
            #"screen 1: deleted [] inserted ["tag:birds"] updated []"#, tagFollowLine("birds", following: true),
        ])
        await client.send(#"{"cmd":"push","route":{"route":"trendingTags"}}"#)
        let trends = Self.outline(await client.wait())
        #expect(trends == [
            #"screen 2: deleted [] inserted ["tag:birds", "tag:swift", "tag:pond"] updated []"#, tagFollowLine("swift", following: false),
        ], "\(trends)")
        #expect(try await client.rows(1) == ["tag:birds true"])
        #expect(try await client.rows(2) == ["tag:birds true", "tag:swift false", "tag:pond null"])
        let birds = try #require(try await client.mirrors()[2].rows.first)
        #expect(canonical(birds) == canonical(["id": "tag:birds", "kind": "tag", "name": "Birds", "weeklyUses": 33, "weeklyAccounts": 11, "following": true] as [String: Any]))

        // Unfollowing Birds changes its row on both lists; the followed list keeps it.
        #expect(Self.outline(await client.send(#"{"cmd":"unfollowTag","tag":"birds","id":"u"}"#)) == [
            tagFollowLine("birds", following: false, pending: true),
            #"screen 1: deleted [] inserted [] updated ["tag:birds"]"#,
            #"screen 2: deleted [] inserted [] updated ["tag:birds"]"#,
            "ok",
        ])
        #expect(try await client.rows(1) == ["tag:birds false"])
        #expect(try await client.rows(2) == ["tag:birds false", "tag:swift false", "tag:pond null"])
        // The answer changes nothing the rows show.
        #expect(Self.outline(await client.wait()) == [tagFollowLine("birds", following: false)])
        // A row whose following the server did not say shows the follow too.
        #expect(Self.outline(await client.send(#"{"cmd":"followTag","row":"tag:pond"}"#)) == [
            tagFollowLine("pond", following: true, pending: true), #"screen 2: deleted [] inserted [] updated ["tag:pond"]"#, "ok",
        ])
        #expect(Self.outline(await client.wait()) == [tagFollowLine("pond", following: true)])
        #expect(try await client.rows(1) == ["tag:birds false"])
        #expect(try await client.rows(2) == ["tag:birds false", "tag:swift false", "tag:pond true"])
        #expect(try await client.rows(0) == ["post:h1"])
        #expect(client.server.tagCalls == ["page home", "followedTags", "trendingTags", "unfollow birds", "follow pond"])
    }

    @Test("a refused follow puts the row back as it was and says why; retry does not ask again")
    func refused() async throws {
        let client = TagsClient(TagsServer.make(refusing: ["swift"]))
        await client.start()
        await client.send(#"{"cmd":"push","route":{"route":"trendingTags"}}"#)
        await client.wait()
        let before = try await client.mirrors()[1].rows
        #expect(try await client.rows(1) == ["tag:birds true", "tag:swift false", "tag:pond null"])
        #expect(Self.outline(await client.send(#"{"cmd":"followTag","tag":"swift","id":"f"}"#)) == [
            tagFollowLine("swift", following: true, pending: true), #"screen 1: deleted [] inserted [] updated ["tag:swift"]"#, "ok",
        ])
        #expect(try await client.rows(1) == ["tag:birds true", "tag:swift true", "tag:pond null"])
        let failure = "Could not follow #swift: \(TagsServer.refusal)"
        #expect(Self.outline(await client.wait()) == [
            tagFollowLine("swift", following: false, failure: failure), #"screen 1: deleted [] inserted [] updated ["tag:swift"]"#,
        ])
        #expect(firstDifference(try await client.mirrors()[1].rows, before) == nil)
        #expect(client.session.tags.follow("swift") == ToggleDisplay(isOn: false, failure: failure))
        #expect(client.server.tagCalls == ["page home", "trendingTags", "follow swift"])
        // retry does not send a refusal again (the server would refuse it again).
        #expect(Self.outline(await client.send(#"{"cmd":"retry","id":"t"}"#)) == ["ok"])
        await client.wait()
        #expect(firstDifference(try await client.mirrors()[1].rows, before) == nil)
        #expect(client.server.tagCalls == ["page home", "trendingTags", "follow swift"])
    }

    @Test("the trending feed route lists the trending posts as post rows")
    func trendingPosts() async throws {
        let client = TagsClient(TagsServer.make())
        await client.start()
        #expect(Self.outline(await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"trending"},"id":"p"}"#)) == [
            "routes", "timeline", "screen 1: deleted [] inserted [] updated []", "ok",
        ])
        #expect(client.lines.contains(#"{"type":"routes","routes":[{"route":"feed","feed":"home"},{"route":"feed","feed":"trending"}]}"#))
        #expect(Self.outline(await client.wait()) == [#"screen 1: deleted [] inserted ["post:t1", "post:t2"] updated []"#])
        let rows = try await client.mirrors()[1].rows
        #expect(rows.map { $0["kind"] as? String } == ["post", "post"])
        #expect(rows.map { ($0["author"] as? Message)?["handle"] as? String } == ["@bob@promo.example", "@carol@elsewhere.example"])
        #expect(try await client.rows(0) == ["post:h1"])
        #expect(client.server.tagCalls == ["page home", "page trending"])
        // As the bottom screen too.
        await client.send(#"{"cmd":"root","feed":"trending"}"#)
        await client.wait()
        #expect(client.lines.contains(#"{"type":"routes","routes":[{"route":"feed","feed":"trending"}]}"#))
        #expect(try await client.rows(0) == ["post:t1", "post:t2"])
        #expect(client.server.tagCalls == ["page home", "page trending", "page trending"])
    }

    @Test("what cannot be a hashtag is refused with one sentence, and nothing is asked or changed")
    func refusals() async throws {
        let client = TagsClient(TagsServer.make())
        await client.start()
        let written = client.lines.count
        #expect(await client.send(#"{"cmd":"followTag","tag":"bird watching","id":1}"#) == [
            JSONLMessage.error(JSONLTagCommandTests.notATag("followTag", "bird watching"), id: 1).json
        ])
        #expect(await client.send(#"{"cmd":"followTag","row":"post:h1","id":2}"#) == [
            JSONLMessage.error(JSONLTagCommandTests.usage("followTag"), id: 2).json
        ])
        #expect(await client.send(#"{"cmd":"unfollowTag","row":"account:1","id":3}"#) == [
            JSONLMessage.error(#"unfollowTag: account:1 is an account row, not a hashtag; {"cmd":"unfollow","account":"1"} unfollows the account."#, id: 3).json
        ])
        #expect(await client.send(#"{"cmd":"followTag","id":4}"#) == [JSONLMessage.error(JSONLTagCommandTests.usage("followTag"), id: 4).json])
        #expect(await client.send(#"{"cmd":"push","route":{"route":"followedtags"},"id":5}"#) == [
            JSONLMessage.error("push: unknown route \"followedtags\"; \(JSONLCommandTests.routeUsage)", id: 5).json
        ])
        await client.wait()
        #expect(client.lines.count == written + 7)
        #expect(client.tagFollowLines.isEmpty)
        #expect(client.session.tags.unsent.isEmpty)
        #expect(client.session.navigator.routes.value == [.list(.feed(.home))])
        #expect(client.server.tagCalls == ["page home"])
    }
}
