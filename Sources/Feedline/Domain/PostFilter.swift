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

/// A server-side filter (Mastodon's v2 filters) that matched a post: what the user asked the
/// server to do with such posts, and where.
public struct PostFilter: Hashable, Sendable, Codable {
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

    /// The filter's title, as the user named it ("Spoilers").
    public var title: String
    /// Where it applies.
    @_spi(FeedService) public var contexts: Set<FilterContext>
    public var action: Action

    @_spi(FeedService) public init(title: String, contexts: Set<FilterContext>, action: Action) {
        self.title = title
        self.contexts = contexts
        self.action = action
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
