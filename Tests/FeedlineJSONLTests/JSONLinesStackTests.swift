@_spi(FeedService) import Feedline
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// A ``JSONLinesDriver`` over the bundled sandbox (Fixtures/timeline) on a virtual clock, spoken to
/// line by line as a client would: every output line is parsed and fed to a ``StackMirror``.
/// `wait` synchronises; nothing sleeps.
@MainActor
final class DriverConversation {
    /// What the driver wrote, shared with its write closure.
    private final class Record {
        var messages: [Message] = []
        var mirrors = StackMirror()
        var strayLines: [String] = []
    }

    let session: FeedSession
    let driver: JSONLinesDriver
    private let record: Record
    private var waits = 0
    private var snapshots = 0

    /// Every message written so far.
    var messages: [Message] { record.messages }
    /// One mirror per list screen, built from the `timeline` and `changes` messages.
    var mirrors: StackMirror { record.mirrors }
    /// Output lines that were not one JSON object (there must be none).
    var strayLines: [String] { record.strayLines }

    /// A started driver over a fresh sandbox of the fixture directory `fixtures`: `hello`,
    /// `routes` and the bottom list's snapshot are written, and its first page is loading.
    init(fixtures: String = "timeline") throws {
        let fixture = try FixtureLoader.load(from: PackagePaths.fixtures(fixtures))
        session = FeedSession(
            service: try SandboxService(fixture: fixture, clock: VirtualClock()), clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800)),
            // Queued changes are sent again only by `retry`: the retry clock never moves, so no
            // conversation depends on how fast the machine runs.
            retryClock: ManualClock()
        )
        let record = Record()
        self.record = record
        driver = JSONLinesDriver(session: session) { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? Message else {
                record.strayLines.append(line)
                return
            }
            record.messages.append(object)
            record.mirrors.consume(object)
        }
        driver.start()
    }

    /// Handles `line` and returns what the driver wrote meanwhile: a command's synchronous replies,
    /// through its `ok` or `error`.
    @discardableResult
    func send(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async -> [Message] {
        let start = record.messages.count
        let goesOn = await driver.handle(line)
        #expect(goesOn, sourceLocation: sourceLocation)
        return Array(record.messages[start...])
    }

    /// Sends `wait` and returns everything written before its `idle`: all that was running has
    /// finished and its changes are in.
    @discardableResult
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async -> [Message] {
        waits += 1
        let id = "wait-\(waits)"
        var replies = await send(#"{"cmd":"wait","id":"\#(id)"}"#, sourceLocation: sourceLocation)
        let tail = replies.suffix(2).map { "\($0.type ?? "")/\($0.id ?? "")" }
        #expect(tail == ["idle/\(id)", "ok/\(id)"], sourceLocation: sourceLocation)
        replies.removeLast(min(2, replies.count))
        return replies
    }

    /// The reply to `timeline` (of `screen`, or without the field): exactly one `timeline` with
    /// the command's id, then `ok`.
    func snapshot(screen: Int?, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Message {
        snapshots += 1
        let id = "snapshot-\(snapshots)"
        let field = screen.map { #","screen":\#($0)"# } ?? ""
        let replies = await send(#"{"cmd":"timeline","id":"\#(id)"\#(field)}"#, sourceLocation: sourceLocation)
        #expect(replies.map(\.type) == ["timeline", "ok"], sourceLocation: sourceLocation)
        return try #require(replies.first { $0.type == "timeline" && $0.id == id }, sourceLocation: sourceLocation)
    }

    /// Checks that the mirror of each of `screens`, built only from its chain of `changes`,
    /// equals a fresh snapshot of that screen.
    func expectMirrorsMatch(_ screens: [Int], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(mirrors.problems.isEmpty, "\(mirrors.problems)", sourceLocation: sourceLocation)
        for screen in screens {
            let snapshot = try await self.snapshot(screen: screen, sourceLocation: sourceLocation)
            #expect(snapshot["screen"] as? Int == screen, sourceLocation: sourceLocation)
            let rows = try #require(snapshot["rows"] as? [Message], sourceLocation: sourceLocation)
            #expect(snapshot["count"] as? Int == rows.count, sourceLocation: sourceLocation)
            #expect(!rows.isEmpty, "screen \(screen) has no rows to compare", sourceLocation: sourceLocation)
            #expect(mirrors[screen].changesApplied > 0, "screen \(screen)", sourceLocation: sourceLocation)
            let difference = firstDifference(mirrors[screen].rows, rows)
            #expect(difference == nil, "screen \(screen): \(difference ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// The row ids the mirror of `screen` holds.
    func rowIDs(_ screen: Int) -> [String] { mirrors[screen].rows.compactMap { $0["id"] as? String } }
}

/// The `screen` indices of the `changes` messages among `messages`, in order.
func changedScreens(_ messages: [Message]) -> [Int] {
    messages.filter { $0.type == "changes" }.compactMap { $0["screen"] as? Int }
}

/// The status object of a `timeline` or `changes` message.
func status(_ message: Message?) -> Message? { message?["status"] as? Message }

/// A route object as the protocol writes it.
func route(_ fields: [String: String]) -> Message { fields }

@MainActor
@Suite("JSON-lines driver: a stack of screens", .timeLimit(.minutes(10)))
struct JSONLinesStackTests {
    static let home = route(["route": "feed", "feed": "home"])
    /// Kemi's dragonfly thread: 1/3, then 2/3 (the focus here), then 3/3.
    static let threadFirst = "117628602097884748"
    static let threadFocus = "117628612867543930"
    static let threadLast = "117628625076856329"

    @Test("each pushed list is announced by routes and a timeline with its screen index, then followed by its own chain of changes")
    func pushedLists() async throws {
        let client = try DriverConversation()
        await client.settle()
        #expect(client.messages.prefix(3).map(\.type) == ["hello", "routes", "timeline"])
        #expect(client.messages.first?["protocol"] as? Int == 2)
        #expect(client.messages.dropFirst(2).first?["screen"] as? Int == 0)
        #expect(sameJSON(client.messages.dropFirst().first?["routes"] ?? NSNull(), [Self.home]))

        let pushes: [(route: String, written: Message)] = [
            (#"{"route":"feed","feed":"tag:birds"}"#, route(["route": "feed", "feed": "tag:birds"])),
            (#"{"route":"feed","feed":"account:@kemi@fieldnotes.science"}"#, route(["route": "feed", "feed": "account:@kemi@fieldnotes.science"])),
            (#"{"route":"thread","post":"\#(Self.threadFocus)"}"#, route(["route": "thread", "post": Self.threadFocus])),
            (#"{"route":"notifications"}"#, route(["route": "notifications"])),
        ]
        var stack = [Self.home]
        for (offset, push) in pushes.enumerated() {
            let screen = offset + 1
            let replies = await client.send(#"{"cmd":"push","route":\#(push.route),"id":"push-\#(screen)"}"#)
            stack.append(push.written)
            // The stack, the new list's (empty) snapshot at its index, its first load starting, ok.
            #expect(replies.map(\.type) == ["routes", "timeline", "changes", "ok"], "push \(screen)")
            #expect(sameJSON(replies.first?["routes"] ?? NSNull(), stack), "push \(screen)")
            let snapshot = replies.first { $0.type == "timeline" }
            #expect(snapshot?["screen"] as? Int == screen)
            #expect(snapshot?["id"] == nil, "an unasked snapshot carries no id")
            #expect(snapshot?["count"] as? Int == 0)
            let loading = replies.first { $0.type == "changes" }
            #expect(loading?["screen"] as? Int == screen)
            #expect(status(loading)?["loading"] as? String == "firstPage")
            #expect(replies.last?["cmd"] as? String == "push" && replies.last?.id == "push-\(screen)")
            // The page arrives in the new screen's chain; nothing is written for the screens beneath.
            let arrivals = await client.settle()
            #expect(!changedScreens(arrivals).isEmpty)
            #expect(changedScreens(arrivals).allSatisfy { $0 == screen }, "\(changedScreens(arrivals))")
            #expect(!arrivals.contains { $0.type == "timeline" || $0.type == "routes" })
        }
        #expect(client.mirrors.starts == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])

        // What each screen shows.
        #expect(client.mirrors[0].rows.count == 20)
        let tag = client.mirrors[1].rows
        #expect(tag.count == 20)
        #expect(tag.allSatisfy { ($0["text"] as? String)?.localizedCaseInsensitiveContains("#birds") == true })
        let profile = client.mirrors[2].rows
        #expect(profile.count == 20)
        #expect(profile.allSatisfy { (($0["author"] as? Message)?["handle"] as? String) == "@kemi@fieldnotes.science" })
        let thread = client.mirrors[3].rows
        #expect(thread.compactMap { $0["post"] as? String } == [Self.threadFirst, Self.threadFocus, Self.threadLast])
        let places = thread.map { (($0["thread"] as? Message)?["depth"] as? Int ?? -1, ($0["thread"] as? Message)?["focus"] as? Bool) }
        #expect(places.map(\.0) == [0, 0, 1])
        #expect(places.map(\.1) == [false, true, false])
        #expect(!client.mirrors[0].rows.contains { $0["thread"] != nil }, "feed rows have no thread place")
        let notifications = client.mirrors[4].rows
        #expect(notifications.count == 20)
        #expect(notifications.allSatisfy { $0["kind"] as? String == "notification" && ($0["id"] as? String)?.hasPrefix("notification:") == true })
        let follows = notifications.filter { $0["type"] as? String == "follow" }
        #expect(!follows.isEmpty && follows.allSatisfy { $0["status"] is NSNull })
        let favourites = notifications.filter { $0["type"] as? String == "favourite" }
        #expect(!favourites.isEmpty && favourites.allSatisfy { ($0["status"] as? Message)?["bookmarked"] is Bool })

        // Without a screen, timeline answers for the top-most list; every mirror equals its snapshot.
        #expect(try await client.snapshot(screen: nil)["screen"] as? Int == 4)
        try await client.expectMirrorsMatch([0, 1, 2, 3, 4])
        #expect(client.strayLines.isEmpty)
    }

    @Test("list commands act on the screen they name, or on the top-most list screen; bad screens are errors")
    func listCommandsByScreen() async throws {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"tag:birds"}}"#)
        await client.settle()
        #expect(client.mirrors[0].rows.count == 20 && client.mirrors[1].rows.count == 20)

        // Without a screen: the tag list on top, which reaches its end.
        var replies = await client.send(#"{"cmd":"loadMore","id":"more-top"}"#)
        #expect(replies.map(\.type) == ["changes", "ok"])
        #expect(replies.first?["screen"] as? Int == 1)
        #expect(status(replies.first)?["loading"] as? String == "olderPage")
        var later = await client.settle()
        #expect(changedScreens(later) == [1])
        #expect(client.mirrors[1].rows.count == 33)
        #expect(status(client.messages.last { $0.type == "changes" })?["end"] as? Bool == true)
        #expect(client.mirrors[0].rows.count == 20)

        // With screen 0: the home list beneath. Its page arrives while a post is on top, still in
        // screen 0's chain.
        replies = await client.send(#"{"cmd":"loadMore","screen":0,"id":"more-home"}"#)
        #expect(replies.map(\.type) == ["changes", "ok"])
        #expect(replies.first?["screen"] as? Int == 0)
        #expect(status(replies.first)?["loading"] as? String == "olderPage")
        let opened = await client.send(#"{"cmd":"open","post":"117645532415752138","id":"open"}"#)
        #expect(opened.map(\.type) == ["routes", "detail", "detail", "ok"])
        #expect((opened.first?["routes"] as? [Message])?.count == 3)
        later = await client.settle()
        #expect(changedScreens(later) == [0])
        #expect(later.contains { $0.type == "changes" && $0["count"] as? Int == 40 })
        #expect(client.mirrors[0].rows.count == 40)

        // With a post on top, commands without a screen act on the top-most list: the tag, screen 1.
        #expect(try await client.snapshot(screen: nil)["screen"] as? Int == 1)
        let homeLast = try #require(client.rowIDs(0).last)
        #expect(!client.rowIDs(1).contains(homeLast))
        replies = await client.send(#"{"cmd":"display","rows":["\#(homeLast)"],"id":"unseen"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "Unknown rows: \(homeLast).")
        #expect(replies.first?.id == "unseen")
        // The tag list's own last row: known there, and it is at its end, so nothing loads.
        let tagLast = try #require(client.rowIDs(1).last)
        replies = await client.send(#"{"cmd":"display","rows":["\#(tagLast)"],"id":"tag-seen"}"#)
        #expect(replies.map(\.type) == ["ok"])
        // The home row on screen 0 prefetches home's next page.
        replies = await client.send(#"{"cmd":"display","rows":["\#(homeLast)"],"screen":0,"id":"seen"}"#)
        #expect(replies.map(\.type) == ["changes", "ok"])
        #expect(replies.first?["screen"] as? Int == 0)
        #expect(status(replies.first)?["loading"] as? String == "olderPage")
        later = await client.settle()
        #expect(changedScreens(later) == [0])
        #expect(client.mirrors[0].rows.count == 60)
        // refresh without a screen: the tag list.
        replies = await client.send(#"{"cmd":"refresh","id":"fresh"}"#)
        #expect(changedScreens(replies) == [1])
        #expect(status(replies.first)?["loading"] as? String == "refresh")
        later = await client.settle()
        #expect(changedScreens(later).allSatisfy { $0 == 1 })

        // Screens that are not lists, or not there, and gaps that are not on the screen.
        for (line, message) in [
            (#"{"cmd":"timeline","screen":2,"id":"e"}"#, "Screen 2 is a post, not a list."),
            (#"{"cmd":"display","rows":[],"screen":2,"id":"e"}"#, "Screen 2 is a post, not a list."),
            (#"{"cmd":"loadMore","screen":3,"id":"e"}"#, "There is no screen 3; the stack has 3 (0–2)."),
            (#"{"cmd":"refresh","screen":7,"id":"e"}"#, "There is no screen 7; the stack has 3 (0–2)."),
            (#"{"cmd":"openGap","row":"gap:nope","screen":0,"id":"e"}"#, "There is no gap gap:nope on screen 0."),
            (#"{"cmd":"openGap","row":"gap:nope","id":"e"}"#, "There is no gap gap:nope on screen 1."),
        ] {
            let reply = await client.send(line)
            #expect(reply.map(\.type) == ["error"], "\(line)")
            #expect(reply.first?["message"] as? String == message)
            #expect(reply.first?.id == "e")
        }
        try await client.expectMirrorsMatch([0, 1])
    }

    @Test("bookmark toggles through whichever screen shows the post; rows, post and detail messages show bookmarked")
    func bookmarks() async throws {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"account:@kemi@fieldnotes.science"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"thread","post":"\#(Self.threadFocus)"}}"#)
        await client.settle()
        // 3/3 is on Kemi's profile (screen 1) and in the thread (screen 2), not on home.
        let target = Self.threadLast
        #expect(client.rowIDs(1).contains("post:\(target)") && client.rowIDs(2).contains("post:\(target)"))
        #expect(!client.rowIDs(0).contains("post:\(target)"))
        func row(_ screen: Int) -> Message? { client.mirrors[screen].rows.first { $0["post"] as? String == target } }
        #expect(row(2)?["bookmarked"] as? Bool == false)

        // At once: each screen that shows it updates the row in its own chain; the post is pending.
        var replies = await client.send(#"{"cmd":"bookmark","post":"\#(target)","id":"b1"}"#)
        #expect(replies.map(\.type).sorted { ($0 ?? "") < ($1 ?? "") } == ["changes", "changes", "ok", "post"])
        #expect(replies.last?.type == "ok" && replies.last?["cmd"] as? String == "bookmark" && replies.last?.id == "b1")
        #expect(Set(changedScreens(replies)) == [1, 2])
        for update in replies.filter({ $0.type == "changes" }) {
            let rows = (update["updated"] as? [Message])?.compactMap { $0["row"] as? Message } ?? []
            #expect(rows.map { $0["post"] as? String } == [target])
            #expect(rows.first?["bookmarked"] as? Bool == true)
            #expect(rows.first?["pending"] as? [String] == ["bookmark"])
        }
        var state = try #require(replies.first { $0.type == "post" })
        #expect(state["post"] as? String == target)
        #expect(state["bookmarked"] as? Bool == true && state["pending"] as? [String] == ["bookmark"])
        #expect(state["favourited"] as? Bool == false && state["reblogged"] as? Bool == false)
        var later = await client.settle()
        state = try #require(later.last { $0.type == "post" })
        #expect(state["bookmarked"] as? Bool == true && state["pending"] as? [String] == [])
        #expect(row(1)?["bookmarked"] as? Bool == true && row(2)?["bookmarked"] as? Bool == true)
        #expect(row(2)?["pending"] as? [String] == [])

        // The detail shows it bookmarked; bookmarking again from there undoes it on every screen,
        // whose changes keep their own indices beneath the post.
        replies = await client.send(#"{"cmd":"open","post":"\#(target)","id":"o"}"#)
        let detail = try #require(replies.first { $0.type == "detail" })
        #expect((detail["interaction"] as? Message)?["bookmarked"] as? Bool == true)
        await client.settle()
        replies = await client.send(#"{"cmd":"bookmark","post":"\#(target)","id":"b2"}"#)
        #expect(Set(changedScreens(replies)) == [1, 2])
        #expect(replies.first { $0.type == "post" }?["bookmarked"] as? Bool == false)
        let pendingDetail = replies.last { $0.type == "detail" }?["interaction"] as? Message
        #expect(pendingDetail?["bookmarked"] as? Bool == false && pendingDetail?["pending"] as? [String] == ["bookmark"])
        later = await client.settle()
        #expect(later.last { $0.type == "post" }?["pending"] as? [String] == [])
        #expect((later.last { $0.type == "detail" }?["interaction"] as? Message)?["bookmarked"] as? Bool == false)
        #expect(row(1)?["bookmarked"] as? Bool == false && row(2)?["bookmarked"] as? Bool == false)

        // A favourite of a post only home shows: screen 0's chain, from under two screens and a post.
        let homePost = try #require(client.mirrors[0].rows.first?["post"] as? String)
        #expect(!client.rowIDs(1).contains("post:\(homePost)") && !client.rowIDs(2).contains("post:\(homePost)"))
        replies = await client.send(#"{"cmd":"favourite","post":"\#(homePost)","id":"f"}"#)
        #expect(changedScreens(replies) == [0])
        await client.settle()
        #expect(client.mirrors[0].rows.first?["favourited"] as? Bool == true)

        replies = await client.send(#"{"cmd":"bookmark","post":"nope","id":"n"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "Unknown post nope: no screen on the stack shows it.")
        #expect(replies.first?.id == "n")
        try await client.expectMirrorsMatch([0, 1, 2])
    }

    @Test("pop, back, top and root reshape the stack; at the bottom pop, back and top are errors")
    func popTopRoot() async throws {
        let client = try DriverConversation()
        await client.settle()
        for name in ["pop", "back", "top"] {
            let replies = await client.send(#"{"cmd":"\#(name)","id":"\#(name)"}"#)
            #expect(replies.map(\.type) == ["error"], "\(name)")
            #expect(replies.first?["message"] as? String == "Already at the bottom screen.")
            #expect(replies.first?.id == name)
        }

        let tag = route(["route": "feed", "feed": "tag:birds"])
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"tag:birds"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"notifications"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"post","post":"117645532415752138"}}"#)
        await client.settle()
        #expect((client.messages.last { $0.type == "routes" }?["routes"] as? [Message])?.count == 4)

        // pop and back take one screen each; the lists uncovered were followed all along, so no
        // snapshot is written again.
        var replies = await client.send(#"{"cmd":"pop","id":"p"}"#)
        #expect(replies.map(\.type) == ["routes", "ok"])
        #expect(sameJSON(replies.first?["routes"] ?? NSNull(), [Self.home, tag, route(["route": "notifications"])]))
        #expect(replies.last?["cmd"] as? String == "pop")
        replies = await client.send(#"{"cmd":"back","id":"b"}"#)
        #expect(replies.map(\.type) == ["routes", "ok"])
        #expect(sameJSON(replies.first?["routes"] ?? NSNull(), [Self.home, tag]))
        #expect(replies.last?["cmd"] as? String == "back")

        // A list pushed where another was starts a new chain at that index.
        replies = await client.send(#"{"cmd":"push","route":{"route":"thread","post":"\#(Self.threadFocus)"}}"#)
        #expect(replies.map(\.type) == ["routes", "timeline", "changes", "ok"])
        #expect(replies.first { $0.type == "timeline" }?["screen"] as? Int == 2)
        await client.settle()
        #expect(client.mirrors.starts[2] == 2)
        #expect(client.rowIDs(2) == [Self.threadFirst, Self.threadFocus, Self.threadLast].map { "post:\($0)" })
        try await client.expectMirrorsMatch([0, 1, 2])

        // top: back to the bottom in one step; then it, pop and back are errors again.
        replies = await client.send(#"{"cmd":"top","id":"t"}"#)
        #expect(replies.map(\.type) == ["routes", "ok"])
        #expect(sameJSON(replies.first?["routes"] ?? NSNull(), [Self.home]))
        for name in ["top", "pop", "back"] {
            let refused = await client.send(#"{"cmd":"\#(name)"}"#)
            #expect(refused.map(\.type) == ["error"])
            #expect(refused.first?["message"] as? String == "Already at the bottom screen.")
        }
        // List commands without a screen act on the bottom list again.
        replies = await client.send(#"{"cmd":"loadMore"}"#)
        #expect(changedScreens(replies) == [0])
        await client.settle()
        #expect(client.mirrors[0].rows.count == 40)

        // root replaces the whole stack with a new bottom list: a new chain at screen 0.
        await client.send(#"{"cmd":"push","route":{"route":"notifications"}}"#)
        await client.settle()
        replies = await client.send(#"{"cmd":"root","feed":"tag:birds","id":"r"}"#)
        #expect(replies.map(\.type) == ["routes", "timeline", "changes", "ok"])
        #expect(sameJSON(replies.first?["routes"] ?? NSNull(), [tag]))
        let fresh = replies.first { $0.type == "timeline" }
        #expect(fresh?["screen"] as? Int == 0 && fresh?["count"] as? Int == 0)
        #expect(changedScreens(replies) == [0])
        #expect(status(replies.first { $0.type == "changes" })?["loading"] as? String == "firstPage")
        #expect(replies.last?["cmd"] as? String == "root" && replies.last?.id == "r")
        let later = await client.settle()
        #expect(changedScreens(later).allSatisfy { $0 == 0 })
        #expect(client.mirrors.starts[0] == 2)
        #expect(client.mirrors[0].rows.count == 20)
        #expect(client.mirrors[0].rows.allSatisfy { ($0["text"] as? String)?.localizedCaseInsensitiveContains("#birds") == true })
        let refused = await client.send(#"{"cmd":"pop"}"#)
        #expect(refused.first?["message"] as? String == "Already at the bottom screen.")
        try await client.expectMirrorsMatch([0])
        #expect(client.strayLines.isEmpty)
    }
}
