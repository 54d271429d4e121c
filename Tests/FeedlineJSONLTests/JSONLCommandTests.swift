import Feedline
import FeedlineJSONL
import Testing

@Suite("JSON-lines commands")
struct JSONLCommandTests {
    @Test("commands parse into view-model inputs, with their ids", arguments: [
        (#"{"cmd":"timeline"}"#, JSONLCommand(action: .timeline)),
        (#"{"cmd":"timeline","id":7}"#, JSONLCommand(id: 7, action: .timeline)),
        (#"{"id":"a","cmd":"loadMore"}"#, JSONLCommand(id: "a", action: .loadMore)),
        (#"{"cmd":"display","rows":["post:1","gap:2"]}"#, JSONLCommand(action: .display([.post("1"), .gap(below: "2")]))),
        (#"{"cmd":"display","rows":[]}"#, JSONLCommand(action: .display([]))),
        (#"{"cmd":"openGap","row":"gap:9"}"#, JSONLCommand(action: .openGap(.gap(below: "9")))),
        (#"{"cmd":"open","post":"109"}"#, JSONLCommand(action: .open("109"))),
        (#"{"cmd":"favourite","post":"x"}"#, JSONLCommand(action: .favourite("x"))),
        (#"{"cmd":"reblog","post":"x","extra":[1,2]}"#, JSONLCommand(action: .reblog("x"))),
        (#"{"cmd":"back"}"#, JSONLCommand(action: .back)),
        (#"{"cmd":"refresh"}"#, JSONLCommand(action: .refresh)),
        (#"{"cmd":"retry"}"#, JSONLCommand(action: .retry)),
        (#"{"cmd":"wait","id":{"n":1}}"#, JSONLCommand(id: .object([("n", 1)]), action: .wait)),
        (#"  {"cmd":"quit"}  "#, JSONLCommand(action: .quit)),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad lines are one clear sentence, with the id when there was one", arguments: [
        ("not json", "The line is not valid JSON.", nil),
        ("{\"cmd\":", "The line is not valid JSON.", nil),
        ("[1,2]", "A command is a JSON object such as {\"cmd\":\"timeline\"}.", nil),
        ("\"timeline\"", "A command is a JSON object such as {\"cmd\":\"timeline\"}.", nil),
        (#"{"id":3}"#, "The command has no \"cmd\" string.", 3),
        (#"{"cmd":5}"#, "The command has no \"cmd\" string.", nil),
        (#"{"cmd":"favorite","post":"1","id":"q"}"#, "Unknown command \"favorite\". Did you mean \"favourite\"? Commands: back, display, favourite, loadMore, open, openGap, quit, reblog, refresh, retry, timeline, wait.", "q"),
        (#"{"cmd":"dance"}"#, "Unknown command \"dance\". Commands: back, display, favourite, loadMore, open, openGap, quit, reblog, refresh, retry, timeline, wait.", nil),
        (#"{"cmd":"open"}"#, "open needs \"post\": a post id string.", nil),
        (#"{"cmd":"open","post":42}"#, "open needs \"post\": a post id string.", nil),
        (#"{"cmd":"favourite","post":""}"#, "favourite needs \"post\": a post id string.", nil),
        (#"{"cmd":"display","rows":"post:1"}"#, "display needs \"rows\": a list of row ids such as \"post:123\".", nil),
        (#"{"cmd":"display","rows":["row:1"]}"#, "display: \"row:1\" is not a row id (\"post:ID\" or \"gap:ID\").", nil),
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

    @Test("JSON output escapes what it must and keeps key order")
    func output() {
        let value: JSONLValue = .object([("type", "x"), ("text", "a\"b\\c\nd\u{1}é😀"), ("n", 3), ("f", .number(1.5)), ("ok", true), ("none", .null)])
        #expect(value.json == #"{"type":"x","text":"a\"b\\c\nd\u0001é😀","n":3,"f":1.5,"ok":true,"none":null}"#)
    }
}
