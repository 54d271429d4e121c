extension Mastodon {
    /// A link preview the server made for the first link of a post (Mastodon's `PreviewCard`).
    ///
    /// Only `url` is required; the texts default to empty strings and `type` to `link`.
    public struct Card: Codable, Hashable, Sendable, ReadableEntity {
        /// The page the card previews.
        public var url: String
        /// The page's title; may be empty.
        public var title: String
        /// The page's summary; often empty.
        public var description: String = ""
        /// `link`, `photo`, `video` or `rich`.
        public var type: String = "link"
        /// The page's author, if the server found one.
        public var authorName: String?
        /// The site's name, if the server found one.
        public var providerName: String?
        /// A preview image address, if any.
        public var image: String?

        enum CodingKeys: String, SnakeCaseKey {
            case url, title, description, type, image, authorName, providerName
        }
    }
}

extension Mastodon.Card {
    init(reading container: some FieldReader<CodingKeys>) throws {
        url = try container.decode(String.self, forKey: .url)
        title = try container.value(.title, or: "")
        description = try container.value(.description, or: "")
        type = try container.value(.type, or: "link")
        authorName = try container.decodeIfPresent(String.self, forKey: .authorName)
        providerName = try container.decodeIfPresent(String.self, forKey: .providerName)
        image = try container.decodeIfPresent(String.self, forKey: .image)
    }
}
