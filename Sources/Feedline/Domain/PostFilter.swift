import Foundation

/// Where a server filter applies, as Mastodon's filter contexts name them.
@_spi(FeedService) public enum FilterContext: String, Hashable, Sendable, CaseIterable, Codable {
    /// The home timeline and lists.
    case home
    /// The notifications screen.
    case notifications
    /// Public timelines: local, federated, hashtags.
    case `public`
    /// A post's thread and its detail.
    case thread
    /// An account's posts (a profile).
    case account
}

/// A server-side filter (Mastodon's v2 filters): what the user asked the server to do with posts
/// it matches, and where — as a post carries it (one that matched it), and as the filters screen
/// shows it (``ListRow/filter(_:state:)``, with its keywords and expiry).
public struct PostFilter: Hashable, Sendable, Codable {
    /// A word or phrase of a filter (Mastodon's `FilterKeyword`).
    @_spi(FeedService) public struct Keyword: Hashable, Sendable, Codable {
        /// The server's id; empty for a keyword not yet saved.
        public var id: String
        /// The word or phrase, as typed.
        public var keyword: String
        /// Whether it matches only whole words (`cat` not in `concatenate`).
        public var wholeWord: Bool

        public init(id: String = "", keyword: String, wholeWord: Bool) {
            self.id = id
            self.keyword = keyword
            self.wholeWord = wholeWord
        }
    }

    /// What to do with a matching post.
    public enum Action: String, Hashable, Sendable, Codable, Comparable {
        /// Show the post behind a warning naming the filter until the user reveals it.
        case warn
        /// Show the post, but its media only once revealed.
        case blur
        /// Do not show the post at all.
        case hide

        /// How strongly the action keeps the post away: `hide` > `warn` > `blur`.
        private var strength: Int {
            switch self {
            case .blur: 0
            case .warn: 1
            case .hide: 2
            }
        }

        public static func < (lhs: Action, rhs: Action) -> Bool { lhs.strength < rhs.strength }
    }

    /// The server's id (empty when the server did not say).
    public var id: String
    /// The filter's title, as the user named it ("Spoilers").
    public var title: String
    /// Where it applies.
    @_spi(FeedService) public var contexts: Set<FilterContext>
    public var action: Action
    /// Its keywords (empty on a filter a post carries: the server sends them only on the filter itself).
    @_spi(FeedService) public var keywords: [Keyword]
    /// When it stops applying; `nil`: never.
    public var expiresAt: Date?

    @_spi(FeedService) public init(
        id: String = "", title: String, contexts: Set<FilterContext>, action: Action, keywords: [Keyword] = [], expiresAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.contexts = contexts
        self.action = action
        self.keywords = keywords
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, contexts, action, keywords, expiresAt
    }

    /// Reads what ``encode(to:)`` writes; `id`, `keywords` and `expiresAt` may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        title = try container.decode(String.self, forKey: .title)
        contexts = try container.decode(Set<FilterContext>.self, forKey: .contexts)
        action = try container.decode(Action.self, forKey: .action)
        keywords = try container.decodeIfPresent([Keyword].self, forKey: .keywords) ?? []
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
    }

    /// Writes `id`, `keywords` and `expiresAt` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !id.isEmpty { try container.encode(id, forKey: .id) }
        try container.encode(title, forKey: .title)
        try container.encode(contexts, forKey: .contexts)
        try container.encode(action, forKey: .action)
        if !keywords.isEmpty { try container.encode(keywords, forKey: .keywords) }
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
    }
}

extension Post {
    /// The strongest filter of the shown content (the original, for a boost) that applies in
    /// `context`, or `nil` (also when `context` is `nil`: nothing filters there).
    package func filter(in context: FilterContext?) -> PostFilter? {
        guard let context else { return nil }
        return content.filters.filter { $0.contexts.contains(context) }.max { $0.action < $1.action }
    }

    /// Whether a `hide` filter keeps it out of lists in `context`.
    package func isHidden(in context: FilterContext?) -> Bool {
        filter(in: context)?.action == .hide
    }
}

extension Feed {
    /// The filter context of posts shown in this feed; `nil` where Mastodon applies none (the
    /// user's own bookmarks and favourites).
    package var filterContext: FilterContext? {
        switch self {
        case .home, .list: .home
        case .local, .public, .tag, .trending: .public
        case .account: .account
        case .bookmarks, .favourites: nil
        }
    }
}
