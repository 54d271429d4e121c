import Feedline
import Foundation

/// The hashtags the user follows on the sandbox, as Mastodon keeps them: each once (names
/// compare without case), the newest follow first — the order `GET /api/v1/followed_tags`
/// pages them in.
///
/// A name is kept as it was first spelled (the scenario's `followed_tags`, or what
/// ``set(_:to:)`` was given); what the sandbox shows prefers the spelling of the posts that use
/// it (see `SandboxService+Tags.swift`).
struct SandboxTags: Sendable {
    /// The names, newest follow first; no two with the same ``key(_:)``.
    private(set) var followed: [String]
    /// The keys of ``followed``.
    private var keys: Set<String>

    /// The user follows `followed` (newest follow first; names as ``name(_:)`` reads them, each
    /// kept once, the first spelling winning). The names are checked by ``SandboxScenario/problem``.
    init(followed: [String] = []) {
        self.followed = []
        keys = []
        for name in followed.map(Self.name) where keys.insert(Self.key(name)).inserted {
            self.followed.append(name)
        }
    }

    /// Whether the user follows the hashtag `name` (any case, `#` optional).
    ///
    /// - Complexity: O(1).
    func isFollowed(_ name: String) -> Bool {
        keys.contains(Self.key(name))
    }

    /// Follows (`true`: first in the list, unless followed already, which keeps its place) or
    /// unfollows the hashtag `name` (trimmed, `#` optional, any case). Idempotent.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` — never transient — for an empty name or one that is
    ///   no hashtag name.
    /// - Complexity: O(followed) for an unfollow, O(1) otherwise.
    mutating func set(_ name: String, to value: Bool) throws(SandboxError) {
        let tag = Self.name(name)
        guard !tag.isEmpty else { throw .refused("There is no hashtag to \(value ? "follow" : "unfollow").") }
        guard Self.isName(tag) else {
            throw .refused("\"#\(Self.shown(tag))\" is not a hashtag: a hashtag has only letters, digits and underscores.")
        }
        let key = Self.key(tag)
        if value {
            guard keys.insert(key).inserted else { return }
            followed.insert(tag, at: 0)
        } else {
            guard keys.remove(key) != nil else { return }
            followed.removeAll { Self.key($0) == key }
        }
    }

    /// `text` as a hashtag's name: trimmed, without leading `#`.
    static func name(_ text: String) -> String {
        var name = Substring(text.trimmingBlanks(newlines: true))
        while name.hasPrefix("#") { name = name.dropFirst() }
        return String(name)
    }

    /// What names compare by: the name lower-cased (Mastodon's hashtags ignore case), as
    /// ``Feedline/Hashtag/key`` does.
    static func key(_ name: String) -> String {
        name.lowercased()
    }

    /// Whether `name` (see ``name(_:)``) can be a hashtag: 1–100 letters, digits and underscores
    /// (``Feedline/Feed/isTagName(_:)``).
    static func isName(_ name: String) -> Bool {
        name.count <= 100 && Feed.isTagName(name)
    }

    /// A name as a message shows it: one line, at most 60 characters.
    private static func shown(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return line.count > 60 ? String(line.prefix(60)) + "…" : line
    }
}
