/// Who may see a post, from the widest audience to the narrowest. Ordered by strictness:
/// `public < unlisted < private < direct`, so the stricter of two is their `max`.
public enum PostVisibility: String, Hashable, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// Everyone, and listed on public timelines.
    case `public`
    /// Everyone, but not listed on public timelines.
    case unlisted
    /// Followers only (Mastodon's `private`).
    case `private`
    /// The mentioned accounts only.
    case direct

    /// A level a server names: `public`, `unlisted`, `private` and `direct`; any other level
    /// (servers add their own, such as `local`) reads as the nearest stricter one we know,
    /// `unlisted`, so that nothing is shown as more public than it is.
    public init(serverName: String) {
        self = PostVisibility(rawValue: serverName) ?? .unlisted
    }

    /// A level a user types: the server's names, plus `followers` for `private`; `nil` for
    /// anything else.
    public init?(typed: String) {
        switch typed.lowercased() {
        case "followers", "followers-only": self = .private
        default: self.init(rawValue: typed.lowercased())
        }
    }

    /// How strict it is: 0 for `public` up to 3 for `direct`.
    private var strictness: Int {
        switch self {
        case .public: 0
        case .unlisted: 1
        case .private: 2
        case .direct: 3
        }
    }

    public static func < (lhs: PostVisibility, rhs: PostVisibility) -> Bool { lhs.strictness < rhs.strictness }

    /// The server's name: `public`, `unlisted`, `private`, `direct`.
    public var description: String { rawValue }

    /// A short label for a row: empty for `public` (the default needs no mark), else
    /// `unlisted`, `followers only` or `direct`.
    public var label: String {
        switch self {
        case .public: ""
        case .unlisted: "unlisted"
        case .private: "followers only"
        case .direct: "direct"
        }
    }
}

extension PostVisibility: CodingDefault {
    static var codingDefault: PostVisibility { .public }
}
