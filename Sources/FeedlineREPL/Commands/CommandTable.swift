import Feedline

/// The name of a command (its aliases resolve to it).
public enum CommandName: String, Hashable, Sendable, CaseIterable {
    case back, boost, fav, gap, help, list, more, open, quit, refresh, retry
}

/// Which screen a command works on.
public enum ScreenKind: String, Hashable, Sendable {
    case timeline
    case post
}

/// One entry of the command table: the single declaration from which parsing, help and tab
/// completion are all derived.
public struct CommandSpec: Hashable, Sendable {
    /// What follows the command word.
    public enum Argument: Hashable, Sendable {
        /// Nothing.
        case none
        /// A row number on the timeline; none on the post screen.
        case rowOnTimeline
        /// A row number, always.
        case row
        /// An optional command name.
        case topic
    }

    /// The command's name.
    public var name: CommandName
    /// Other words for it.
    public var aliases: [String]
    /// What follows the word.
    public var argument: Argument
    /// How to type it, e.g. `open N`.
    public var usage: String
    /// One line for the command list.
    public var summary: String
    /// More lines for `help <command>`.
    public var details: String
    /// The screens it works on.
    public var screens: Set<ScreenKind>

    /// Every word that names this command.
    public var words: [String] { [name.rawValue] + aliases }
}

/// The command table, in the order help lists it.
public enum CommandTable {
    /// Every command.
    public static let all: [CommandSpec] = [
        CommandSpec(
            name: .list, aliases: ["ls"], argument: .none, usage: "list",
            summary: "redraw the screen (timeline: every row shown so far)",
            details: "On the timeline, prints every row shown so far and the status line; on a post, prints the post again.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .more, aliases: [], argument: .none, usage: "more",
            summary: "show the next screen of rows (loads older posts when needed)",
            details: "Rows that come into view are displayed, which loads the next page before you reach the end.",
            screens: [.timeline]
        ),
        CommandSpec(
            name: .open, aliases: [], argument: .row, usage: "open N",
            summary: "open the post of row N",
            details: "Shows the full post, its media, counts and thread. back returns to the timeline.",
            screens: [.timeline]
        ),
        CommandSpec(
            name: .fav, aliases: ["favourite", "favorite"], argument: .rowOnTimeline, usage: "fav N  (on a post: fav)",
            summary: "favourite or unfavourite row N (or the open post)",
            details: "Shows the change at once; if the server refuses, it is rolled back with the reason.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .boost, aliases: ["reblog"], argument: .rowOnTimeline, usage: "boost N  (on a post: boost)",
            summary: "boost or unboost row N (or the open post)",
            details: "Every row of the same post changes with it; if the server refuses, it is rolled back with the reason.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .refresh, aliases: [], argument: .none, usage: "refresh",
            summary: "load newer posts above the top row",
            details: "When more new posts exist than one page holds, a gap row marks where posts are missing.",
            screens: [.timeline]
        ),
        CommandSpec(
            name: .gap, aliases: [], argument: .row, usage: "gap N",
            summary: "load the posts missing at gap row N",
            details: "The newest missing posts fill the gap; a smaller gap remains while more are missing.",
            screens: [.timeline]
        ),
        CommandSpec(
            name: .retry, aliases: [], argument: .none, usage: "retry",
            summary: "retry what failed last",
            details: "On the timeline: the page, refresh or gap that failed. On a post: its loads that failed.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .back, aliases: [], argument: .none, usage: "back",
            summary: "go back to the previous screen",
            details: "Rows whose state changed meanwhile are shown again.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .help, aliases: ["?"], argument: .topic, usage: "help [command]",
            summary: "list the commands, or explain one",
            details: "Marks on rows: ★/☆ favourited or not, ▲/△ boosted or not, each with its count.",
            screens: [.timeline, .post]
        ),
        CommandSpec(
            name: .quit, aliases: ["exit"], argument: .none, usage: "quit",
            summary: "end the session (also Ctrl-D)",
            details: "History is saved to the history file in interactive sessions.",
            screens: [.timeline, .post]
        ),
    ]

    /// The entry of `name`.
    public static func spec(_ name: CommandName) -> CommandSpec {
        // The table lists every case; the fallback keeps this total without a force unwrap.
        all.first { $0.name == name } ?? CommandSpec(
            name: name, aliases: [], argument: .none, usage: name.rawValue, summary: "", details: "", screens: []
        )
    }

    /// The command a word names (case-insensitive), if any.
    public static func command(named word: String) -> CommandName? {
        let lowered = word.lowercased()
        return all.first { $0.words.contains(lowered) }?.name
    }

    /// Every command word and alias, sorted: what Tab completes.
    public static let words: [String] = all.flatMap(\.words).filter { $0.allSatisfy(\.isLetter) }.sorted()

    /// The command words that start with `prefix` (case-insensitive), sorted.
    public static func completions(of prefix: String) -> [String] {
        let lowered = prefix.lowercased()
        return words.filter { $0.hasPrefix(lowered) }
    }

    /// The command closest to a mistyped word: one edit away (two for words of five letters or
    /// more, a swap of neighbours counting as one), or the only command the word starts.
    /// `nil` when nothing is close.
    public static func suggestion(for word: String) -> CommandName? {
        let lowered = word.lowercased()
        guard !lowered.isEmpty, lowered.count <= 32 else { return nil }
        let limit = lowered.count >= 5 ? 2 : 1
        var best: (name: CommandName, distance: Int)?
        for spec in all {
            for candidate in spec.words where candidate.allSatisfy(\.isLetter) {
                let distance = EditDistance.between(lowered, candidate)
                if distance <= limit, distance < (best?.distance ?? .max) { best = (spec.name, distance) }
            }
        }
        if let best { return best.name }
        let starting = Set(all.filter { spec in spec.words.contains { $0.allSatisfy(\.isLetter) && $0.hasPrefix(lowered) } }.map(\.name))
        return starting.count == 1 ? starting.first : nil
    }
}
