@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines lists: lines and payloads")
struct JSONLListCommandTests {
    @Test("the list commands parse; the lists route and a list's accounts route parse", arguments: [
        (#"{"cmd":"createList","title":"Birders","id":1}"#, JSONLCommand(id: 1, action: .listChange(.create(title: "Birders")), name: "createList")),
        (#"{"cmd":"renameList","list":"1","title":"Birds"}"#, JSONLCommand(action: .listChange(.rename(list: "1", title: "Birds")), name: "renameList")),
        (#"{"cmd":"deleteList","list":"2"}"#, JSONLCommand(action: .listChange(.delete(list: "2")), name: "deleteList")),
        (#"{"cmd":"addToList","list":"1","account":"109"}"#, JSONLCommand(action: .listChange(.membership(list: "1", account: "109", add: true)), name: "addToList")),
        (#"{"cmd":"removeFromList","list":"1","account":"109"}"#, JSONLCommand(action: .listChange(.membership(list: "1", account: "109", add: false)), name: "removeFromList")),
        (#"{"cmd":"push","route":{"route":"lists"}}"#, JSONLCommand(action: .push(.list(.userLists)), name: "push")),
        (#"{"cmd":"push","route":{"route":"filters"}}"#, JSONLCommand(action: .push(.list(.filters)), name: "push")),
        (#"{"cmd":"push","route":{"route":"accounts","list":"members:1"}}"#, JSONLCommand(action: .push(.list(.accounts(.members("1")))), name: "push")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    @Test("bad list lines are one exact sentence", arguments: [
        (#"{"cmd":"createList"}"#, #"createList needs "title": a list's name such as "Birders"."#),
        (#"{"cmd":"createList","title":"  "}"#, #"createList: "title" is a list's name such as "Birders", not "  "."#),
        (#"{"cmd":"renameList","title":"x"}"#, #"renameList needs "list": a list's id such as "1" (a list row's "list")."#),
        (#"{"cmd":"deleteList","list":3}"#, #"deleteList: "list" is a list's id such as "1" (a list row's "list"), not 3."#),
        (#"{"cmd":"addToList","list":"1"}"#, #"addToList needs "account": an account's id such as "109302" (an account row's "account")."#),
        (#"{"cmd":"addToList","list":"1","account":"@kemi@fieldnotes.science"}"#, #"addToList: @kemi@fieldnotes.science is a handle, not an account id; push {"route":"feed","feed":"account:@kemi@fieldnotes.science"} first and use the "account" of its profile message."#),
    ])
    func invalid(line: String, message: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error): #expect(error.message == message)
        }
    }

    @Test("list rows, the lists message and the membership message have every field, in order")
    func payloads() {
        let row = ListRow.userList(UserListRow(list: UserList(id: "new-1", title: "Moths"), pending: true))
        #expect(JSONLMessage.row(row, clock: .fixed(Date(timeIntervalSince1970: 0))).json
            == #"{"id":"list:new-1","kind":"list","list":"new-1","title":"Moths","pending":true,"provisional":true,"failure":null}"#)
        let made = UserListsChange(lists: [UserListRow(list: UserList(id: "3", title: "Moths"))])
        #expect(JSONLMessage.lists(made).json
            == #"{"type":"lists","lists":[{"list":"3","title":"Moths","pending":false,"provisional":false,"failure":null}]}"#)
        #expect(JSONLMessage.outcome(Outcome.done(.list("new-1", title: "Moths", was: nil)), id: 4).json
            == #"{"type":"outcome","id":4,"subject":{"change":"list","list":"new-1","title":"Moths","was":null},"result":"done","sentence":null}"#)
        let member = ListMembershipChange(list: "3", account: "109", display: ToggleDisplay(isOn: true, pending: true))
        #expect(JSONLMessage.listMembership(member).json == #"{"type":"listMembership","list":"3","account":"109","member":true,"pending":true,"failure":null}"#)
        #expect(JSONLMessage.routes([.list(.userLists), .list(.accounts(.members("3")))]).json
            == #"{"type":"routes","routes":[{"route":"lists"},{"route":"accounts","list":"members:3"}]}"#)
    }
}

/// Lists through the driver on the sandbox's bundled fixture: the lists screen, a new list
/// made at once on every lists screen, a refusal rolled back, who is on a list.
@Suite("JSON-lines lists: the driver")
@MainActor
struct JSONLListsTests {
    /// A client of the timeline fixture's sandbox without latency, with `faults` added.
    static func client(faults: [SandboxScenario.Fault] = []) async throws -> DriverClient<SandboxService> {
        var fixture = try FixtureLoader.load(from: PackagePaths.root().appendingPathComponent("Fixtures/timeline"))
        fixture.scenario.defaultLatency = .none
        fixture.scenario.faults += faults
        let service = try SandboxService(fixture: fixture, pageSize: 5, clock: VirtualClock())
        let client = DriverClient(service, now: Date(timeIntervalSince1970: 1_795_284_000))
        await client.start()
        return client
    }

    @Test("a new list shows at once on every lists screen, then as the server made it; a rename and a delete follow; a title another list has is refused")
    func makeRenameDelete() async throws {
        let client = try await Self.client()
        await client.send(#"{"cmd":"push","route":{"route":"lists"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"feed","feed":"local"}}"#)
        await client.send(#"{"cmd":"push","route":{"route":"lists"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(1) == ["list:1", "list:2"])
        let sent = await client.send(#"{"cmd":"createList","title":"Moths","id":"c"}"#)
        #expect(sent.last == #"{"type":"ok","cmd":"createList","id":"c"}"#)
        #expect(sent.first == #"{"type":"lists","lists":[{"list":"1","title":"Birders","pending":false,"provisional":false,"failure":null},{"list":"2","title":"Field notes","pending":false,"provisional":false,"failure":null},{"list":"new-1","title":"Moths","pending":true,"provisional":true,"failure":null}]}"#)
        #expect(try await client.rowIDs(1) == ["list:1", "list:2", "list:new-1"])
        #expect(try await client.rowIDs(3) == ["list:1", "list:2", "list:new-1"])
        await client.wait()
        #expect(try await client.rowIDs(3) == ["list:1", "list:2", "list:new-1"], "the row keeps the id it was shown with")
        #expect(try await client.mirrors()[3].rows.compactMap { $0["list"] as? String } == ["1", "2", "3"])
        #expect(client.outcomes == [
            #"{"type":"outcome","id":"c","subject":{"change":"list","list":"new-1","title":"Moths","was":null},"result":"done","sentence":null}"#
        ], "answered under the id it was asked with, for the command that asked it")
        await client.send(#"{"cmd":"renameList","list":"3","title":"Night moths","id":"r"}"#)
        await client.send(#"{"cmd":"deleteList","list":"2"}"#)
        await client.wait()
        // Two requests at once: their answers, and so their outcomes, come in either order.
        #expect(Set(client.outcomes.dropFirst()) == [
            #"{"type":"outcome","id":"r","subject":{"change":"list","list":"3","title":"Night moths","was":"Moths"},"result":"done","sentence":null}"#,
            #"{"type":"outcome","id":null,"subject":{"change":"list","list":"2","title":null,"was":"Field notes"},"result":"done","sentence":null}"#,
        ])
        #expect(client.outcomes.count == 3)
        #expect(try await client.rowIDs(1) == ["list:1", "list:new-1"])
        let rows = try await client.mirrors()[1].rows
        #expect(rows.compactMap { $0["title"] as? String } == ["Birders", "Night moths"])
        let taken = await client.send(#"{"cmd":"renameList","list":"3","title":"birders","id":"b"}"#)
        #expect(taken.last == #"{"type":"error","message":"You have a list named Birders already.","id":"b"}"#)
        let unknown = await client.send(#"{"cmd":"deleteList","list":"9","id":"u"}"#)
        #expect(unknown.last == #"{"type":"error","message":"There is no list 9.","id":"u"}"#)
    }

    @Test("adding an account shows on the list's accounts screen at once; an account no screen shows is refused")
    func membership() async throws {
        let client = try await Self.client()
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"members:2"}}"#)
        await client.wait()
        #expect(try await client.rowIDs(1).count == 1)
        // Who is on Birders: its account rows name them by id.
        await client.send(#"{"cmd":"push","route":{"route":"accounts","list":"members:1"}}"#)
        await client.wait()
        let birders = try await client.mirrors()[2].rows
        let kemi = try #require(birders.first { ($0["handle"] as? String) == "@kemi@fieldnotes.science" })
        let kemiID = try #require(kemi["account"] as? String)
        let added = await client.send(#"{"cmd":"addToList","list":"2","account":"\#(kemiID)"}"#)
        #expect(try await client.rowIDs(1).first == "account:\(kemiID)", "on top at once, below the screen it was added from")
        #expect(added.first == #"{"type":"listMembership","list":"2","account":"\#(kemiID)","member":true,"pending":true,"failure":null}"#)
        await client.wait()
        #expect(client.written("listMembership").last == #"{"type":"listMembership","list":"2","account":"\#(kemiID)","member":true,"pending":false,"failure":null}"#)
        let unknown = await client.send(#"{"cmd":"addToList","list":"2","account":"424242","id":"x"}"#)
        #expect(unknown.last == #"{"type":"error","message":"Unknown account 424242: no screen on the stack shows it.","id":"x"}"#)
    }
}
