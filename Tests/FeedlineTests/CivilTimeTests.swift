import Feedline
import Foundation
import Testing

@Suite("Civil time")
struct CivilTimeTests {
    /// What a Gregorian `Calendar` in `zone` says of `date`.
    private static func calendar(_ date: Date, _ zone: TimeZone) -> CivilTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return CivilTime(year: parts.year ?? -1, month: parts.month ?? -1, day: parts.day ?? -1, hour: parts.hour ?? -1, minute: parts.minute ?? -1)
    }

    @Test(
        "gives what Calendar gives, in zones with summer time and odd offsets",
        arguments: ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham", "Australia/Lord_Howe"]
    )
    func sameAsCalendar(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        // Seeded dates from 1500 to 10100 (both ends outside the counted range), every minute
        // around the zone's changes of 2026, and the edges of days, years and leap days.
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var dates: [Date] = (0..<3_000).map { _ in
            Date(timeIntervalSince1970: -14_831_769_600 + Double(next() % 271_000_000_000) + Double(next() % 1_000) / 1_000)
        }
        var transition = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 1_767_225_600))
        for _ in 0..<2 {
            guard let at = transition else { break }
            dates += (-90...90).map { at.addingTimeInterval(Double($0) * 60) }
            transition = zone.nextDaylightSavingTimeTransition(after: at)
        }
        for edge in [-12_212_553_600.0, 951_782_400, 951_868_800, 1_767_225_599.5, 0, -0.5, 253_402_300_799] {
            dates += [-1, 0, 1].map { Date(timeIntervalSince1970: edge + Double($0)) }
        }
        let differing = dates.filter { CivilTime($0, in: zone) != Self.calendar($0, zone) }
        #expect(differing.isEmpty, "differs from Calendar at \(differing.prefix(5).map(\.timeIntervalSince1970))")
    }
}
