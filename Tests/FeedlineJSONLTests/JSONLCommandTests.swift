import Feedline
import FeedlineJSONL
import Testing

@Suite("JSON-lines commands")
struct JSONLCommandTests {
    /// Every command name, as the unknown-command sentence lists them.
    static let commandList = "accept, acceptNotificationRequest, addToList, back, block, blockDomain, bookmark, boosts, cancelScheduled, clearNotifications, createFilter, createList, delete, deleteFilter, deleteList, discard, dismissNotification, dismissNotificationRequest, display, draft, drafts, editDraft, editPost, editProfile, editScheduled, favourite, follow, followTag, history, loadMore, markRead, mute, muteThread, notificationPolicy, notify, open, openConversation, openGap, original, pin, pop, push, quit, readAnnouncement, reblog, redraft, refresh, reject, reload, relationships, removeConversation, removeFromList, renameList, report, retry, root, rules, search, send, setNotificationPolicy, show, showWaiting, switchAccount, timeline, top, translate, unblock, unblockDomain, unfollow, unfollowTag, unmute, unmuteThread, unpin, updateFilter, vote, wait"

    @Test("commands parse into view-model inputs, with their ids", arguments: [
        (#"{"cmd":"timeline"}"#, JSONLCommand(action: .timeline(screen: nil), name: "timeline")),
        (#"{"cmd":"timeline","id":7}"#, JSONLCommand(id: 7, action: .timeline(screen: nil), name: "timeline")),
        (#"{"id":"a","cmd":"loadMore"}"#, JSONLCommand(id: "a", action: .loadMore(screen: nil), name: "loadMore")),
        (#"{"cmd":"display","rows":["post:1","gap:2"]}"#, JSONLCommand(action: .display([.post("1"), .gap(below: "2")], screen: nil), name: "display")),
        (#"{"cmd":"display","rows":[]}"#, JSONLCommand(action: .display([], screen: nil), name: "display")),
        (#"{"cmd":"openGap","row":"gap:9"}"#, JSONLCommand(action: .openGap(.gap(below: "9"), screen: nil), name: "openGap")),
        (#"{"cmd":"open","post":"109"}"#, JSONLCommand(action: .push(.post("109")), name: "open")),
        (#"{"cmd":"favourite","post":"x"}"#, JSONLCommand(action: .toggle(.favourite, "x", value: nil), name: "favourite")),
        (#"{"cmd":"reblog","post":"x","extra":[1,2]}"#, JSONLCommand(action: .toggle(.reblog, "x", value: nil), name: "reblog")),
        (#"{"cmd":"back"}"#, JSONLCommand(action: .pop, name: "back")),
        (#"{"cmd":"refresh"}"#, JSONLCommand(action: .refresh(screen: nil), name: "refresh")),
        (#"{"cmd":"showWaiting"}"#, JSONLCommand(action: .showWaiting(screen: nil), name: "showWaiting")),
        (#"{"cmd":"showWaiting","screen":2}"#, JSONLCommand(action: .showWaiting(screen: 2), name: "showWaiting")),
        (#"{"cmd":"retry"}"#, JSONLCommand(action: .retry, name: "retry")),
        (#"{"cmd":"wait","id":{"n":1}}"#, JSONLCommand(id: .object([("n", 1)]), action: .wait, name: "wait")),
        (#"  {"cmd":"quit"}  "#, JSONLCommand(action: .quit, name: "quit")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("navigation and bookmark commands of protocol 2 parse, each keeping the name it was given", arguments: [
        (#"{"cmd":"push","route":{"route":"feed","feed":"home"}}"#, JSONLCommand(action: .push(.list(.feed(.home))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"tag:birds"},"id":"t"}"#, JSONLCommand(id: "t", action: .push(.list(.feed(.tag("birds")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"tag:#birds"}}"#, JSONLCommand(action: .push(.list(.feed(.tag("birds")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"account:109296114702930001"}}"#, JSONLCommand(action: .push(.list(.feed(.account("109296114702930001")))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"account:@kemi@fieldnotes.science"}}"#, JSONLCommand(action: .push(.list(.feed(.account(AccountID(handle: "kemi@fieldnotes.science"))))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"account:@grace@127.0.0.1:38111"}}"#, JSONLCommand(action: .push(.list(.feed(.account(AccountID(handle: "grace@127.0.0.1:38111"))))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"bookmarks"}}"#, JSONLCommand(action: .push(.list(.feed(.bookmarks))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"favourites"}}"#, JSONLCommand(action: .push(.list(.feed(.favourites))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"local"}}"#, JSONLCommand(action: .push(.list(.feed(.local))), name: "push")),
        (#"{"cmd":"push","route":{"route":"feed","feed":"public"}}"#, JSONLCommand(action: .push(.list(.feed(.public))), name: "push")),
        (#"{"cmd":"push","route":{"route":"thread","post":"117628612867543930"}}"#, JSONLCommand(action: .push(.list(.thread("117628612867543930"))), name: "push")),
        (#"{"cmd":"push","route":{"route":"notifications"}}"#, JSONLCommand(action: .push(.list(.notifications)), name: "push")),
        (#"{"cmd":"push","route":{"route":"post","post":"42","extra":true}}"#, JSONLCommand(action: .push(.post("42")), name: "push")),
        (#"{"cmd":"pop"}"#, JSONLCommand(action: .pop, name: "pop")),
        (#"{"cmd":"back","id":3}"#, JSONLCommand(id: 3, action: .pop, name: "back")),
        (#"{"cmd":"top"}"#, JSONLCommand(action: .top, name: "top")),
        (#"{"cmd":"root","feed":"local"}"#, JSONLCommand(action: .root(.local), name: "root")),
        (#"{"cmd":"root","feed":"tag:birds"}"#, JSONLCommand(action: .root(.tag("birds")), name: "root")),
        (#"{"cmd":"root","feed":"account:@kemi@fieldnotes.science"}"#, JSONLCommand(action: .root(.account("@kemi@fieldnotes.science")), name: "root")),
        (#"{"cmd":"bookmark","post":"117628625076856329"}"#, JSONLCommand(action: .toggle(.bookmark, "117628625076856329", value: nil), name: "bookmark")),
    ])
    func navigation(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("list commands take an optional screen index; other commands ignore the field", arguments: [
        (#"{"cmd":"timeline","screen":0}"#, JSONLCommand(action: .timeline(screen: 0), name: "timeline")),
        (#"{"cmd":"timeline","screen":3,"id":"s"}"#, JSONLCommand(id: "s", action: .timeline(screen: 3), name: "timeline")),
        (#"{"cmd":"timeline","screen":2.0}"#, JSONLCommand(action: .timeline(screen: 2), name: "timeline")),
        (#"{"cmd":"display","rows":["notification:follow-1"],"screen":2}"#, JSONLCommand(action: .display([.notification("follow-1")], screen: 2), name: "display")),
        (#"{"cmd":"loadMore","screen":1}"#, JSONLCommand(action: .loadMore(screen: 1), name: "loadMore")),
        (#"{"cmd":"refresh","screen":999999}"#, JSONLCommand(action: .refresh(screen: 999_999), name: "refresh")),
        (#"{"cmd":"openGap","row":"gap:9","screen":0}"#, JSONLCommand(action: .openGap(.gap(below: "9"), screen: 0), name: "openGap")),
        (#"{"cmd":"favourite","post":"x","screen":"top"}"#, JSONLCommand(action: .toggle(.favourite, "x", value: nil), name: "favourite")),
        (#"{"cmd":"pop","screen":-1}"#, JSONLCommand(action: .pop, name: "pop")),
    ])
    func screens(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad lines are one clear sentence, with the id when there was one", arguments: [
        ("not json", "The line is not valid JSON.", nil),
        ("{\"cmd\":", "The line is not valid JSON.", nil),
        ("[1,2]", "A command is a JSON object such as {\"cmd\":\"timeline\"}.", nil),
        ("\"timeline\"", "A command is a JSON object such as {\"cmd\":\"timeline\"}.", nil),
        (#"{"id":3}"#, "The command has no \"cmd\" string.", 3),
        (#"{"cmd":5}"#, "The command has no \"cmd\" string.", nil),
        (#"{"cmd":"favorite","post":"1","id":"q"}"#, "Unknown command \"favorite\". Did you mean \"favourite\"? Commands: \(Self.commandList).", "q"),
        (#"{"cmd":"dance"}"#, "Unknown command \"dance\". Commands: \(Self.commandList).", nil),
        (#"{"cmd":"open"}"#, "open needs \"post\": a post id string.", nil),
        (#"{"cmd":"open","post":42}"#, "open needs \"post\": a post id string.", nil),
        (#"{"cmd":"favourite","post":""}"#, "favourite needs \"post\": a post id string.", nil),
        (#"{"cmd":"display","rows":"post:1"}"#, "display needs \"rows\": a list of row ids such as \"post:123\".", nil),
        (#"{"cmd":"display","rows":["row:1"]}"#, "display: \"row:1\" is not a row id (\"post:ID\", \"gap:ID\", \"notification:KEY\", \"account:ID\", \"tag:NAME\" or \"domain:NAME\").", nil),
        (#"{"cmd":"openGap","row":"post:1"}"#, "openGap needs \"row\": a gap row id such as \"gap:123\".", nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    static let routeUsage = #""route" is an object such as {"route":"feed","feed":"tag:birds"}, {"route":"thread","post":"ID"}, {"route":"notifications"} (or with "kinds":"mentions"), {"route":"post","post":"ID"}, {"route":"accounts","list":"requests"}, {"route":"search","query":"birds"}, {"route":"domainBlocks"}, {"route":"followedTags"}, {"route":"trendingTags"}, {"route":"conversations"}, {"route":"lists"}, {"route":"filters"}, {"route":"scheduled"}, {"route":"notificationRequests"} or {"route":"announcements"}."#
    static let feedUsage = #"a feed route needs "feed": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending."#
    static let screenUsage = #""screen" is the index of a screen on the stack (0 at the bottom), not"#

    @Test("bad navigation, bookmark and screen fields are one exact sentence, with the id", arguments: [
        (#"{"cmd":"push","id":1}"#, "push: \(Self.routeUsage)", 1),
        (#"{"cmd":"push","route":"feed"}"#, "push: \(Self.routeUsage)", nil),
        (#"{"cmd":"push","route":{"route":"timeline"}}"#, "push: unknown route \"timeline\"; \(Self.routeUsage)", nil),
        (#"{"cmd":"push","route":{"feed":"home"}}"#, "push: \(Self.routeUsage)", nil),
        (#"{"cmd":"push","route":{"route":"feed"},"id":"f"}"#, "push: \(Self.feedUsage)", "f"),
        (#"{"cmd":"push","route":{"route":"feed","feed":"tag:"}}"#, "push: \(Self.feedUsage)", nil),
        (#"{"cmd":"push","route":{"route":"feed","feed":"everything"}}"#, "push: \(Self.feedUsage)", nil),
        (#"{"cmd":"push","route":{"route":"thread"}}"#, "push: a thread route needs \"post\": a post id string.", nil),
        (#"{"cmd":"push","route":{"route":"thread","post":""}}"#, "push: a thread route needs \"post\": a post id string.", nil),
        (#"{"cmd":"push","route":{"route":"post","post":7}}"#, "push: a post route needs \"post\": a post id string.", nil),
        (#"{"cmd":"root"}"#, "root needs \"feed\": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending.", nil),
        (#"{"cmd":"root","feed":"timeline","id":"r"}"#, "root needs \"feed\": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending.", "r"),
        (#"{"cmd":"root","feed":{"route":"feed","feed":"home"}}"#, "root needs \"feed\": home, local, public, tag:NAME, account:ID (or account:@user@host), bookmarks, favourites, list:ID or trending.", nil),
        (#"{"cmd":"bookmark"}"#, "bookmark needs \"post\": a post id string.", nil),
        (#"{"cmd":"bookmark","post":12,"id":"b"}"#, "bookmark needs \"post\": a post id string.", "b"),
        (#"{"cmd":"timeline","screen":-1}"#, "timeline: \(Self.screenUsage) -1.", nil),
        (#"{"cmd":"timeline","screen":1.5,"id":2}"#, "timeline: \(Self.screenUsage) 1.5.", 2),
        (#"{"cmd":"loadMore","screen":"1"}"#, "loadMore: \(Self.screenUsage) \"1\".", nil),
        (#"{"cmd":"refresh","screen":null}"#, "refresh: \(Self.screenUsage) null.", nil),
        (#"{"cmd":"display","rows":[],"screen":true}"#, "display: \(Self.screenUsage) true.", nil),
        (#"{"cmd":"openGap","row":"gap:1","screen":1000000}"#, "openGap: \(Self.screenUsage) 1000000.", nil),
        (#"{"cmd":"dance","screen":-1}"#, "Unknown command \"dance\". Commands: \(Self.commandList).", nil),
        (#"{"cmd":"bookmarks","post":"1"}"#, "Unknown command \"bookmarks\". Did you mean \"bookmark\"? Commands: \(Self.commandList).", nil),
        (#"{"cmd":"Push"}"#, "Unknown command \"Push\". Did you mean \"push\"? Commands: \(Self.commandList).", nil),
    ] as [(String, String, JSONLValue?)])
    func invalidNavigation(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }

    @Test("hello says protocol 2 and lists every command")
    func hello() {
        #expect(JSONLMessage.protocolVersion == 2)
        #expect(JSONLMessage.hello().json == #"{"type":"hello","protocol":2,"commands":["\#(Self.commandList.replacingOccurrences(of: ", ", with: "\",\""))"]}"#)
    }

    @Test("JSON output escapes what it must and keeps key order")
    func output() {
        let value: JSONLValue = .object([("type", "x"), ("text", "a\"b\\c\nd\u{1}é😀"), ("n", 3), ("f", .number(1.5)), ("ok", true), ("none", .null)])
        #expect(value.json == #"{"type":"x","text":"a\"b\\c\nd\u0001é😀","n":3,"f":1.5,"ok":true,"none":null}"#)
    }
}
