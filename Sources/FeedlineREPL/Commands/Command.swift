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
