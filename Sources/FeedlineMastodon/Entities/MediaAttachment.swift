extension Mastodon {
    /// A file attached to a post (Mastodon's `MediaAttachment`).
    ///
    /// `id` and `type` are required; addresses may be `null` (GoToSocial and Mastodon send `null`
    /// while media is still processing) and `description` (alt text) is often absent or `null`.
    public struct MediaAttachment: Codable, Hashable, Sendable {
        /// The kind of file. Any string decodes; unknown kinds show as ``unknown``.
        public struct Kind: RawRepresentable, Codable, Hashable, Sendable {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            public static let image = Kind(rawValue: "image")
            public static let gifv = Kind(rawValue: "gifv")
            public static let video = Kind(rawValue: "video")
            public static let audio = Kind(rawValue: "audio")
            public static let unknown = Kind(rawValue: "unknown")

            public init(from decoder: any Decoder) throws {
                rawValue = try decoder.singleValueContainer().decode(String.self)
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(rawValue)
            }
        }

        public var id: String
        public var type: Kind
        public var url: String?
        public var previewURL: String?
        public var remoteURL: String?
        /// The alt text, `nil` when the author wrote none.
        public var description: String?
        public var blurhash: String?

        public init(
            id: String, type: Kind, url: String? = nil, previewURL: String? = nil, remoteURL: String? = nil,
            description: String? = nil, blurhash: String? = nil
        ) {
            self.id = id
            self.type = type
            self.url = url
            self.previewURL = previewURL
            self.remoteURL = remoteURL
            self.description = description
            self.blurhash = blurhash
        }

        enum CodingKeys: String, CodingKey {
            case id, type, url, description, blurhash
            case previewURL = "preview_url"
            case remoteURL = "remote_url"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.id(.id)
            type = try container.decode(Kind.self, forKey: .type)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            previewURL = try container.decodeIfPresent(String.self, forKey: .previewURL)
            remoteURL = try container.decodeIfPresent(String.self, forKey: .remoteURL)
            description = try container.decodeIfPresent(String.self, forKey: .description)
            blurhash = try container.decodeIfPresent(String.self, forKey: .blurhash)
        }
    }
}
