import Feedline

/// A list a `lists` command names: by its name (as typed; the session finds it without regard
/// to case) or by its row number on the lists screen.
public enum ListReference: Hashable, Sendable {
    case name(String)
    case row(Int)

    /// As the parser reads it back: a row number bare; a name bare when it is one plain word
    /// (not digits, not `--yes`), else in quotes.
    var text: String {
        switch self {
        case .row(let row): return String(row)
        case .name(let name):
            let plain =
                !name.isEmpty && !name.contains(where: { $0.isWhitespace || $0 == "\"" || $0.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) })
                && CommandParser.rowNumber(name) == .failure(.notDigits) && name.lowercased() != "--yes"
            return plain ? name : "\"" + name + "\""
        }
    }
}

/// What a `lists` line asks for.
public enum ListsCommand: Hashable, Sendable {
    /// `lists`: the lists screen.
    case show
    /// `lists new NAME`.
    case create(String)
    /// `lists rename NAME NEW`.
    case rename(ListReference, String)
    /// `lists delete NAME [--yes]`.
    case delete(ListReference, confirmed: Bool)
    /// `lists add NAME @user` (`true`) or `lists remove NAME @user`; the handle without `@`.
    case membership(ListReference, handle: String, add: Bool)
    /// `lists accounts NAME`: who is on the list.
    case accounts(ListReference)
    /// `lists open NAME`: the list's posts.
    case open(ListReference)

    /// The line that parses back to this command.
    public var text: String {
        switch self {
        case .show: "lists"
        case .create(let title): "lists new " + Self.titleText(title)
        case .rename(let list, let title): "lists rename \(list.text) " + Self.titleText(title)
        case .delete(let list, let confirmed): "lists delete \(list.text)" + (confirmed ? " --yes" : "")
        case .membership(let list, let handle, let add): "lists \(add ? "add" : "remove") \(list.text) @\(handle)"
        case .accounts(let list): "lists accounts \(list.text)"
        case .open(let list): "lists open \(list.text)"
        }
    }

    /// A title at the end of a line: as typed, in another pair of quotes when it is itself quoted.
    private static func titleText(_ title: String) -> String {
        title.count >= 2 && title.hasPrefix("\"") && title.hasSuffix("\"") ? "\"" + title + "\"" : title
    }

    /// Whether it needs the lists loaded: it names a list by its name, or makes one (whose name
    /// must differ from theirs).
    var needsLists: Bool {
        switch self {
        case .show: false
        case .create: true
        case .rename(let list, _), .delete(let list, _), .membership(let list, _, _), .accounts(let list), .open(let list):
            if case .name = list { true } else { false }
        }
    }

    /// The words after `lists`.
    public static let actions = ["accounts", "add", "delete", "new", "open", "remove", "rename"]
}
