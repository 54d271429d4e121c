@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's filtered notifications over JSON-lines on the timeline fixture's sandbox (three
/// requests wait: Wren, 4; the coupon account, 2; Moss, 1): the `notificationRequests` route lists
/// them, `acceptNotificationRequest` and `dismissNotificationRequest` answer one, each answered by
/// an `outcome`.
@MainActor
@Suite("JSON-lines filtered notifications")
struct JSONLNotificationRequestTests {
    @Test("the lines: each command names a request by its id", arguments: [
        (#"{"cmd":"acceptNotificationRequest","request":"3","id":1}"#, JSONLCommand(id: 1, action: .notificationRequest(id: "3", accept: true), name: "acceptNotificationRequest")),
        (#"{"cmd":"dismissNotificationRequest","request":"2"}"#, JSONLCommand(action: .notificationRequest(id: "2", accept: false), name: "dismissNotificationRequest")),
        (#"{"cmd":"push","route":{"route":"notificationRequests"}}"#, JSONLCommand(action: .push(.list(.notificationRequests)), name: "push")),
        (#"{"cmd":"acceptNotificationRequest","all":true}"#, JSONLCommand(action: .notificationRequest(id: nil, accept: true), name: "acceptNotificationRequest")),
        (#"{"cmd":"dismissNotificationRequest","all":true}"#, JSONLCommand(action: .notificationRequest(id: nil, accept: false), name: "dismissNotificationRequest")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("a line without a request says how", arguments: [
        #"{"cmd":"acceptNotificationRequest"}"#, #"{"cmd":"acceptNotificationRequest","request":""}"#, #"{"cmd":"acceptNotificationRequest","request":3}"#,
        #"{"cmd":"acceptNotificationRequest","all":false}"#, #"{"cmd":"acceptNotificationRequest","all":"yes"}"#,
        #"{"cmd":"acceptNotificationRequest","request":"3","all":true}"#,
    ])
    func invalid(line: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command)")
        case .failure(let error):
            #expect(error.message == #"acceptNotificationRequest needs "request": a filtered notifications request's id such as "3" (a notificationRequest row's "request"), or "all":true."#)
        }
    }

    @Test("listed newest first; a refused dismissal comes back with the sentence; an accept is done and leaves every screen")
    func listAndAnswer() async throws {
        // The timeline fixture without latency; the first answer is refused.
        let client = try await JSONLListsTests.client(faults: [
            SandboxScenario.Fault(SandboxScenario.Match(.notificationRequestAnswer, occurrence: 1, times: 1), failure: .forbidden)
        ])
        await client.send(#"{"cmd":"push","route":{"route":"notificationRequests"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"local"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"notificationRequests"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(1) == ["request:3", "request:2", "request:1"])
        #expect(try await client.rowIDs(3) == ["request:3", "request:2", "request:1"])
        let first = try #require(try await client.mirrors()[1].rows.first)
        #expect(first["kind"] as? String == "notificationRequest" && first["notifications"] as? Int == 4)
        #expect((first["account"] as? [String: Any])?["handle"] as? String == "@wren@marshland.example")
        #expect(((first["lastPost"] as? [String: Any])?["text"] as? String)?.contains("north gate pond") == true)

        let sent = await client.send(#"{"cmd":"dismissNotificationRequest","request":"2","id":"d"}"#)
        #expect(sent.last == #"{"type":"ok","cmd":"dismissNotificationRequest","id":"d"}"#)
        #expect(try await client.rowIDs(1) == ["request:3", "request:1"], "gone at once")
        #expect(try await client.rowIDs(3) == ["request:3", "request:1"])
        await client.wait()
        #expect(client.outcomes.last
            == #"{"type":"outcome","id":"d","subject":{"change":"notificationRequestDismiss","request":"2"},"result":"refused","sentence":"This action is not allowed."}"#)
        #expect(try await client.rowIDs(1) == ["request:3", "request:2", "request:1"], "back where it was")
        #expect(try await client.mirrors()[1].rows[1]["failure"] as? String == "Could not dismiss it: This action is not allowed.")

        await client.send(#"{"cmd":"acceptNotificationRequest","request":"3","id":"a"}"#)
        await client.wait()
        #expect(client.outcomes.last
            == #"{"type":"outcome","id":"a","subject":{"change":"notificationRequestAccept","request":"3"},"result":"done","sentence":null}"#)
        #expect(try await client.rowIDs(1) == ["request:2", "request:1"])
        #expect(try await client.rowIDs(3) == ["request:2", "request:1"])
        let unknown = await client.send(#"{"cmd":"acceptNotificationRequest","request":"3","id":"x"}"#)
        #expect(unknown.last == #"{"type":"error","message":"There is no filtered notification request 3.","id":"x"}"#)
    }

    @Test("\"all\":true answers every request loaded, each with its own outcome; with none loaded it says how to load them")
    func answerAll() async throws {
        let client = try await JSONLListsTests.client(faults: [])
        let early = await client.send(#"{"cmd":"acceptNotificationRequest","all":true,"id":"e"}"#)
        #expect(early.last == #"{"type":"error","message":"There are no filtered notifications to accept: push {\"route\":\"notificationRequests\"} to load them.","id":"e"}"#)
        await client.send(#"{"cmd":"push","route":{"route":"notificationRequests"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(1) == ["request:3", "request:2", "request:1"])
        let sent = await client.send(#"{"cmd":"dismissNotificationRequest","all":true,"id":"all"}"#)
        #expect(sent.last == #"{"type":"ok","cmd":"dismissNotificationRequest","id":"all"}"#)
        #expect(try await client.rowIDs(1) == [], "gone at once")
        await client.wait()
        #expect(Set(client.outcomes.suffix(3)) == Set(["3", "2", "1"].map {
            #"{"type":"outcome","id":"all","subject":{"change":"notificationRequestDismiss","request":"\#($0)"},"result":"done","sentence":null}"#
        }))
        let again = await client.send(#"{"cmd":"dismissNotificationRequest","all":true,"id":"x"}"#)
        #expect(again.last?.contains("There are no filtered notifications to dismiss") == true)
    }
}
