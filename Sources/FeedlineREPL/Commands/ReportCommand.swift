@_spi(FeedService) import Feedline

/// `report N [--posts 3,5] [--forward] [--category spam|legal|violation|other] [--rules 1,2]
/// [--yes] COMMENT…`: report row N's account (a post row: its author, with that post) to your
/// server's moderators.
public struct ReportCommand: Hashable, Sendable {
    /// The row whose account is reported (`nil`: the post or profile on top).
    public var row: Int?
    /// More rows whose posts the report attaches (each by the same account).
    public var posts: [Int] = []
    /// A copy goes to the account's own server.
    public var forward = false
    @_spi(FeedService) public var category: ReportCategory = .other
    /// The numbers `rules` shows the broken rules under (1-based).
    public var rules: [Int] = []
    /// Sent without asking (`--yes`): a script must say it.
    public var confirmed = false
    /// What the moderators read.
    public var comment = ""

    public init(row: Int?) { self.row = row }

    /// The command as typed, in canonical spelling.
    public var text: String {
        var words = ["report"]
        if let row { words.append(String(row)) }
        if !posts.isEmpty { words += ["--posts", posts.map(String.init).joined(separator: ",")] }
        if forward { words.append("--forward") }
        if category != .other { words += ["--category", category.rawValue] }
        if !rules.isEmpty { words += ["--rules", rules.map(String.init).joined(separator: ",")] }
        if confirmed { words.append("--yes") }
        if !comment.isEmpty { words.append(comment) }
        return words.joined(separator: " ")
    }

    /// The longest comment Mastodon takes.
    static let commentLimit = 1_000
}
