/// The text of `help`, derived from ``CommandTable``.
public enum HelpText {
    /// The commands of the screen on top (`screen`, at the bottom of the stack or not, named
    /// `title`, a list with `traits`), by group, one line of usages each — short enough for a
    /// small terminal; or one command's usage and details. Only commands that do something on
    /// the screen are listed. Lines are wrapped, never cut, at `width` columns.
    public static func lines(
        topic: CommandName?, screen: ScreenKind, atBottom: Bool = true, title: String? = nil, width: Int = 80,
        traits: Set<ScreenTrait>? = nil
    ) -> [String] {
        let width = max(20, width)
        if let topic { return command(topic, screen: screen, atBottom: atBottom, width: width, traits: traits) }
        let specs = CommandTable.commands(on: screen, atBottom: atBottom, traits: traits)
        var lines = TextWidth.wrap("Commands \(place(screen, title)) by kind; help KIND (\(groupWords)) says what each does, help COMMAND explains one:", to: width)
        for group in CommandGroup.allCases {
            let usages = specs.filter { $0.group == group }.map { usage($0, on: screen) }
            guard !usages.isEmpty else { continue }
            let wrapped = TextWidth.wrap(group.title + ": " + usages.joined(separator: ", "), to: width - 2)
            lines += wrapped.enumerated().map { $0.offset == 0 ? $0.element : "  " + $0.element }
        }
        lines += TextWidth.wrap(marks, to: width)
        return lines
    }

    /// The commands of `group` that do something on the screen, each with its summary in a
    /// second column (below its usage when the terminal is narrow).
    public static func lines(
        group: CommandGroup, screen: ScreenKind, atBottom: Bool = true, title: String? = nil, width: Int = 80,
        traits: Set<ScreenTrait>? = nil
    ) -> [String] {
        let width = max(20, width)
        let specs = CommandTable.commands(on: screen, atBottom: atBottom, traits: traits).filter { $0.group == group }
        var lines = TextWidth.wrap("\(group.title) \(place(screen, title)):", to: width)
        guard !specs.isEmpty else {
            return lines + TextWidth.wrap("  None does anything here; help lists the commands of this screen.", to: width)
        }
        let usages = specs.map { usage($0, on: screen) }
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
        lines += TextWidth.wrap("help COMMAND explains one.", to: width)
        return lines
    }

    /// Every command's name by kind, one paragraph each (`Writing: post, reply, edit, …`), in
    /// help's order: what `feedline --help` says a session offers.
    public static var commandsByKind: [String] {
        CommandGroup.allCases.map { group in
            group.title + ": " + CommandTable.all.filter { $0.group == group }.map(\.name.rawValue).joined(separator: ", ") + "."
        }
    }

    /// One command's usage, aliases and details, and where it works when not here.
    private static func command(_ topic: CommandName, screen: ScreenKind, atBottom: Bool, width: Int, traits: Set<ScreenTrait>?) -> [String] {
        let spec = CommandTable.spec(topic)
        var lines = TextWidth.wrap(usage(spec, on: screen) + (spec.aliases.isEmpty ? "" : "   (also: \(spec.aliases.joined(separator: ", ")))"), to: width)
        let text = spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ". " + spec.details
        lines += TextWidth.wrap(text, to: width - 2).map { "  " + $0 }
        let note: String?
        if !spec.screens.contains(screen) {
            note = "(Works on " + spec.screens.map { $0 == .list ? "a list" : "a post" }.sorted().joined(separator: " and ") + ", not here.)"
        } else if atBottom, !spec.atBottom {
            note = "(Nothing to go back to on the bottom screen.)"
        } else if !CommandTable.applies(spec, on: screen, traits: traits) {
            note = "(Nothing on this screen for it to act on.)"
        } else {
            note = nil
        }
        if let note { lines += TextWidth.wrap(note, to: width - 2).map { "  " + $0 } }
        return lines
    }

    private static func usage(_ spec: CommandSpec, on screen: ScreenKind) -> String {
        (screen == .post ? spec.postUsage : nil) ?? spec.usage
    }

    private static func place(_ screen: ScreenKind, _ title: String?) -> String {
        title.map { "on \($0)" } ?? (screen == .post ? "on a post" : "on this list")
    }

    /// `reading, writing, people, lists and tags, session`.
    private static let groupWords = CommandGroup.allCases.map(\.topic).joined(separator: ", ")

    private static let marks = "Marks: ★ favourited, ▲ boosted, 🔖 bookmarked, 📌 pinned, … waiting for the server."
}
