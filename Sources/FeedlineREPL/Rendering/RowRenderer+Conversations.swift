import Feedline

extension RowRenderer {
    /// A conversation: who takes part, `unread` while it is, the age of its last post; then the
    /// last post's author ("You" for your own) and text on one line (with ★ when you favourited
    /// it); the last refusal.
    func lines(_ row: ConversationRow, number: Int, marker: Character) -> [TerminalText] {
        let lead = prefix(number, marker)
        var parts: [String] = []
        if row.unread { parts.append("unread") }
        if let post = row.lastPost { parts.append(post.relativeTime(clock)) }
        let detail = parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
        let room = width - TextWidth.width(of: lead)
        let names = TextWidth.truncate(TextWidth.oneLine(row.participantHandles), to: max(1, room - min(TextWidth.width(of: detail), room / 2)))
        let mark = row.unread ? style.bold(names) : TerminalText(names)
        var result = [lead + mark + style.dim(TextWidth.truncate(detail, to: max(0, room - TextWidth.width(of: names))))]
        let indent = TextWidth.spaces(Self.indent)
        if let post = row.lastPost {
            let star = post.interaction.favourited ? " ★" : ""
            let text = (row.lastPostIsOwn ? "You" : "@" + TextWidth.oneLine(post.author.handle)) + ": " + TextWidth.oneLine(post.warning.map { "Filtered: " + $0.title } ?? post.contentWarning.map { "CW: " + $0 } ?? post.text)
            let room = width - Self.indent - TextWidth.width(of: star)
            result.append(indent + TextWidth.truncate(text, to: max(1, room)) + style.dim(star))
        } else {
            result.append(indent + style.dim("(no posts)"))
        }
        result += failureLines(row.failure)
        return result
    }
}
