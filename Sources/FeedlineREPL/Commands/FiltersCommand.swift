@_spi(FeedService) import Feedline

/// What `filters new` and `filters edit` set: each option as typed (`nil`: not given).
public struct FilterOptions: Hashable, Sendable {
    /// `--keyword WORD`, in order (a keyword of several words in quotes).
    public var keywords: [String] = []
    /// `--whole-word`: the keywords match whole words only.
    public var wholeWord = false
    /// `--context home,notifications,…`: the contexts' names, in Mastodon's order.
    public var contexts: [String]?
    /// `--hide`, `--warn` or `--blur`.
    public var action: PostFilter.Action?
    /// `--expires 1d`: seconds from now.
    public var expiresIn: Int?

    public init() {}

    /// The options as the parser reads them back.
    var text: String {
        var words: [String] = []
        for keyword in keywords { words.append("--keyword " + FiltersCommand.quoted(keyword)) }
        if wholeWord { words.append("--whole-word") }
        if let contexts { words.append("--context " + contexts.joined(separator: ",")) }
        if let action { words.append("--" + action.rawValue) }
        if let expiresIn { words.append("--expires " + FilterOptions.durationText(expiresIn)) }
        return words.joined(separator: " ")
    }

    /// Seconds as `--expires` takes them: in days, hours or minutes when whole, else seconds.
    static func durationText(_ seconds: Int) -> String {
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % size == 0 { return "\(seconds / size)\(unit)" }
        return "\(seconds)s"
    }
}

/// What a `filters` line asks for (bare `filters` shows the screen).
public enum FiltersCommand: Hashable, Sendable {
    /// `filters new TITLE OPTIONS`.
    case create(title: String, FilterOptions)
    /// `filters edit N [TITLE] OPTIONS`: row N of the filters screen.
    case edit(row: Int, title: String?, FilterOptions)
    /// `filters delete N [--yes]`.
    case delete(row: Int, confirmed: Bool)

    /// The line that parses back to this command.
    public var text: String {
        switch self {
        case .create(let title, let options): (["filters new", Self.quoted(title), options.text].filter { !$0.isEmpty }).joined(separator: " ")
        case .edit(let row, let title, let options):
            (["filters edit \(row)", title.map(Self.quoted) ?? "", options.text].filter { !$0.isEmpty }).joined(separator: " ")
        case .delete(let row, let confirmed): "filters delete \(row)" + (confirmed ? " --yes" : "")
        }
    }

    /// A word bare when it is one plain word, else in quotes.
    static func quoted(_ text: String) -> String {
        text.isEmpty || text.contains(where: { $0.isWhitespace || $0 == "\"" }) || text.hasPrefix("--") ? "\"" + text + "\"" : text
    }
}
