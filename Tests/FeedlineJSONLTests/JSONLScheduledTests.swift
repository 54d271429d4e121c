@_spi(FeedService) import Feedline
import Foundation
import Testing

/// Scheduled posts over JSON-lines on the bundled sandbox: a draft's `schedule` is read or
/// refused in words; `{"route":"scheduled"}` lists the sandbox's scheduled post as a row, and
/// `cancelScheduled` takes it off the screen at once.
@MainActor
@Suite("JSON-lines scheduled posts")
struct JSONLScheduledTests {
    @Test("a schedule that is not a time, or too soon, is refused with a sentence; a good one shows on the draft")
    func scheduleField() async throws {
        let client = try DriverConversation()
        await client.settle()
        var replies = await client.send(#"{"cmd":"draft","text":"Door 1","schedule":"tomorrow","id":"a"}"#)
        #expect(replies.map(\.type) == ["error"])
        #expect(replies.first?["message"] as? String == "\"tomorrow\" is not a time. \(ScheduleTime.forms)")
        replies = await client.send(#"{"cmd":"draft","text":"Door 1","schedule":"in 5m","id":"b"}"#)
        #expect(replies.first?["message"] as? String == DraftProblem.scheduledTooSoon.description)
        replies = await client.send(#"{"cmd":"draft","text":"Door 1","schedule":7,"id":"c"}"#)
        #expect(replies.map(\.type) == ["error"])
        replies = await client.send(#"{"cmd":"draft","text":"Door 1","schedule":"in 2h","id":"d"}"#)
        let draft = try #require(replies.last { $0.type == "draft" })
        // The session's clock is 2026-11-22T12:00:00Z.
        #expect(draft["schedule"] as? String == "2026-11-22T14:00:00Z")
        #expect(draft["scheduled"] is NSNull)
    }

    @Test("the scheduled route lists the sandbox's scheduled post; cancelScheduled takes it off at once")
    func listAndCancel() async throws {
        let client = try DriverConversation()
        await client.settle()
        await client.send(#"{"cmd":"push","route":{"route":"scheduled"}}"#)
        await client.settle()
        let rows = client.mirrors[1].rows
        #expect(rows.map { $0["id"] as? String } == ["scheduled:1"])
        #expect(rows.first?["at"] as? String == "2026-12-01T09:00:00Z")
        #expect((rows.first?["text"] as? String)?.hasPrefix("Pond survey, round two") == true)
        let replies = await client.send(#"{"cmd":"cancelScheduled","scheduled":"1","id":"x"}"#)
        #expect(replies.last?.type == "ok")
        #expect(client.mirrors[1].rows.isEmpty)
        await client.settle()
        #expect(client.mirrors[1].rows.isEmpty)
        let unknown = await client.send(#"{"cmd":"cancelScheduled","scheduled":"1","id":"y"}"#)
        #expect(unknown.last?["message"] as? String == "There is no scheduled post 1.")
    }
}
