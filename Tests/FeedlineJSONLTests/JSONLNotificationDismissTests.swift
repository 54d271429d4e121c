@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines notifications you control: lines")
struct JSONLNotificationDismissTests {
    @Test("dismissNotification names a group by its key or its row; clearNotifications takes nothing", arguments: [
        (#"{"cmd":"dismissNotification","notification":"favourite-1","id":1}"#, JSONLCommand(id: 1, action: .notifications(.dismiss("favourite-1")), name: "dismissNotification")),
        (#"{"cmd":"dismissNotification","row":"notification:m1"}"#, JSONLCommand(action: .notifications(.dismiss("m1")), name: "dismissNotification")),
        (#"{"cmd":"clearNotifications","id":"c"}"#, JSONLCommand(id: "c", action: .notifications(.clear), name: "clearNotifications")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad dismissNotification lines are one exact sentence", arguments: [
        (#"{"cmd":"dismissNotification"}"#, #"dismissNotification needs "notification": a notification group's key such as "favourite-1", or "row": a notification row id such as "notification:favourite-1"."#),
        (#"{"cmd":"dismissNotification","row":"post:1"}"#, #"dismissNotification: post:1 is not a notification row; a notification row id is such as "notification:favourite-1"."#),
        (#"{"cmd":"dismissNotification","row":"notification:1","notification":"1"}"#, #"dismissNotification takes "notification" or "row", not both."#),
    ])
    func invalid(line: String, message: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error): #expect(error.message == message)
        }
    }

    @Test("an outcome of a dismissal names the group; a clear's names nothing more")
    @MainActor func outcomes() {
        #expect(JSONLMessage.outcome(.done(.notificationDismissal(group: "m1")), id: 3).json
            == #"{"type":"outcome","id":3,"subject":{"change":"notificationDismissal","notification":"m1"},"result":"done","sentence":null}"#)
        #expect(JSONLMessage.outcome(.refused(.notificationsCleared, sentence: "No."), id: nil).json
            == #"{"type":"outcome","id":null,"subject":{"change":"notificationsCleared"},"result":"refused","sentence":"No."}"#)
    }
}
