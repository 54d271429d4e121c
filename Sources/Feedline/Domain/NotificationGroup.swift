import Foundation

/// Notifications of one kind about one thing, shown as one row — "Ana, Bo and 3 others
/// favourited your post" — as Mastodon 4.3's grouped notifications present them. A server
/// without grouping gives groups of one (or groups the service made on the client).
public struct NotificationGroup: Hashable, Sendable, Identifiable {
    /// What happened.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// Someone mentioned the user.
        case mention
        /// Someone the user asked to be told about posted.
        case status
        case reblog
        case follow
        case followRequest
        case favourite
        /// A poll the user voted in or made has ended.
        case poll
        /// A post the user boosted was edited.
        case update
        /// Anything else, by the server's name for it.
        case other(String)

        /// Reads the API's `type` (`mention`, `follow_request`, …).
        public init(apiName: String) {
            switch apiName {
            case "mention": self = .mention
            case "status": self = .status
            case "reblog": self = .reblog
            case "follow": self = .follow
            case "follow_request": self = .followRequest
            case "favourite": self = .favourite
            case "poll": self = .poll
            case "update": self = .update
            default: self = .other(apiName)
            }
        }

        /// The API's `type`.
        public var apiName: String {
            switch self {
            case .mention: "mention"
            case .status: "status"
            case .reblog: "reblog"
            case .follow: "follow"
            case .followRequest: "follow_request"
            case .favourite: "favourite"
            case .poll: "poll"
            case .update: "update"
            case .other(let name): name
            }
        }

        public var description: String { apiName }
    }

    /// The group's key: stable while the group grows.
    public var id: String
    public var kind: Kind
    /// Some of the accounts that acted, newest first (a sample when there are many).
    public var accounts: [Author]
    /// How many notifications the group holds (at least one).
    public var count: Int
    /// The post the notifications are about, when there is one.
    public var post: Post?
    /// When the newest notification of the group happened.
    public var latestAt: Date
    /// The id of the newest notification in the group (newer pages start above it).
    @_spi(FeedService) public var newestID: ItemID
    /// The id of the oldest notification of the group on its page (older pages start below it).
    @_spi(FeedService) public var oldestID: ItemID

    /// A group as a service makes it.
    @_spi(FeedService) public init(
        id: String, kind: Kind, accounts: [Author], count: Int, post: Post? = nil, latestAt: Date,
        newestID: ItemID, oldestID: ItemID? = nil
    ) {
        self.id = id
        self.kind = kind
        self.accounts = accounts
        self.count = max(1, count)
        self.post = post
        self.latestAt = latestAt
        self.newestID = newestID
        self.oldestID = oldestID ?? newestID
    }

    /// "Ana favourited your post", "Ana and Bo boosted your post", "Ana, Bo and 3 others
    /// followed you": the group's line, with the accounts' display names.
    public var summary: String {
        let names = accounts.map(\.name)
        let others = count - min(names.count, 2)
        let who: String
        switch (names.count, others) {
        case (0, _): who = count == 1 ? "Someone" : "\(count) people"
        case (1, 0): who = names[0]
        case (_, 0) where names.count >= 2: who = "\(names[0]) and \(names[1])"
        case (1, let rest): who = "\(names[0]) and \(rest) other\(rest == 1 ? "" : "s")"
        default: who = "\(names[0]), \(names[1]) and \(others) other\(others == 1 ? "" : "s")"
        }
        let what: String = switch kind {
        case .mention: "mentioned you"
        case .status: "posted"
        case .reblog: "boosted your post"
        case .follow: "followed you"
        case .followRequest: "asked to follow you"
        case .favourite: "favourited your post"
        case .poll: "ended a poll"
        case .update: "edited a post you boosted"
        case .other(let name): "sent a notification (\(name))"
        }
        if case .poll = kind { return "A poll you voted in or made has ended" }
        return "\(who) \(what)"
    }
}

extension NotificationGroup {
    /// How many accounts a group keeps as a sample.
    public static let sampleSize = 8

    /// Whether the group is about a post it does not carry: a mention, a post, a favourite, a
    /// boost, an ended poll or an edit whose post is gone (deleted, or left out of the answer) —
    /// nothing to show or open, so lists leave it out, as Mastodon drops such notifications.
    public var isAboutMissingPost: Bool {
        guard post == nil else { return false }
        switch kind {
        case .mention, .status, .reblog, .favourite, .poll, .update: return true
        case .follow, .followRequest, .other: return false
        }
    }

    /// How far apart (by their newest notifications) two groups of one kind about one thing may
    /// be and still be one group: Mastodon 4.3 groups within 12 hours.
    public static let maximumJoinSpan: TimeInterval = 12 * 3_600

    /// Whether groups of its kind join others about the same thing: favourites and boosts of a
    /// post, and follows, as Mastodon 4.3 groups them.
    var joinsOthers: Bool {
        switch kind {
        case .favourite, .reblog, .follow: true
        case .mention, .status, .followRequest, .poll, .update, .other: false
        }
    }

    /// Whether `other` (of another key) belongs in this group: the same kind, about the same
    /// post (follows: about nothing), within ``maximumJoinSpan`` of this group's newest.
    func accepts(_ other: NotificationGroup) -> Bool {
        guard joinsOthers, other.kind == kind, other.post?.originalID == post?.originalID else { return false }
        return abs(other.latestAt.timeIntervalSince(latestAt)) < Self.maximumJoinSpan
    }

    /// The group after `newer` (notifications of the same group, such as a streamed one) joined
    /// it: counts add up, its accounts come first (each account once, a sample of at most
    /// ``sampleSize``), the newest notification and date are `newer`'s, the oldest stays this
    /// group's, and the post is the newer copy.
    public func merging(newer: NotificationGroup) -> NotificationGroup {
        var merged = self
        merged.count = count + newer.count
        var seen = Set<String>()
        merged.accounts = Array((newer.accounts + accounts).filter { seen.insert($0.id).inserted }.prefix(Self.sampleSize))
        merged.latestAt = max(latestAt, newer.latestAt)
        merged.newestID = newer.newestID
        merged.post = newer.post ?? post
        return merged
    }
}
