/// Reporting accounts to the moderators of your server, and the rules a report can name. Part
/// of `FeedService`.
@_spi(FeedService) public protocol ReportService: Sendable {
    /// Files `report` with the moderators (Mastodon's `POST /api/v1/reports`). A refusal throws
    /// an error with the server's sentence.
    func report(_ report: AccountReport) async throws

    /// The instance's rules, in the server's order (`GET /api/v1/instance/rules`).
    func instanceRules() async throws -> [InstanceRule]
}

/// Why an account is reported (Mastodon's `category`).
@_spi(FeedService) public enum ReportCategory: String, Hashable, Sendable, CaseIterable {
    /// Unwanted or repetitive content.
    case spam
    /// Content illegal where you or the server are (Mastodon 4.2 and later).
    case legal
    /// One or more of the instance's rules broken (the only category that names rules).
    case violation
    /// Another reason, said in the comment (the server's default).
    case other
}

/// A report of an account, as it is sent: who, which of their posts, why.
@_spi(FeedService) public struct AccountReport: Hashable, Sendable {
    /// The account reported.
    public var account: AccountID
    /// Its posts attached to the report (originals' ids), in the order given.
    public var posts: [PostID]
    /// What the moderators read (Mastodon takes up to 1,000 characters).
    public var comment: String
    /// Whether a copy goes to the moderators of the account's own server (a remote account).
    public var forward: Bool
    /// Why (``ReportCategory/other`` unless said).
    public var category: ReportCategory
    /// The ids of the instance's rules broken (``InstanceRule/id``); only with
    /// ``ReportCategory/violation``.
    public var rules: [String]

    /// A report of `account`; everything else as Mastodon's defaults unless given.
    public init(account: AccountID, posts: [PostID] = [], comment: String = "", forward: Bool = false, category: ReportCategory = .other, rules: [String] = []) {
        self.account = account
        self.posts = posts
        self.comment = comment
        self.forward = forward
        self.category = category
        self.rules = rules
    }

    /// Why the report cannot be sent as it is, before anything is sent — `nil` when it can: rules
    /// are named only for a broken rule (``ReportCategory/violation``), which must name one.
    public var refusal: String? {
        if !rules.isEmpty, category != .violation {
            return "Rules are named only in a report of a broken rule: use --category violation with --rules (this one is \(category.rawValue))."
        }
        if category == .violation, rules.isEmpty {
            return "A report of a broken rule names the rules broken: add --rules with their numbers (see `rules`)."
        }
        return nil
    }
}

/// One of the instance's rules (Mastodon's `Rule`).
@_spi(FeedService) public struct InstanceRule: Hashable, Sendable {
    /// The server's id of the rule, which a report names.
    public var id: String
    /// The rule.
    public var text: String
    /// More about it (Mastodon 4.3 and later); empty when there is none.
    public var hint: String

    /// A rule with its server id, its text and its hint (empty for none).
    public init(id: String, text: String, hint: String = "") {
        self.id = id
        self.text = text
        self.hint = hint
    }
}
