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
    /// The avatar's address on the server — or, while a new one is on its way, the file sent.
    public var avatar: String
    /// The header image's address on the server — or, while a new one is on its way, the file sent.
    public var header: String

    public init(
        author: Author, bio: String = "", fields: [Profile.Field] = [], locked: Bool = false, bot: Bool = false, discoverable: Bool = false,
        avatar: String = "", header: String = ""
    ) {
        self.author = author
        self.bio = bio
        self.fields = fields
        self.locked = locked
        self.bot = bot
        self.discoverable = discoverable
        self.avatar = avatar
        self.header = header
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
        if let avatar = edit.avatar { profile.avatar = avatar }
        if let header = edit.header { profile.header = header }
        return profile
    }

    /// The profile without its images: what an upload's answer is compared on (the server
    /// answers a file sent with its own address for it).
    var withoutImages: OwnProfile {
        var profile = self
        profile.avatar = ""
        profile.header = ""
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
    /// A file to upload as the avatar (its path), checked by the front before (``ProfileImage``).
    public var avatar: String?
    /// A file to upload as the header image (its path), checked likewise.
    public var header: String?

    public init(
        displayName: String? = nil, bio: String? = nil, fields: [Profile.Field]? = nil, locked: Bool? = nil, bot: Bool? = nil, discoverable: Bool? = nil,
        avatar: String? = nil, header: String? = nil
    ) {
        self.displayName = displayName
        self.bio = bio
        self.fields = fields
        self.locked = locked
        self.bot = bot
        self.discoverable = discoverable
        self.avatar = avatar
        self.header = header
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
        if new.avatar != old.avatar { avatar = new.avatar }
        if new.header != old.header { header = new.header }
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

/// Whether a file can be a profile's avatar or header image, said before anything is sent: a
/// front reads the file's first bytes (the core does no I/O) and asks ``problem(_:for:exists:firstBytes:)``.
@_spi(FeedService) public enum ProfileImage {
    /// The kinds Mastodon takes, by their first bytes.
    static func isImage(_ bytes: [UInt8]) -> Bool {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let gif = Array("GIF8".utf8)
        if bytes.starts(with: png) || bytes.starts(with: jpeg) || bytes.starts(with: gif) { return true }
        return bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    /// Why the file `path` cannot be your `role` ("avatar", "header image"), or `nil`: it does
    /// not exist, could not be read (`firstBytes` `nil`), or is not a PNG, JPEG, GIF or WebP image.
    public static func problem(_ path: String, for role: String, exists: Bool, firstBytes: [UInt8]?) -> String? {
        let shown = Echo.shortened(path, to: 80)
        guard exists else { return "There is no file \(shown) to use as your \(role); nothing was sent." }
        guard let firstBytes else { return "Cannot read the file \(shown) for your \(role); nothing was sent." }
        guard isImage(firstBytes) else { return "\(shown) is not an image (PNG, JPEG, GIF or WebP) for your \(role); nothing was sent." }
        return nil
    }
}
