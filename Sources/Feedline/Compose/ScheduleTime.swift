import Foundation

/// When a scheduled post goes, as a person types it: `2026-12-01T09:00` (a local time, in the
/// given time zone) or `in 30m`, `in 2h`, `in 1d` (from now). The server refuses a time less
/// than ``minimumLead`` ahead, so that is refused here first, by the injected clock.
package enum ScheduleTime {
    /// How far ahead a scheduled post must be (Mastodon refuses 5 minutes or less with 422).
    package static let minimumLead: TimeInterval = 300

    /// The sentence that names the forms a time can take.
    package static let forms = "Give the time as 2026-12-01T09:00 (your local time) or as in 30m, in 2h or in 1d."

    /// The moment `text` names, read at `now` in `timeZone`; throws a sentence showing the
    /// accepted forms when it names none, or saying why when it is too soon.
    package static func parse(_ text: String, now: Date, timeZone: TimeZone) throws(FeedFailure) -> Date {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let date: Date
        if words.count == 2, words[0].lowercased() == "in", let lead = lead(words[1]) {
            date = now.addingTimeInterval(lead)
        } else if words.count == 1, let local = local(words[0], timeZone: timeZone) {
            date = local
        } else {
            throw FeedFailure(message: "\"\(text)\" is not a time. \(forms)", isTransient: false)
        }
        if let problem = tooSoon(date, now: now) { throw FeedFailure(message: problem, isTransient: false) }
        return date
    }

    /// Why `date` cannot be scheduled at `now` (it is not more than ``minimumLead`` ahead), or `nil`.
    package static func tooSoon(_ date: Date, now: Date) -> String? {
        date.timeIntervalSince(now) > minimumLead ? nil : DraftProblem.scheduledTooSoon.description
    }

    /// `30m`, `2h`, `1d` in seconds.
    private static func lead(_ word: String) -> TimeInterval? {
        guard let unit = word.last, let count = Int(word.dropLast()), count > 0, word.count <= 7 else { return nil }
        switch unit.lowercased() {
        case "m": return TimeInterval(count) * 60
        case "h": return TimeInterval(count) * 3_600
        case "d": return TimeInterval(count) * 86_400
        default: return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM` in `timeZone`; `nil` for anything else or a day that does not exist.
    private static func local(_ word: String, timeZone: TimeZone) -> Date? {
        let parts = word.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, time.count == 2, day[0].count == 4, day[1].count == 2, day[2].count == 2, time[0].count == 2, time[1].count == 2,
            let year = Int(day[0]), let month = Int(day[1]), let date = Int(day[2]), let hour = Int(time[0]), let minute = Int(time[1])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: date, hour: hour, minute: minute)
        guard let made = calendar.date(from: components) else { return nil }
        // A day or hour that does not exist (2026-02-30, 25:00) comes back as another.
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: made)
        guard back.year == year, back.month == month, back.day == date, back.hour == hour, back.minute == minute else { return nil }
        return made
    }
}
