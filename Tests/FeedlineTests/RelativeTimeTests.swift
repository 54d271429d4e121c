import Feedline
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
