import Feedline
import Foundation

/// A profile's header as lines: name and markers, bio, fields, featured hashtags, counts and the
/// relationship.
package struct ProfileRenderer {
    var width: Int
    var timeZone: TimeZone

    package init(width: Int, timeZone: TimeZone) {
        self.width = width
        self.timeZone = timeZone
    }

    package func lines(_ header: ProfileHeader) -> [String] {
        guard let profile = header.profile else { return [] }
        var lines: [String] = []
        var markers: [String] = []
        if profile.bot { markers.append("bot") }
        if profile.locked { markers.append("approves followers") }
        if profile.group { markers.append("group") }
        // What the server chose is made safe before it is measured, so the lines are as wide as
        // they will print.
        let name = TextWidth.oneLine(profile.author.name) + " @" + TextWidth.oneLine(profile.author.handle)
            + (markers.isEmpty ? "" : " · " + markers.joined(separator: " · "))
        lines += TextWidth.wrap(name, to: width)
        if let moved = profile.movedTo { lines += TextWidth.wrap("Moved to @" + TextWidth.oneLine(moved.handle) + ".", to: width) }
        for paragraph in TextWidth.sanitize(profile.bio, keepingLines: true).split(separator: "\n", omittingEmptySubsequences: true) {
            lines += TextWidth.wrap(String(paragraph), to: width)
        }
        for field in profile.fields {
            lines += TextWidth.wrap("  " + TextWidth.oneLine(field.name) + ": " + TextWidth.oneLine(field.value) + (field.verified ? " ✓" : ""), to: width)
        }
        if let featured = featuredLine(header.featuredTags) { lines += TextWidth.wrap(featured, to: width) }
        var counts = [
            Self.count(profile.postsCount, "post"), "\(Self.count(profile.followingCount)) following",
            Self.count(profile.followersCount, "follower"),
        ]
        if let joined = profile.joined { counts.append("joined \(day(joined))") }
        lines += TextWidth.wrap(counts.joined(separator: " · "), to: width)
        if let line = relationshipLine(header) { lines += TextWidth.wrap(line, to: width) }
        return lines
    }

    /// "Featured: #ponds (41 posts, last 20 Nov 2026) · #culverts (1 post)", or `nil` when the
    /// account features no hashtag (or the server did not say).
    func featuredLine(_ tags: [Hashtag]) -> String? {
        guard !tags.isEmpty else { return nil }
        let shown = tags.map { tag in
            var about: [String] = []
            if let posts = tag.accountPosts { about.append(Self.count(posts, "post")) }
            if let last = tag.lastUsed { about.append("last \(day(last))") }
            return "#" + TextWidth.oneLine(tag.name) + (about.isEmpty ? "" : " (" + about.joined(separator: ", ") + ")")
        }
        return "Featured: " + shown.joined(separator: " · ")
    }

    /// "You: you follow them · follows you", or `nil` when nothing relates you.
    func relationshipLine(_ header: ProfileHeader) -> String? {
        header.relationship?.line(formattingDates: moment).map { "You: " + $0 }
    }

    /// `1 post`, `1,204 posts`.
    static func count(_ value: Int, _ noun: String) -> String {
        "\(count(value)) \(noun)\(value == 1 ? "" : "s")"
    }

    /// `1,204`.
    static func count(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }

    /// `27 Nov 2026 00:12 UTC`, `27 Nov 2026 01:12 CET`: when a mute ends, with its zone.
    func moment(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return day(date) + " " + ClockTime.text(hour: parts.hour ?? 0, minute: parts.minute ?? 0) + " " + timeZone.shownName(at: date)
    }

    /// `3 Mar 2023`.
    func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(parts.day ?? 1) \(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.year ?? 0)"
    }
}
