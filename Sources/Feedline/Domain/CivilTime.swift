import Foundation

/// The year, month, day, hour and minute a date shows on a wall clock in a time zone, counted
/// without `Calendar`.
///
/// Making a Gregorian `Calendar` and asking it for components looked up the conformances of
/// `Calendar.Identifier` and `Calendar.Component` (each a scan of every conformance record in
/// the binary) and was about 1 % of a start that opens a post (Docs/BENCHMARKS.md, "Start-up,
/// issue 33's sixth round"). From 1583 (the first whole year `Calendar` counts as Gregorian:
/// before 15 October 1582 it counts Julian days) to 9999 the count is the proleptic Gregorian
/// one, checked against `Calendar` in the tests; outside it, `Calendar` answers. The post
/// screen shows dates with it, and Mastodon's date formats share its day count.
package struct CivilTime: Equatable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int

    /// `date` on the wall clock of `zone`.
    package init(_ date: Date, in zone: TimeZone) {
        let local = (date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down)
        // 1583-01-01 and 10000-01-01 as seconds since 1970.
        guard local >= -12_212_553_600, local < 253_402_300_800 else {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            self.init(year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0)
            return
        }
        let seconds = Int64(local)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let ofDay = Int(seconds - days * 86_400)
        let date = Self.civil(fromDays: days)
        self.init(year: Int(date.year), month: Int(date.month), day: Int(date.day), hour: ofDay / 3_600, minute: ofDay % 3_600 / 60)
    }

    /// The proleptic Gregorian date `days` days after 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`: eras of 400 years from 0000-03-01).
    package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// These fields.
    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }
}
