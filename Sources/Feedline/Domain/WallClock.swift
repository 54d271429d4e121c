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

    /// `date` relative to now; see ``RelativeTime/describe(_:now:timeZone:)``.
    public func relative(_ date: Date) -> String {
        RelativeTime.describe(date, now: now(), timeZone: timeZone)
    }
}

/// Short relative times as feed apps show them, independent of the locale.
public enum RelativeTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `now` under 5 seconds (and for dates slightly in the future), then `12s`, `5m`, `3h`, `6d`;
    /// a week or older: `Mar 4`, with the year when it is not the year of `now` (`Mar 4, 2024`).
    public static func describe(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        let seconds = now.timeIntervalSince(date)
        guard seconds.isFinite else { return "?" }
        switch seconds {
        case ..<5: return "now"
        case ..<60: return "\(Int(seconds))s"
        case ..<3600: return "\(Int(seconds / 60))m"
        case ..<86_400: return "\(Int(seconds / 3600))h"
        case ..<(7 * 86_400): return "\(Int(seconds / 86_400))d"
        default:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let then = calendar.dateComponents([.year, .month, .day], from: date)
            let current = calendar.dateComponents([.year], from: now)
            let month = months[max(0, min(11, (then.month ?? 1) - 1))]
            let day = then.day ?? 1
            if then.year == current.year { return "\(month) \(day)" }
            return "\(month) \(day), \(then.year ?? 0)"
        }
    }
}
