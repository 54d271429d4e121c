import Foundation

extension Mastodon {
    /// How the signed-in user and one account relate (Mastodon's `Relationship`), as
    /// `GET /api/v1/accounts/relationships` and every follow, mute and block answer it.
    ///
    /// Only `id` is required. Flags absent or `null` read as `false`, except `showing_reblogs`,
    /// which then reads as "following or requested" (a follow shows boosts unless told not to);
    /// `note` defaults to an empty string. Mastodon says nothing about when a mute ends here
    /// (only `GET /api/v1/mutes` does), so neither does this entity.
    public struct Relationship: Codable, Hashable, Sendable, ReadableEntity {
        /// The id of the account it is about.
        public var id: String
        /// The user follows the account.
        public var following: Bool = false
        /// The account's boosts show in the user's home timeline.
        public var showingReblogs: Bool = false
        /// The user is told when the account posts.
        public var notifying: Bool = false
        /// The account follows the user.
        public var followedBy: Bool = false
        /// The user blocks the account.
        public var blocking: Bool = false
        /// The account blocks the user.
        public var blockedBy: Bool = false
        /// The user mutes the account.
        public var muting: Bool = false
        /// The user's mute hides the account's notifications too.
        public var mutingNotifications: Bool = false
        /// The user asked to follow the account and it has not answered yet.
        public var requested: Bool = false
        /// The account asked to follow the user and the user has not answered yet.
        public var requestedBy: Bool = false
        /// The user blocks the account's whole domain.
        public var domainBlocking: Bool = false
        /// The user features the account on their profile.
        public var endorsed: Bool = false
        /// The user's private note about the account (plain text).
        public var note: String = ""

        enum CodingKeys: String, SnakeCaseKey {
            case id, following, notifying, blocking, muting, requested, endorsed, note, showingReblogs, followedBy, blockedBy
            case mutingNotifications, requestedBy, domainBlocking
        }
    }
}

extension Mastodon.Relationship {
    /// Decodes tolerantly (see the type); throws a `DecodingError` at the offending coding path.
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        following = try container.value(.following, or: false)
        requested = try container.value(.requested, or: false)
        showingReblogs = try container.value(.showingReblogs, or: following || requested)
        notifying = try container.value(.notifying, or: false)
        followedBy = try container.value(.followedBy, or: false)
        blocking = try container.value(.blocking, or: false)
        blockedBy = try container.value(.blockedBy, or: false)
        muting = try container.value(.muting, or: false)
        mutingNotifications = try container.value(.mutingNotifications, or: false)
        requestedBy = try container.value(.requestedBy, or: false)
        domainBlocking = try container.value(.domainBlocking, or: false)
        endorsed = try container.value(.endorsed, or: false)
        note = try container.value(.note, or: "")
    }
}
