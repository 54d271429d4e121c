extension Mastodon {
    /// A custom emoji a post or an account name uses as `:shortcode:` (Mastodon's `CustomEmoji`).
    ///
    /// Only `shortcode` is required; the image addresses default to empty strings.
    public struct CustomEmoji: Codable, Hashable, Sendable, ReadableEntity {
        /// The name between the colons, without them.
        public var shortcode: String
        /// The image address; empty when the server sent none.
        public var url: String
        /// A still image address; `url` when the server sent none.
        public var staticURL: String
        /// Whether the server offers it in its emoji picker.
        public var visibleInPicker: Bool
        /// The picker category, if any.
        public var category: String?

        /// An emoji; `staticURL` defaults to `url`.
        init(shortcode: String, url: String, staticURL: String? = nil, visibleInPicker: Bool = true, category: String? = nil) {
            self.shortcode = shortcode
            self.url = url
            self.staticURL = staticURL ?? url
            self.visibleInPicker = visibleInPicker
            self.category = category
        }

        enum CodingKeys: String, SnakeCaseKey {
            case shortcode, url, category, staticURL, visibleInPicker
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            shortcode = try container.decode(String.self, forKey: .shortcode)
            url = try container.value(.url, or: "")
            staticURL = try container.value(.staticURL, or: url)
            visibleInPicker = try container.value(.visibleInPicker, or: true)
            category = try container.decodeIfPresent(String.self, forKey: .category)
        }
    }
}
