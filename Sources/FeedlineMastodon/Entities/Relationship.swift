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
        public var following: Bool
        /// The account's boosts show in the user's home timeline.
        public var showingReblogs: Bool
        /// The user is told when the account posts.
        public var notifying: Bool
        /// The account follows the user.
        public var followedBy: Bool
        /// The user blocks the account.
        public var blocking: Bool
        /// The account blocks the user.
        public var blockedBy: Bool
        /// The user mutes the account.
        public var muting: Bool
        /// The user's mute hides the account's notifications too.
        public var mutingNotifications: Bool
        /// The user asked to follow the account and it has not answered yet.
        public var requested: Bool
        /// The account asked to follow the user and the user has not answered yet.
        public var requestedBy: Bool
        /// The user blocks the account's whole domain.
        public var domainBlocking: Bool
        /// The user features the account on their profile.
        public var endorsed: Bool
        /// The user's private note about the account (plain text).
        public var note: String

        /// A relationship with these values; everything but `id` defaults to off (and `note` to empty).
        public init(
            id: String, following: Bool = false, showingReblogs: Bool = false, notifying: Bool = false, followedBy: Bool = false,
            blocking: Bool = false, blockedBy: Bool = false, muting: Bool = false, mutingNotifications: Bool = false,
            requested: Bool = false, requestedBy: Bool = false, domainBlocking: Bool = false, endorsed: Bool = false, note: String = ""
        ) {
            self.id = id
            self.following = following
            self.showingReblogs = showingReblogs
            self.notifying = notifying
            self.followedBy = followedBy
            self.blocking = blocking
            self.blockedBy = blockedBy
            self.muting = muting
            self.mutingNotifications = mutingNotifications
            self.requested = requested
            self.requestedBy = requestedBy
            self.domainBlocking = domainBlocking
            self.endorsed = endorsed
            self.note = note
        }

        enum CodingKeys: String, SnakeCaseKey {
            case id, following, notifying, blocking, muting, requested, endorsed, note, showingReblogs, followedBy, blockedBy
            case mutingNotifications, requestedBy, domainBlocking
        }

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
}
