import FeedlineREPL
import Foundation
import Testing

@Suite("A time of day as the REPL shows it")
struct ClockTimeTests {
    @Test("hours and minutes read as String(format: \"%02d:%02d\") wrote them, padding and all")
    func sameAsFormat() {
        let numbers = Array(-12...125) + [Int.min, -100, 1_000, Int.max]
        for hour in numbers {
            for minute in [0, 5, 9, 10, 59, -3, 100] {
                #expect(ClockTime.text(hour: hour, minute: minute) == String(format: "%02ld:%02ld", hour, minute))
            }
        }
    }
}
