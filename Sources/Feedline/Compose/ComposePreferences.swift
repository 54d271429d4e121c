/// The account's posting defaults (Mastodon's `GET /api/v1/preferences`): what a new draft and a
/// reply start with. A service implementer's concern: ``Drafts`` applies them to every new draft.
@_spi(FeedService) public struct ComposePreferences: Hashable, Sendable, Codable {
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
/// defaults and the server's limits. A service implementer's concern: a front reads
/// ``Drafts/account`` and ``Drafts/limits``. Fetched once per session (see
/// `WritingService.composeSettings()`).
@_spi(FeedService) public struct ComposeSettings: Hashable, Sendable, Codable {
    /// The signed-in account.
    public var account: Author
    /// The account's posting defaults, which every new draft starts with.
    @_spi(FeedService) public var preferences: ComposePreferences
    public var limits: ComposeLimits

    @_spi(FeedService) public init(account: Author, preferences: ComposePreferences = ComposePreferences(), limits: ComposeLimits = .mastodonDefaults) {
        self.account = account
        self.preferences = preferences
        self.limits = limits
    }
}
