/// Which notifications your server filters, and from whom (Mastodon 4.3's
/// `NotificationPolicy`, `GET /api/v2/notifications/policy`): for each kind of sender, whether
/// their notifications are accepted, filtered into notification requests, or dropped — and how
/// many are waiting as requests. A service's value: a front reads it through
/// `FeedSession.notificationPolicy` and changes one field with
/// `FeedSession.setNotificationPolicy(_:to:)`.
@_spi(FeedService) public struct NotificationPolicy: Hashable, Sendable {
    /// What the server does with the notifications of one kind of sender.
    @_spi(FeedService) public enum Handling: String, CaseIterable, Hashable, Sendable {
        /// Shown as any other notification.
        case accept
        /// Kept aside as a notification request, to accept or dismiss.
        case filter
        /// Never made at all.
        case drop
    }

    /// A kind of sender the policy has a rule for, named as the fronts type it
    /// (``name``: `not-following`) and said in plain English (``phrase``).
    @_spi(FeedService) public enum Field: String, CaseIterable, Hashable, Sendable {
        /// People you don't follow (`for_not_following`).
        case notFollowing = "for_not_following"
        /// People who don't follow you (`for_not_followers`).
        case notFollowers = "for_not_followers"
        /// Accounts made in the past 30 days (`for_new_accounts`).
        case newAccounts = "for_new_accounts"
        /// Private mentions you did not start (`for_private_mentions`).
        case privateMentions = "for_private_mentions"
        /// Accounts a moderator limited (`for_limited_accounts`).
        case limitedAccounts = "for_limited_accounts"

        /// The name the fronts take: `not-following`, `not-followers`, `new-accounts`,
        /// `private-mentions`, `limited-accounts`.
        public var name: String {
            switch self {
            case .notFollowing: "not-following"
            case .notFollowers: "not-followers"
            case .newAccounts: "new-accounts"
            case .privateMentions: "private-mentions"
            case .limitedAccounts: "limited-accounts"
            }
        }

        /// Who it concerns, in plain English: "people you don't follow".
        public var phrase: String {
            switch self {
            case .notFollowing: "people you don't follow"
            case .notFollowers: "people who don't follow you"
            case .newAccounts: "new accounts"
            case .privateMentions: "private mentions"
            case .limitedAccounts: "moderated accounts"
            }
        }

        /// The field a front's name (``name``, any case) or the API's names; `nil` for none.
        public init?(name: String) {
            let lowered = name.lowercased()
            guard let field = Self.allCases.first(where: { $0.name == lowered || $0.rawValue == lowered }) else { return nil }
            self = field
        }

        /// The names a front takes, for a usage sentence: `not-following, …, limited-accounts`.
        public static var nameList: String { allCases.map(\.name).joined(separator: ", ") }
    }

    /// How many accounts' notifications wait as notification requests.
    public var pendingRequests: Int
    /// How many notifications wait in those requests.
    public var pendingNotifications: Int
    private var handling: [Field: Handling]

    /// A policy with `handling` for the fields given (the others accept), and the summary counts.
    public init(_ handling: [Field: Handling] = [:], pendingRequests: Int = 0, pendingNotifications: Int = 0) {
        self.handling = handling
        self.pendingRequests = pendingRequests
        self.pendingNotifications = pendingNotifications
    }

    /// What the server does with the notifications `field` concerns.
    public subscript(field: Field) -> Handling {
        get { handling[field] ?? .accept }
        set { handling[field] = newValue }
    }
}
