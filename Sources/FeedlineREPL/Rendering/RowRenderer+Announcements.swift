@_spi(FeedService) import Feedline
import Foundation

extension RowRenderer {
    /// An announcement of your server: `●` and bold while unread, its text (every line, wrapped);
    /// then `read` (`marking read…` while that waits for the server), when it was published (and
    /// changed) and the days of the event it announces; the last refusal.
    func lines(_ announcement: Announcement, read: ToggleDisplay, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        let indent = TextWidth.spaces(Self.indent)
        let mark = read.isOn ? "" : "● "
        let paragraphs = announcement.text.split(whereSeparator: \.isNewline).map { TextWidth.oneLine(String($0)) }.filter { !$0.isEmpty }
        let wrapped = (paragraphs.isEmpty ? [""] : paragraphs).flatMap { TextWidth.wrap($0, to: max(1, width - Self.indent - 2)) }
        var result: [TerminalText] = []
        for (index, line) in wrapped.enumerated() {
            let text = (index == 0 ? mark : (read.isOn ? "" : "  ")) + line
            result.append((index == 0 ? TerminalText(lead) : TerminalText(indent)) + (read.isOn ? TerminalText(text) : style.bold(text)))
        }
        let dates = ProfileRenderer(width: width, timeZone: clock.timeZone)
        // Its state first: a long event line is cut at the width.
        var parts = read.pending ? ["marking read…"] : read.isOn ? ["read"] : []
        parts.append("published " + dates.day(announcement.publishedAt))
        if let updated = announcement.updatedAt { parts.append("changed " + dates.day(updated)) }
        if let starts = announcement.startsAt {
            let ends = announcement.endsAt.map { " – " + (announcement.allDay ? dates.day($0) : dates.moment($0)) } ?? ""
            parts.append("event " + (announcement.allDay ? dates.day(starts) : dates.moment(starts)) + ends)
        }
        result.append(indent + style.dim(TextWidth.truncate(parts.joined(separator: " · "), to: max(1, width - Self.indent))))
        result += failureLines(read.failure)
        return result
    }
}
