import Foundation

/// A list of accounts a server serves: who follows an account, whom it follows, whom it features
/// on its profile, who favourited or boosted a post, and the signed-in user's mutes, blocks and follow requests. Shown by a ``FeedListViewModel`` of
/// ``ListSource/accounts(_:)`` as account rows (``AccountRow``); paged by
/// `RelationshipService.accounts(in:after:)`.
public enum AccountList: Hashable, Sendable, CustomStringConvertible {
    /// The accounts that follow this one.
    case followers(AccountID)
    /// The accounts this one follows.
    case following(AccountID)
    /// The accounts this one features on its profile (Mastodon's endorsements).
    case endorsed(AccountID)
    /// The accounts the signed-in user muted.
    case mutes
    /// The accounts the signed-in user blocked.
    case blocks
    /// The accounts that asked to follow the signed-in user and wait for an answer
    /// (``FeedListViewModel/answerRequest(row:accept:)``).
    case requests
    /// The accounts on one of the signed-in user's lists, by the list's id.
    case members(String)
    /// The accounts that favourited a post (its original, by id).
    case favouritedBy(PostID)
    /// The accounts that boosted a post (its original, by id).
    case boostedBy(PostID)

    /// `followers:ID`, `following:ID`, `endorsed:ID`, `mutes`, `blocks`, `requests`, `members:ID`,
    /// `favourited-by:ID`, `boosted-by:ID`.
    public var description: String {
        switch self {
        case .followers(let id): "followers:\(id)"
        case .following(let id): "following:\(id)"
        case .endorsed(let id): "endorsed:\(id)"
        case .mutes: "mutes"
        case .blocks: "blocks"
        case .requests: "requests"
        case .members(let id): "members:\(id)"
        case .favouritedBy(let id): "favourited-by:\(id)"
        case .boostedBy(let id): "boosted-by:\(id)"
        }
    }

    /// Reads what ``description`` writes; `nil` for anything else.
    public init?(_ text: String) {
        switch text {
        case "mutes": self = .mutes
        case "blocks": self = .blocks
        case "requests": self = .requests
        default:
            if text.hasPrefix("followers:"), text.count > 10 {
                self = .followers(AccountID(String(text.dropFirst(10))))
            } else if text.hasPrefix("following:"), text.count > 10 {
                self = .following(AccountID(String(text.dropFirst(10))))
            } else if text.hasPrefix("endorsed:"), text.count > 9 {
                self = .endorsed(AccountID(String(text.dropFirst(9))))
            } else if text.hasPrefix("members:"), text.count > 8 {
                self = .members(String(text.dropFirst(8)))
            } else if text.hasPrefix("favourited-by:"), text.count > 14 {
                self = .favouritedBy(PostID(String(text.dropFirst(14))))
            } else if text.hasPrefix("boosted-by:"), text.count > 11 {
                self = .boostedBy(PostID(String(text.dropFirst(11))))
            } else {
                return nil
            }
        }
    }

    /// How messages name it: "the followers of @kemi", "your mutes" …
    public var title: String {
        switch self {
        case .followers(let id): "the followers of \(id.handle.map { "@\($0)" } ?? "account \(id)")"
        case .following(let id): "the accounts \(id.handle.map { "@\($0)" } ?? "account \(id)") follows"
        case .endorsed(let id): "the accounts \(id.handle.map { "@\($0)" } ?? "account \(id)") features"
        case .mutes: "your mutes"
        case .blocks: "your blocks"
        case .requests: "your follow requests"
        case .members(let id): "the accounts on list \(id)"
        case .favouritedBy(let id): "the accounts who favourited post \(id)"
        case .boostedBy(let id): "the accounts who boosted post \(id)"
        }
    }

    /// Whether reading it needs a signed-in user (mutes, blocks and requests are the user's own).
    public var needsSignIn: Bool {
        switch self {
        case .followers, .following, .endorsed, .favouritedBy, .boostedBy: false
        case .mutes, .blocks, .requests, .members: true
        }
    }
}

/// A hashtag as search results and trends show it (Mastodon's `Tag`).
public struct Hashtag: Hashable, Sendable, Codable {
    /// The name without `#`, as the server spells it.
    public var name: String
    /// How many posts used it over the last week, when the server says.
    public var weeklyUses: Int?
    /// How many accounts used it over the last week, when the server says.
    public var weeklyAccounts: Int?
    /// Whether the signed-in user follows it, when the server says.
    public var following: Bool?
    /// For a hashtag an account features on its profile (``ProfileHeader/featuredTags``): how
    /// many of the account's posts use it, when the server says.
    public var accountPosts: Int?
    /// For a hashtag an account features: when the account last used it, when the server says.
    public var lastUsed: Date?

    public init(
        name: String, weeklyUses: Int? = nil, weeklyAccounts: Int? = nil, following: Bool? = nil, accountPosts: Int? = nil, lastUsed: Date? = nil
    ) {
        self.name = name
        self.weeklyUses = weeklyUses
        self.weeklyAccounts = weeklyAccounts
        self.following = following
        self.accountPosts = accountPosts
        self.lastUsed = lastUsed
    }

    /// The row identity's key: the name lower-cased (Mastodon's tags ignore case).
    public var key: String { name.lowercased() }
}

/// One result of a search (Mastodon's `/api/v2/search`): an account, a hashtag or a post.
@_spi(FeedService) public enum SearchResult: Hashable, Sendable {
    case account(Profile)
    case hashtag(Hashtag)
    case post(Post)
}
