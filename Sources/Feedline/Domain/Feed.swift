import Foundation

/// A list of posts a server serves, as a value: the home timeline, a hashtag, an account's
/// posts… One list view model (``FeedListViewModel``) shows any of them; `FeedService` pages
/// any of them.
public enum Feed: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The signed-in user's home timeline.
    case home
    /// Public posts from the server's own users.
    case local
    /// Every public post the server knows.
    case `public`
    /// Public posts with a hashtag; the name without `#`, as the user typed it.
    case tag(String)
    /// The posts of one account, by the server's account id.
    case account(AccountID)
    /// The posts the signed-in user bookmarked.
    case bookmarks
    /// The posts the signed-in user favourited.
    case favourites
    /// One of the user's lists, by the server's list id.
    case list(String)
    /// The posts trending on the server, most engaged first (Mastodon's `trends/statuses`).
    case trending

    /// `home`, `local`, `public`, `tag:NAME`, `account:ID`, `bookmarks`, `favourites`, `list:ID`,
    /// `trending`.
    public var description: String {
        switch self {
        case .home: "home"
        case .local: "local"
        case .public: "public"
        case .tag(let name): "tag:\(name)"
        case .account(let id): "account:\(id)"
        case .bookmarks: "bookmarks"
        case .favourites: "favourites"
        case .list(let id): "list:\(id)"
        case .trending: "trending"
        }
    }

    /// Reads what ``description`` writes; `nil` for anything else.
    public init?(_ text: String) {
        switch text {
        case "home": self = .home
        case "local": self = .local
        case "public": self = .public
        case "bookmarks": self = .bookmarks
        case "favourites", "favorites": self = .favourites
        case "trending": self = .trending
        default:
            if let name = Self.value(text, after: "tag:") {
                self = .tag(name.hasPrefix("#") ? String(name.dropFirst()) : name)
            } else if let id = Self.value(text, after: "account:") {
                self = .account(AccountID(id))
            } else if let id = Self.value(text, after: "list:") {
                self = .list(id)
            } else {
                return nil
            }
        }
    }

    /// Whether reading it needs a signed-in user.
    public var needsSignIn: Bool {
        switch self {
        case .home, .bookmarks, .favourites, .list: true
        case .local, .public, .tag, .account, .trending: false
        }
    }

    private static func value(_ text: String, after prefix: String) -> String? {
        guard text.hasPrefix(prefix), text.count > prefix.count else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}

/// What a list screen shows: a feed of posts, the thread around a post, the notifications, a
/// list of accounts, or search results.
public enum ListSource: Hashable, Sendable, CustomStringConvertible {
    case feed(Feed)
    /// A post with its ancestors above and its replies below, as rows.
    case thread(PostID)
    /// The signed-in user's notifications, grouped.
    case notifications
    /// The signed-in user's notifications of these kinds only (not empty), grouped — Mastodon's
    /// `types[]`. The read marker follows the plain ``notifications`` only.
    case notificationsOf(Set<NotificationGroup.Kind>)
    /// The versions of an edited post, newest first (its edit history).
    case history(PostID)
    /// Accounts: followers, following, mutes, blocks, follow requests (``AccountRow`` rows).
    case accounts(AccountList)
    /// What a search finds: accounts, then hashtags, then posts (`RelationshipService.search(_:after:)`).
    case search(String)
    /// The domains the signed-in user blocked (``ListRow/domain(_:block:)`` rows).
    case domainBlocks
    /// The hashtags the signed-in user follows (hashtag rows).
    case followedTags
    /// The hashtags trending on the server (hashtag rows).
    case trendingTags
    /// The signed-in user's direct conversations (``ConversationRow`` rows).
    case conversations
    /// The signed-in user's lists (``UserListRow`` rows; ``FeedSession/userLists`` has them too).
    case userLists
    /// The signed-in user's server filters (``ListRow/filter(_:state:)`` rows).
    case filters
    /// The instance's announcements, each read or not (``FeedSession/announcementRead(_:)``).
    case announcements
    /// The signed-in user's scheduled posts, soonest first (`ListRow.scheduled(_:state:)` rows).
    case scheduled
    /// The notifications your server filtered, one request per account (Mastodon 4.3+), newest
    /// first (`ListRow.notificationRequest(_:state:)` rows).
    case notificationRequests

    /// The filter context of its posts (a thread's is ``FilterContext/thread``; search results
    /// are filtered as the public timelines are).
    package var filterContext: FilterContext? {
        switch self {
        case .feed(let feed): feed.filterContext
        case .thread, .history: .thread
        case .notifications, .notificationsOf: .notifications
        case .accounts, .domainBlocks, .followedTags, .trendingTags, .userLists, .filters, .announcements, .scheduled, .notificationRequests: nil
        case .conversations: nil
        case .search: .public
        }
    }

    public var description: String {
        switch self {
        case .feed(let feed): feed.description
        case .thread(let id): "thread:\(id)"
        case .notifications: "notifications"
        case .notificationsOf(let kinds): "notifications:" + NotificationGroup.Kind.filterNames(of: kinds)
        case .history(let id): "history:\(id)"
        case .accounts(let list): list.description
        case .search(let query): "search:\(query)"
        case .domainBlocks: "domain-blocks"
        case .followedTags: "followed-tags"
        case .trendingTags: "trending-tags"
        case .conversations: "conversations"
        case .userLists: "lists"
        case .filters: "filters"
        case .announcements: "announcements"
        case .scheduled: "scheduled"
        case .notificationRequests: "notification-requests"
        }
    }

    /// The kinds of notification it lists: every kind (empty) on the plain notifications, those
    /// it names on a filtered one; `nil` for a list of something else.
    package var notificationKinds: Set<NotificationGroup.Kind>? {
        switch self {
        case .notifications: []
        case .notificationsOf(let kinds): kinds
        default: nil
        }
    }

    /// Whether its rows include hashtags whose followed state the list keeps current.
    package var showsTags: Bool {
        switch self {
        case .search, .followedTags, .trendingTags: true
        case .feed, .thread, .notifications, .notificationsOf, .history, .domainBlocks, .accounts, .conversations, .userLists, .filters, .announcements, .scheduled, .notificationRequests: false
        }
    }

    /// Whether its rows come from (or depend on) the session's lists: the lists screen, a list's accounts.
    package var showsUserLists: Bool {
        switch self {
        case .userLists, .accounts(.members): true
        default: false
        }
    }

    /// Whether its rows are accounts whose relationships the list keeps current.
    package var showsAccounts: Bool {
        switch self {
        case .accounts, .search: true
        case .feed, .thread, .notifications, .notificationsOf, .history, .domainBlocks, .followedTags, .trendingTags, .conversations, .userLists, .filters, .announcements, .scheduled, .notificationRequests: false
        }
    }
}

/// The identity of an account as the server names it (opaque) — or, until a service has looked
/// it up, its handle: `AccountID(handle: "kemi@fieldnotes.science")` is `@kemi@fieldnotes.science`,
/// and a `FeedService` paging `Feed.account` of such an id resolves the handle first, so a
/// front can open a profile by handle without a lookup of its own.
public struct AccountID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// An account named by its handle (`user` or `user@host`; a leading `@` is fine).
    public init(handle: String) {
        var name = Substring(handle.trimmingBlanks(newlines: false))
        while name.hasPrefix("@") { name = name.dropFirst() }
        rawValue = "@" + name
    }

    /// The handle without `@`, when the account is named by handle and not looked up yet.
    public var handle: String? {
        rawValue.hasPrefix("@") && rawValue.count > 1 ? String(rawValue.dropFirst()) : nil
    }

    public var description: String { rawValue }
}

extension Feed {
    /// How messages name it: "the home timeline", "the #swift timeline", "your bookmarks".
    public var title: String {
        switch self {
        case .home: "the home timeline"
        case .local: "the local timeline"
        case .public: "the public timeline"
        case .tag(let name): "the #\(name) timeline"
        case .account(let id): "the posts of account \(id)"
        case .bookmarks: "your bookmarks"
        case .favourites: "your favourites"
        case .list(let id): "list \(id)"
        case .trending: "the trending posts"
        }
    }
}
