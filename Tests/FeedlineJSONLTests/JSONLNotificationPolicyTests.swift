@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineMastodon
import Foundation
import Testing

/// Issue 36's notification policy over JSON-lines on the timeline fixture's sandbox (its policy
/// filters new accounts and private mentions and drops moderated accounts; 3 requests wait; the
/// test makes the second change refused): `notificationPolicy` replies with it, `setNotificationPolicy`
/// changes one field, answered by an `outcome`.
@MainActor
@Suite("JSON-lines notification policy")
struct JSONLNotificationPolicyTests {
    static func fields(_ values: [(String, String, Bool, String?)]) -> String {
        values.map { field, value, pending, failure in
            #"{"field":"\#(field)","value":"\#(value)","pending":\#(pending),"failure":\#(failure.map { "\"\($0)\"" } ?? "null")}"#
        }.joined(separator: ",")
    }

    @Test("the lines: notificationPolicy takes nothing; setNotificationPolicy a field and a value, checked", arguments: [
        (#"{"cmd":"notificationPolicy","id":1}"#, JSONLCommand(id: 1, action: .notificationPolicy(field: nil, value: nil), name: "notificationPolicy")),
        (#"{"cmd":"setNotificationPolicy","field":"not-following","value":"filter"}"#,
         JSONLCommand(action: .notificationPolicy(field: "not-following", value: "filter"), name: "setNotificationPolicy")),
        (#"{"cmd":"setNotificationPolicy","field":"for_new_accounts","value":"DROP"}"#,
         JSONLCommand(action: .notificationPolicy(field: "new-accounts", value: "drop"), name: "setNotificationPolicy")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad setNotificationPolicy lines are one sentence that says how", arguments: [
        #"{"cmd":"setNotificationPolicy"}"#, #"{"cmd":"setNotificationPolicy","field":"strangers","value":"filter"}"#,
        #"{"cmd":"setNotificationPolicy","field":"not-following","value":"maybe"}"#, #"{"cmd":"setNotificationPolicy","field":"not-following","value":1}"#,
    ])
    func invalid(line: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command)")
        case .failure(let error):
            #expect(error.message.hasPrefix("setNotificationPolicy"))
            #expect(error.message.hasSuffix(#"such as {"cmd":"setNotificationPolicy","field":"not-following","value":"filter"}."#))
        }
    }

    @Test("read, changed and confirmed; the fixture's second change refused with the server's sentence and back as it was")
    func readAndChange() async throws {
        // The timeline fixture without latency; its second change of the policy is refused.
        let client = try await JSONLListsTests.client(faults: [
            SandboxScenario.Fault(SandboxScenario.Match(.notificationPolicyChange, occurrence: 2, times: 1), failure: .forbidden)
        ])
        var replies = await client.send(#"{"cmd":"notificationPolicy","id":"p"}"#)
        #expect(replies.first == #"{"type":"notificationPolicy","id":"p","fields":["#
            + Self.fields([
                ("not-following", "accept", false, nil), ("not-followers", "accept", false, nil), ("new-accounts", "filter", false, nil),
                ("private-mentions", "filter", false, nil), ("limited-accounts", "drop", false, nil),
            ]) + #"],"pendingRequests":3,"pendingNotifications":7}"#)
        #expect(replies.last == #"{"type":"ok","cmd":"notificationPolicy","id":"p"}"#)

        replies = await client.send(#"{"cmd":"setNotificationPolicy","field":"not-following","value":"filter","id":"a"}"#)
        #expect(replies.last == #"{"type":"ok","cmd":"setNotificationPolicy","id":"a"}"#)
        await client.wait()
        #expect(client.outcomes == [
            #"{"type":"outcome","id":"a","subject":{"change":"notificationPolicy","field":"not-following","value":"filter"},"result":"done","sentence":null}"#
        ])

        await client.send(#"{"cmd":"setNotificationPolicy","field":"new-accounts","value":"drop","id":"b"}"#)
        await client.wait()
        #expect(client.outcomes.last
            == #"{"type":"outcome","id":"b","subject":{"change":"notificationPolicy","field":"new-accounts","value":"drop"},"result":"refused","sentence":"This action is not allowed."}"#)
        replies = await client.send(#"{"cmd":"notificationPolicy","id":"q"}"#)
        #expect(replies.first == #"{"type":"notificationPolicy","id":"q","fields":["#
            + Self.fields([
                ("not-following", "filter", false, nil), ("not-followers", "accept", false, nil),
                ("new-accounts", "filter", false, "Could not drop notifications from new accounts: This action is not allowed."),
                ("private-mentions", "filter", false, nil), ("limited-accounts", "drop", false, nil),
            ]) + #"],"pendingRequests":3,"pendingNotifications":7}"#)
    }
}
