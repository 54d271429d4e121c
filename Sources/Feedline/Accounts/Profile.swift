import Foundation

/// Who an account is, as a profile's header shows it: names, bio, fields, counts and markers.
/// Text is plain (the server's HTML already turned into text).
public struct Profile: Hashable, Sendable, Codable {
    /// One row of the profile's metadata ("Pronouns: she/her").
    public struct Field: Hashable, Sendable, Codable {
        public var name: String
        public var value: String
        /// Whether the server verified the link in `value` back to the profile.
        public var verified: Bool

        public init(name: String, value: String, verified: Bool = false) {
            self.name = name
            self.value = value
            self.verified = verified
        }
    }

    public var author: Author
    /// The biography as text; may be empty.
    public var bio: String
    public var fields: [Field]
    public var followersCount: Int
    public var followingCount: Int
    public var postsCount: Int
    /// When the account was made.
    public var joined: Date?
    /// The account says it is automated.
    public var bot: Bool
    /// Follows need its approval.
    public var locked: Bool
    /// A group account (its posts are boosts of its members').
    public var group: Bool
    /// The account it moved to, if it moved.
    public var movedTo: Author?

    public init(
        author: Author, bio: String = "", fields: [Field] = [], followersCount: Int = 0, followingCount: Int = 0, postsCount: Int = 0,
        joined: Date? = nil, bot: Bool = false, locked: Bool = false, group: Bool = false, movedTo: Author? = nil
    ) {
        self.author = author
        self.bio = bio
        self.fields = fields
        self.followersCount = followersCount
        self.followingCount = followingCount
        self.postsCount = postsCount
        self.joined = joined
        self.bot = bot
        self.locked = locked
        self.group = group
        self.movedTo = movedTo
    }

    /// The account's id as lists and the relationship store name it.
    public var accountID: AccountID { AccountID(author.id) }
}
