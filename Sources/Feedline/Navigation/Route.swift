/// A screen as data. Fronts render the top route of the ``Navigator``'s stack.
public enum Route: Hashable, Sendable, CustomStringConvertible {
    /// A feed of posts: home, local, public, a hashtag, an account's posts, bookmarks…
    case feed(Feed)
    /// A post with its ancestors and replies, as a list whose rows can be opened.
    case thread(PostID)
    /// The signed-in user's notifications.
    case notifications
    /// The detail of a post (by entry or original id).
    case post(PostID)
    /// The versions of an edited post, as a list, newest first.
    case history(PostID)
    /// A list of accounts (followers, following, mutes, blocks, follow requests).
    case accounts(AccountList)
    /// Search results for a query: accounts, hashtags and posts.
    case search(String)
    /// The domains you blocked.
    case domainBlocks
    /// The hashtags you follow.
    case followedTags
    /// The hashtags trending on the server.
    case trendingTags
    /// Your direct conversations.
    case conversations
    /// Your lists.
    case userLists

    /// What the list of a list route shows; `nil` for a post route.
    public var listSource: ListSource? {
        switch self {
        case .feed(let feed): .feed(feed)
        case .thread(let id): .thread(id)
        case .notifications: .notifications
        case .history(let id): .history(id)
        case .accounts(let list): .accounts(list)
        case .search(let query): .search(query)
        case .domainBlocks: .domainBlocks
        case .followedTags: .followedTags
        case .trendingTags: .trendingTags
        case .conversations: .conversations
        case .userLists: .userLists
        case .post: nil
        }
    }

    /// The list route that shows `source`.
    public init(_ source: ListSource) {
        switch source {
        case .feed(let feed): self = .feed(feed)
        case .thread(let id): self = .thread(id)
        case .notifications: self = .notifications
        case .history(let id): self = .history(id)
        case .accounts(let list): self = .accounts(list)
        case .search(let query): self = .search(query)
        case .domainBlocks: self = .domainBlocks
        case .followedTags: self = .followedTags
        case .trendingTags: self = .trendingTags
        case .conversations: self = .conversations
        case .userLists: self = .userLists
        }
    }

    /// `feed(home)`, `thread(123)`, `notifications`, `post(123)`.
    public var description: String {
        switch self {
        case .feed(let feed): "feed(\(feed))"
        case .thread(let id): "thread(\(id))"
        case .notifications: "notifications"
        case .post(let id): "post(\(id))"
        case .history(let id): "history(\(id))"
        case .accounts(let list): "accounts(\(list))"
        case .search(let query): "search(\(query))"
        case .domainBlocks: "domainBlocks"
        case .followedTags: "followedTags"
        case .trendingTags: "trendingTags"
        case .conversations: "conversations"
        case .userLists: "userLists"
        }
    }
}

/// A route with the view model that serves it.
@MainActor
public enum Screen {
    case list(FeedListViewModel)
    case post(PostDetailViewModel)

    /// The route this screen serves.
    public var route: Route {
        switch self {
        case .list(let list): Route(list.source)
        case .post(let detail): .post(detail.id)
        }
    }

    /// The list view model, when this is a list screen.
    public var list: FeedListViewModel? {
        if case .list(let list) = self { return list }
        return nil
    }

    /// The detail view model, when this is a post screen.
    public var detail: PostDetailViewModel? {
        if case .post(let detail) = self { return detail }
        return nil
    }
}
