/// One command of the REPL, as the parser reads it. Row numbers are as typed (1-based); whether
/// a number names a row on the current screen is for the session to decide.
public enum Command: Hashable, Sendable {
    /// Back to the previous screen.
    case back
    /// Boost or unboost a timeline row (`boost 3`) or the open post (`boost`).
    case boost(row: Int?)
    /// Favourite or unfavourite a timeline row (`fav 3`) or the open post (`fav`).
    case favourite(row: Int?)
    /// Load the posts missing where the gap row stands.
    case gap(row: Int)
    /// The command list, or one command's help.
    case help(CommandName?)
    /// Redraw the screen.
    case list
    /// Show the next screen of rows.
    case more
    /// A blank line or a `#` comment: nothing to do.
    case nothing
    /// Open the detail of a row's post.
    case open(row: Int)
    /// End the session.
    case quit
    /// Load posts newer than the top one.
    case refresh
    /// Retry what failed last.
    case retry
}

extension Command {
    /// The command as one would type it, in its canonical spelling (`fav 3`, `help open`, `""`
    /// for ``nothing``). Law: ``CommandParser/parse(_:)`` of this text gives the command back.
    public var text: String {
        switch self {
        case .back: "back"
        case .boost(let row): row.map { "boost \($0)" } ?? "boost"
        case .favourite(let row): row.map { "fav \($0)" } ?? "fav"
        case .gap(let row): "gap \(row)"
        case .help(let topic): topic.map { "help \($0.rawValue)" } ?? "help"
        case .list: "list"
        case .more: "more"
        case .nothing: ""
        case .open(let row): "open \(row)"
        case .quit: "quit"
        case .refresh: "refresh"
        case .retry: "retry"
        }
    }
}
