/// The text of `help`, derived from ``CommandTable``.
public enum HelpText {
    /// The commands of the screen on top (`screen`, at the bottom of the stack or not, named
    /// `title`) with their summaries, or one command's usage and details. Lines are wrapped, never
    /// cut, at `width` columns.
    public static func lines(topic: CommandName?, screen: ScreenKind, atBottom: Bool = true, title: String? = nil, width: Int = 80) -> [String] {
        let width = max(20, width)
        if let topic {
            let spec = CommandTable.spec(topic)
            let usage = (screen == .post ? spec.postUsage : nil) ?? spec.usage
            var lines = TextWidth.wrap(usage + (spec.aliases.isEmpty ? "" : "   (also: \(spec.aliases.joined(separator: ", ")))"), to: width)
            let text = spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ". " + spec.details
            lines += TextWidth.wrap(text, to: width - 2).map { "  " + $0 }
            if !spec.screens.contains(screen) {
                let works = "(Works on " + spec.screens.map { $0 == .list ? "a list" : "a post" }.sorted().joined(separator: " and ") + ", not here.)"
                lines += TextWidth.wrap(works, to: width - 2).map { "  " + $0 }
            } else if atBottom, !spec.atBottom {
                lines += TextWidth.wrap("(Nothing to go back to on the bottom screen.)", to: width - 2).map { "  " + $0 }
            }
            return lines
        }
        let specs = CommandTable.commands(on: screen, atBottom: atBottom)
        let usages = specs.map { (screen == .post ? $0.postUsage : nil) ?? $0.usage }
        let place = title.map { "on \($0)" } ?? (screen == .post ? "on a post" : "on this list")
        var lines = TextWidth.wrap("Commands \(place):", to: width)
        let column = min((usages.map { TextWidth.width(of: $0) }.max() ?? 0) + 2, width / 2)
        for (spec, usage) in zip(specs, usages) {
            let summary = screen == .post
                ? spec.postSummary ?? spec.summary.replacingOccurrences(of: "row N's post", with: "this post").replacingOccurrences(of: "row N's author", with: "its author")
                : spec.summary
            let room = width - 2 - column
            if TextWidth.width(of: usage) + 2 > column || room < 36 {
                // Too narrow for two columns: the usage on its line, the summary wrapped below.
                lines += TextWidth.wrap(usage, to: width - 2).map { "  " + $0 }
                lines += TextWidth.wrap(summary, to: max(10, width - 4)).map { "    " + $0 }
            } else {
                let wrapped = TextWidth.wrap(summary, to: room)
                for (index, line) in wrapped.enumerated() {
                    lines.append("  " + TextWidth.pad(index == 0 ? usage : "", to: column) + line)
                }
            }
        }
        lines += TextWidth.wrap("help COMMAND explains one. Marks: ★ favourited, ▲ boosted, 🔖 bookmarked.", to: width)
        return lines
    }
}
