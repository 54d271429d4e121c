@_spi(FeedService) import Feedline
import FeedlineJSONL
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines announcements: lines")
struct JSONLAnnouncementTests {
    @Test("readAnnouncement names one by its id or its row, or every unread one", arguments: [
        (#"{"cmd":"readAnnouncement","announcement":"8","id":1}"#, JSONLCommand(id: 1, action: .readAnnouncement("8"), name: "readAnnouncement")),
        (#"{"cmd":"readAnnouncement","row":"announcement:7"}"#, JSONLCommand(action: .readAnnouncement("7"), name: "readAnnouncement")),
        (#"{"cmd":"readAnnouncement","all":true,"id":"a"}"#, JSONLCommand(id: "a", action: .readAnnouncement(nil), name: "readAnnouncement")),
        (#"{"cmd":"push","route":{"route":"announcements"}}"#, JSONLCommand(action: .push(.list(.announcements)), name: "push")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static let usage = #"readAnnouncement needs "announcement": an announcement's id such as "8", "row": an announcement row id such as "announcement:8", or "all":true."#

    @Test("bad readAnnouncement lines are one exact sentence", arguments: [
        (#"{"cmd":"readAnnouncement"}"#, usage),
        (#"{"cmd":"readAnnouncement","all":false}"#, usage),
        (#"{"cmd":"readAnnouncement","announcement":"8","all":true}"#, usage),
        (#"{"cmd":"readAnnouncement","row":"post:1"}"#, #"readAnnouncement: post:1 is not an announcement row; an announcement row id is such as "announcement:8"."#),
    ])
    func invalid(line: String, message: String) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error): #expect(error.message == message)
        }
    }

    @Test("an announcement row says whether it is read; an outcome names the announcement")
    @MainActor func messages() {
        let row = ListRow.announcement(
            Announcement(id: "8", text: "Maintenance tonight.", publishedAt: Date(timeIntervalSince1970: 1_795_348_800)), read: ToggleDisplay(isOn: true, pending: true)
        )
        #expect(JSONLMessage.row(row, clock: .fixed(Date(timeIntervalSince1970: 1_795_348_800))).json
            == #"{"id":"announcement:8","kind":"announcement","announcement":"8","text":"Maintenance tonight.","publishedAt":"2026-11-22T12:00:00Z","updatedAt":null,"startsAt":null,"endsAt":null,"allDay":false,"read":true,"pending":true,"failure":null}"#)
        #expect(JSONLMessage.outcome(.refused(.announcementRead("8"), sentence: "Record not found"), id: 2).json
            == #"{"type":"outcome","id":2,"subject":{"change":"announcementRead","announcement":"8"},"result":"refused","sentence":"Record not found"}"#)
    }
}

/// `readAnnouncement` over JSON-lines on the announcements sandbox: the screen's rows say which
/// are read, a read shows at once and its `outcome` follows; refused, the row is unread again
/// with the server's sentence.
@MainActor
@Suite("JSON-lines announcements")
struct JSONLAnnouncementSessionTests {
    static func read(_ client: DriverConversation) -> [String] {
        client.mirrors[1].rows.compactMap { row in
            guard let id = row["announcement"] as? String else { return nil }
            return id + ((row["read"] as? Bool) == true ? " read" : "")
        }
    }

    @Test("push the screen, read one, then all: the second refused shows unread again")
    func read() async throws {
        let client = try DriverConversation(fixtures: "announcements")
        await client.settle()
        _ = await client.send(#"{"cmd":"push","route":{"route":"announcements"}}"#)
        await client.settle()
        #expect(Self.read(client) == ["12", "11", "9", "4 read"])
        var replies = await client.send(#"{"cmd":"readAnnouncement","row":"announcement:12","id":"r"}"#)
        #expect(replies.last?.type == "ok" && replies.last?.id == "r")
        #expect(Self.read(client) == ["12 read", "11", "9", "4 read"], "read at once")
        await client.settle()
        let outcome = try #require(client.messages.last { $0.type == "outcome" })
        #expect(outcome["result"] as? String == "done" && outcome.id == "r" && (outcome["subject"] as? Message)?["change"] as? String == "announcementRead")
        replies = await client.send(#"{"cmd":"readAnnouncement","announcement":"4","id":"x"}"#)
        #expect(replies.first?["message"] as? String == #"The announcement "Welcome to fieldnotes.science!" is read already."#)
        // The second dismissal of the scenario cannot reach the server: it stays read (and is
        // sent again after its backoff).
        _ = await client.send(#"{"cmd":"readAnnouncement","announcement":"11"}"#)
        await client.settle()
        #expect(Self.read(client) == ["12 read", "11 read", "9", "4 read"])
        // Every unread one: each one's outcome answers the command.
        replies = await client.send(#"{"cmd":"readAnnouncement","all":true,"id":"all"}"#)
        #expect(replies.last?.type == "ok" && replies.last?.id == "all")
        await client.settle()
        let last = try #require(client.messages.last { $0.type == "outcome" })
        #expect(last.id == "all" && (last["subject"] as? Message)?["announcement"] as? String == "9", "\(last)")
    }
}
