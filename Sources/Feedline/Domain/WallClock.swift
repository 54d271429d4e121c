import Foundation

/// Where "now" comes from, for relative times. Injected so tests and scripted sessions are
/// deterministic.
public struct WallClock: Sendable {
    /// The current instant.
    public var now: @Sendable () -> Date
    /// The time zone calendar dates (older than a week) are shown in.
    public var timeZone: TimeZone

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The system clock in the current time zone.
    public static var system: WallClock { WallClock { Date() } }

    /// A clock stopped at `date`, showing calendar dates in `timeZone` (UTC by default).
    public static func fixed(_ date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) -> WallClock {
        WallClock(timeZone: timeZone) { date }
    }

    /// `date` relative to now; see `RelativeTime/describe(_:now:timeZone:)`.
    public func relative(_ date: Date) -> String {
        RelativeTime.describe(date, now: now(), timeZone: timeZone)
    }
}

/// Short relative times as feed apps show them, independent of the locale.
package enum RelativeTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `now` under 5 seconds (and for dates slightly in the future), then `12s`, `5m`, `3h`, `6d`;
    /// a week or older: `Mar 4`, with the year when it is not the year of `now` (`Mar 4, 2024`).
    package static func describe(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        let seconds = now.timeIntervalSince(date)
        guard seconds.isFinite else { return "?" }
        switch seconds {
        case ..<5: return "now"
        case ..<60: return "\(Int(seconds))s"
        case ..<3600: return "\(Int(seconds / 60))m"
        case ..<86_400: return "\(Int(seconds / 3600))h"
        case ..<(7 * 86_400): return "\(Int(seconds / 86_400))d"
        default:
            guard let then = civilDate(date, timeZone), let current = civilDate(now, timeZone) else { return "?" }
            let month = months[then.month - 1]
            if then.year == current.year { return "\(month) \(then.day)" }
            return "\(month) \(then.day), \(then.year)"
        }
    }

    /// The Gregorian year, month (1–12) and day of `date` in `timeZone`; `nil` for a date too far
    /// from today to count in days. Arithmetic on the day number (H. Hinnant's `civil_from_days`)
    /// rather than a `Calendar`, which costs more to make than a whole list row to draw.
    static func civilDate(_ date: Date, _ timeZone: TimeZone) -> (year: Int, month: Int, day: Int)? {
        let seconds = (date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))) / 86_400
        guard seconds.isFinite, abs(seconds) < 1e9 else { return nil }
        let days = Int(seconds.rounded(.down)) + 719_468  // days since 0000-03-01
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
