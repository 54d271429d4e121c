import Foundation
import Testing

import FeedlineMastodon

@Suite struct DateFormatTests {
    static let instant = 1_795_166_102.0  // 2026-11-20T09:15:02Z

    @Test(arguments: [
        ("2026-11-20T09:15:02.000Z", instant),
        ("2026-11-20T09:15:02Z", instant),
        ("2026-11-20T09:15:02.123Z", instant + 0.123),
        ("2026-11-20T09:15:02.123456789Z", instant + 0.123456789),
        ("2026-11-20T09:15:02.1234567891234Z", instant + 0.123456789),
        ("2026-11-20T09:15:02", instant),
        ("2026-11-20 09:15:02+00:00", instant),
        ("2026-11-20T10:15:02+01:00", instant),
        ("2026-11-20T04:15:02-0500", instant),
        ("2026-11-20T11:15:02+02", instant),
        ("2026-11-20T09:15Z", instant - 2),
        ("2026-11-20", 1_795_132_800.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func readsMastodonDates(_ text: String, _ seconds: Double) throws {
        let date = try #require(Mastodon.DateFormat.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: [
        "", "yesterday", "2026-11", "2026-13-01", "2026-02-29", "2026-11-31", "2026-11-20T24:00:00Z", "2026-11-20T09:60:00Z",
        "2026-11-20T09:15:02.Z", "2026-11-20T09:15:02ZZ", "2026-11-20T09:15:02+25:00", "2026-11-20T", "20261120", "2026-11-20X",
        "２０２６-11-20",
    ])
    func rejectsWhatIsNotADate(_ text: String) {
        #expect(Mastodon.DateFormat.date(from: text) == nil)
    }

    @Test func writesTimestampsAndDaysAsMastodonDoes() {
        #expect(Mastodon.DateFormat.timestamp(Date(timeIntervalSince1970: Self.instant)) == "2026-11-20T09:15:02.000Z")
        #expect(Mastodon.DateFormat.timestamp(Date(timeIntervalSince1970: Self.instant + 0.123)) == "2026-11-20T09:15:02.123Z")
        #expect(Mastodon.DateFormat.timestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(Mastodon.DateFormat.calendarDay(Date(timeIntervalSince1970: Self.instant)) == "2026-11-20")
    }

    @Test func timestampsRoundTrip() throws {
        for offset in stride(from: -1_000_000_000.0, through: 3_000_000_000.0, by: 86_399.123) {
            let date = Date(timeIntervalSince1970: (offset * 1000).rounded() / 1000)
            let text = Mastodon.DateFormat.timestamp(date)
            let parsed = try #require(Mastodon.DateFormat.date(from: text))
            #expect(abs(parsed.timeIntervalSince(date)) < 0.000_5, "\(text)")
        }
    }
}
