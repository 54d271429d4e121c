extension Mastodon {
    /// Who may see a post. Any string decodes: servers add their own levels (`local`, `mutuals_only` …).
    public struct Visibility: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible, TreeReadable {
        /// The level as the server names it.
        public var rawValue: String

        /// The level named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Everyone, and listed on public timelines.
        public static let `public` = Visibility(rawValue: "public")
        /// Everyone, but not listed on public timelines.
        public static let unlisted = Visibility(rawValue: "unlisted")
        /// Followers only.
        public static let `private` = Visibility(rawValue: "private")
        /// The mentioned accounts only.
        public static let direct = Visibility(rawValue: "direct")

        /// The raw name.
        public var description: String { rawValue }
    }
}
