/// The account's posting defaults (Mastodon's `GET /api/v1/preferences`): what a new draft and a
/// reply start with.
public struct ComposePreferences: Hashable, Sendable, Codable {
    /// `posting:default:visibility`.
    public var visibility: PostVisibility
    /// `posting:default:sensitive`.
    public var sensitive: Bool
    /// `posting:default:language`; `nil` lets the server guess.
    public var language: String?

    public init(visibility: PostVisibility = .public, sensitive: Bool = false, language: String? = nil) {
        self.visibility = visibility
        self.sensitive = sensitive
        self.language = language
    }
}

/// What a service tells a composer about the account and the server: who is signed in, their
/// defaults and the server's limits. Fetched once per session (see
/// `WritingService.composeSettings()`).
public struct ComposeSettings: Hashable, Sendable, Codable {
    /// The signed-in account.
    public var account: Author
    public var preferences: ComposePreferences
    public var limits: ComposeLimits

    public init(account: Author, preferences: ComposePreferences = ComposePreferences(), limits: ComposeLimits = .mastodonDefaults) {
        self.account = account
        self.preferences = preferences
        self.limits = limits
    }
}
