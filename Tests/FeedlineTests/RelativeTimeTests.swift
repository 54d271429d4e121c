import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@Suite("Relative time")
struct RelativeTimeTests {
    static let cases: [(Double, String)] = [
        (0, "now"), (4, "now"), (-30, "now"), (12, "12s"), (59, "59s"), (60, "1m"), (3599, "59m"),
        (3600, "1h"), (86_399, "23h"), (86_400, "1d"), (6 * 86_400, "6d"), (8 * 86_400, "Nov 14"),
        (400 * 86_400, "Oct 18, 2025"),
    ]

    @Test("short relative times, then calendar dates", arguments: cases)
    func describe(secondsAgo: Double, expected: String) {
        let utc = TimeZone(identifier: "UTC") ?? .current
        #expect(RelativeTime.describe(testNow.addingTimeInterval(-secondsAgo), now: testNow, timeZone: utc) == expected)
    }
}

extension RelativeTimeTests {
    /// Dates a week or more old are worked out by arithmetic on the day number; they must be
    /// the Gregorian calendar's, in any time zone, on either side of a year's end, a leap day
    /// and the epoch.
    @Test("older dates agree with the Gregorian calendar in several time zones")
    func calendarDates() {
        let seed = testSeed(0xDA7E)
        var random = SeededGenerator(seed: seed)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let zones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata", "America/St_Johns", "Europe/Berlin"]
        for round in 0..<2_000 {
            guard let zone = TimeZone(identifier: zones[Int(random.next() % UInt64(zones.count))]) else { continue }
            // Dates from about 1900 to 2100, and now a little after each.
            let date = Date(timeIntervalSince1970: Double(Int64(random.next() % 6_311_520_000) - 2_208_988_800))
            let now = date.addingTimeInterval(Double(7 * 86_400 + Int(random.next() % 900) * 86_400))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let then = calendar.dateComponents([.year, .month, .day], from: date)
            let thisYear = calendar.component(.year, from: now)
            guard let year = then.year, let month = then.month, let day = then.day else { continue }
            let expected = year == thisYear ? "\(months[month - 1]) \(day)" : "\(months[month - 1]) \(day), \(year)"
            let described = RelativeTime.describe(date, now: now, timeZone: zone)
            #expect(described == expected, "seed \(seed) round \(round): \(date) in \(zone.identifier)")
            if described != expected { return }
        }
    }
}
