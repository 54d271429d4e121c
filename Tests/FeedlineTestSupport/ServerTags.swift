@_spi(FeedService) import Feedline
import Foundation

/// The hashtags the signed-in user follows, as a Mastodon server keeps them: the tags slice of
/// ``ServerModel``.
///
/// Its laws (``set(_:to:)``): a name is taken trimmed, `#` optional, in any case (a hashtag is
/// one whatever its case); a new follow comes first; following twice is following once; an
/// unfollow leaves no follow; a name with anything but letters, digits and `_` is refused.
package struct ServerTags: Hashable, Sendable {
    /// The followed hashtags as spelled when followed, the newest follow first.
    package private(set) var followed: [String]
    /// Whether the followed list says `following` of each hashtag; off for a server that leaves
    /// it out (older Mastodon and some forks), so a client must not read it there.
    package var followedListSaysFollowing = true
    /// The trends as the test names them (a real server ranks its whole federation, which a
    /// model of a few posts cannot); `nil` ranks the model's own posts. A named trend whose
    /// `following` is `nil` is served without it (a server that leaves it out); the others say
    /// whether the user follows them now.
    package var trending: [Hashtag]?

    package init(_ followed: [String] = []) {
        self.followed = followed.map(Self.name)
    }

    /// Follows (`true`) or unfollows the hashtag `name`, and returns it afterwards.
    ///
    /// - Throws: ``ServerRefusal`` for no hashtag; nothing changes then.
    @discardableResult
    package mutating func set(_ name: String, to value: Bool) throws(ServerRefusal) -> Hashtag {
        let name = try Self.valid(name)
        let key = name.lowercased()
        if value {
            if !isFollowed(key) { followed.insert(name, at: 0) }
        } else {
            followed.removeAll { $0.lowercased() == key }
        }
        return tag(named: name)
    }

    /// The hashtag `name` (trimmed, `#` optional) and whether the user follows it.
    package func tag(named name: String) -> Hashtag {
        let name = Self.name(name)
        let spelled = followed.first { $0.lowercased() == name.lowercased() } ?? name
        return Hashtag(name: spelled, following: isFollowed(name))
    }

    /// Whether the user follows `name` (any case, `#` optional).
    package func isFollowed(_ name: String) -> Bool {
        let key = Self.name(name).lowercased()
        return followed.contains { $0.lowercased() == key }
    }

    /// `name` trimmed, without its leading `#`.
    package static func name(_ name: String) -> String {
        var name = Substring(name.trimmingCharacters(in: .whitespacesAndNewlines))
        while name.hasPrefix("#") { name = name.dropFirst() }
        return String(name)
    }

    /// `name` as a hashtag, or a refusal in the sandbox's words.
    package static func valid(_ name: String) throws(ServerRefusal) -> String {
        let name = Self.name(name)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw ServerRefusal("\"#\(name)\" is not a hashtag: a hashtag has only letters, digits and underscores.")
        }
        return name
    }
}
