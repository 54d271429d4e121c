@_spi(FeedService) import Feedline
import Foundation
import Testing

/// Issue 36's scheduled posts: the times a person types, read by the injected clock in the
/// injected time zone, and Mastodon's 5-minute rule checked before anything is sent.
@Suite("Schedule times")
struct ScheduleTimeTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
    static let utc = TimeZone(identifier: "UTC") ?? .current

    @Test("in 30m, in 2h and in 1d count from the clock's now", arguments: [("in 30m", 1_800.0), ("in 2h", 7_200.0), ("IN 1d", 86_400.0), ("in  6m", 360.0)])
    func relative(text: String, seconds: TimeInterval) throws {
        #expect(try ScheduleTime.parse(text, now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(seconds))
    }

    @Test("a local time is read in the given time zone")
    func local() throws {
        // 09:00 in Berlin on 1 December is 08:00 UTC (CET, +1).
        let date = try ScheduleTime.parse("2026-12-01T09:00", now: Self.now, timeZone: Self.berlin)
        #expect(date == Date(timeIntervalSince1970: 1_796_112_000))
        #expect(try ScheduleTime.parse("2026-12-01T09:00", now: Self.now, timeZone: Self.utc) == date.addingTimeInterval(3_600))
    }

    @Test("what is not a time is refused with the forms it can take", arguments: ["tomorrow", "in 2 hours", "in 0h", "in 2w", "2026-13-01T09:00", "2026-02-30T09:00", "2026-12-01T25:00", "2026-12-01", "in", ""])
    func unreadable(text: String) {
        #expect(throws: FeedFailure(message: "\"\(text)\" is not a time. \(ScheduleTime.forms)", isTransient: false)) {
            try ScheduleTime.parse(text, now: Self.now, timeZone: Self.utc)
        }
    }

    @Test("a time 5 minutes ahead or less is refused (Mastodon's 422); a second more is taken")
    func fiveMinuteBoundary() throws {
        let tooSoon = FeedFailure(message: DraftProblem.scheduledTooSoon.description, isTransient: false)
        #expect(throws: tooSoon) { try ScheduleTime.parse("in 5m", now: Self.now, timeZone: Self.utc) }
        #expect(throws: tooSoon) { try ScheduleTime.parse("2026-11-22T12:05", now: Self.now, timeZone: Self.utc) }
        #expect(throws: tooSoon) { try ScheduleTime.parse("2026-11-21T09:00", now: Self.now, timeZone: Self.utc) }
        #expect(ScheduleTime.tooSoon(Self.now.addingTimeInterval(300), now: Self.now) != nil)
        #expect(ScheduleTime.tooSoon(Self.now.addingTimeInterval(301), now: Self.now) == nil)
        #expect(try ScheduleTime.parse("2026-11-22T12:06", now: Self.now, timeZone: Self.utc) == Self.now.addingTimeInterval(360))
    }
}
