extension Mastodon {
    /// A hashtag a post uses (Mastodon's `Status::Tag`).
    public struct Tag: Codable, Hashable, Sendable, ReadableEntity {
        /// The tag without the `#`.
        public var name: String
        /// The tag's page on the server; empty when the server sent none.
        public var url: String

        enum CodingKeys: String, SnakeCaseKey {
            case name, url
        }
    }
}

extension Mastodon.Tag {
    /// Decodes tolerantly: `name` is required, `url` defaults to empty.
    init(reading container: some FieldReader<CodingKeys>) throws {
        name = try container.decode(String.self, forKey: .name)
        url = try container.value(.url, or: "")
    }
}
