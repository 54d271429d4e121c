import Foundation

/// The text of `help`, derived from ``CommandTable``.
public enum HelpText {
    /// The commands of `screen` with their summaries, or one command's usage and details.
    public static func lines(topic: CommandName?, screen: ScreenKind, width: Int = 80) -> [String] {
        if let topic {
            let spec = CommandTable.spec(topic)
            var lines = [spec.usage + (spec.aliases.isEmpty ? "" : "   (also: \(spec.aliases.joined(separator: ", ")))")]
            lines += TextWidth.wrap(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ". " + spec.details, to: max(20, width - 2)).map { "  " + $0 }
            if !spec.screens.contains(screen) {
                lines.append("  (Works on the \(spec.screens.map(\.rawValue).sorted().joined(separator: " and ")) screen, not here.)")
            }
            return lines
        }
        let specs = CommandTable.all.filter { $0.screens.contains(screen) }
        let usages = specs.map { spec in
            screen == .post && spec.argument == .rowOnTimeline ? spec.name.rawValue : spec.usage.components(separatedBy: "  (").first ?? spec.usage
        }
        let column = (usages.map { TextWidth.width(of: $0) }.max() ?? 0) + 2
        var lines = ["Commands on the \(screen.rawValue) screen:"]
        for (spec, usage) in zip(specs, usages) {
            let summary = screen == .post && spec.argument == .rowOnTimeline
                ? spec.summary.replacingOccurrences(of: "row N (or the open post)", with: "this post")
                : spec.summary
            lines.append("  " + TextWidth.pad(usage, to: column) + TextWidth.truncate(summary, to: max(10, width - column - 2)))
        }
        lines.append("help COMMAND explains one. ★/☆ favourited or not, ▲/△ boosted or not.")
        return lines
    }
}
