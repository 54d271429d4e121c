import Foundation

/// Your own profile as you edit it: what Mastodon's `verify_credentials` answers in plain text
/// (`source.note`, `source.fields`) and what `update_credentials` changes. The server's values
/// are untrusted text: a front prints them through its sanitiser.
@_spi(FeedService) public struct OwnProfile: Hashable, Sendable, Codable {
    /// Your account: its id, handle and display name.
    public var author: Author
    /// The bio as you wrote it (plain text).
    public var bio: String
    /// The profile's fields as you wrote them (plain text).
    public var fields: [Profile.Field]
    /// Follows need your approval.
    public var locked: Bool
    /// The account says it is automated.
    public var bot: Bool
    /// The account is listed in the profile directory.
    public var discoverable: Bool

    public init(author: Author, bio: String = "", fields: [Profile.Field] = [], locked: Bool = false, bot: Bool = false, discoverable: Bool = false) {
        self.author = author
        self.bio = bio
        self.fields = fields
        self.locked = locked
        self.bot = bot
        self.discoverable = discoverable
    }

    /// The profile with `edit` applied: what it gives replaces what it has.
    public func applying(_ edit: ProfileEdit) -> OwnProfile {
        var profile = self
        if let name = edit.displayName { profile.author.displayName = name }
        if let bio = edit.bio { profile.bio = bio }
        if let fields = edit.fields { profile.fields = fields.map { Profile.Field(name: $0.name, value: $0.value) } }
        if let locked = edit.locked { profile.locked = locked }
        if let bot = edit.bot { profile.bot = bot }
        if let discoverable = edit.discoverable { profile.discoverable = discoverable }
        return profile
    }

    /// `profile` (a profile screen's header, from the server) as this one shows it: the name,
    /// bio, fields and markers edited here.
    public func shown(on profile: Profile) -> Profile {
        var profile = profile
        profile.author.displayName = author.displayName
        profile.bio = bio
        profile.fields = fields
        profile.locked = locked
        profile.bot = bot
        return profile
    }
}

/// A change of your profile: each part given replaces the profile's (`nil`: kept). `fields`
/// replaces every field (an empty list clears them).
@_spi(FeedService) public struct ProfileEdit: Hashable, Sendable, Codable {
    public var displayName: String?
    public var bio: String?
    public var fields: [Profile.Field]?
    public var locked: Bool?
    public var bot: Bool?
    public var discoverable: Bool?

    public init(
        displayName: String? = nil, bio: String? = nil, fields: [Profile.Field]? = nil, locked: Bool? = nil, bot: Bool? = nil, discoverable: Bool? = nil
    ) {
        self.displayName = displayName
        self.bio = bio
        self.fields = fields
        self.locked = locked
        self.bot = bot
        self.discoverable = discoverable
    }

    /// The parts of `new` that differ from `old`: what a server is sent.
    public init(from old: OwnProfile, to new: OwnProfile) {
        self.init()
        if new.author.displayName != old.author.displayName { displayName = new.author.displayName }
        if new.bio != old.bio { bio = new.bio }
        if new.fields.map({ [$0.name, $0.value] }) != old.fields.map({ [$0.name, $0.value] }) { fields = new.fields }
        if new.locked != old.locked { locked = new.locked }
        if new.bot != old.bot { bot = new.bot }
        if new.discoverable != old.discoverable { discoverable = new.discoverable }
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { self == ProfileEdit() }
}

/// Why a change of your profile is not started (nothing is sent), with a sentence.
package enum ProfileProblem: Error, Hashable, Sendable {
    /// The edit changes nothing the profile shows.
    case nothingChanged
    /// More fields than Mastodon keeps.
    case tooManyFields(Int)
    /// A field without a name.
    case blankFieldName

    /// Mastodon's default number of profile fields.
    package static let fieldLimit = 4

    package var message: String {
        switch self {
        case .nothingChanged: "Your profile is so already; nothing was sent."
        case .tooManyFields(let count): "A profile has at most \(Self.fieldLimit) fields, not \(count)."
        case .blankFieldName: "A profile field needs a name (NAME=VALUE)."
        }
    }

    /// The problem as the session throws it: its ``message``, not transient.
    package var failure: FeedFailure { FeedFailure(message: message, isTransient: false) }
}
