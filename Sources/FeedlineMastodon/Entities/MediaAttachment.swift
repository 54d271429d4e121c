extension Mastodon {
    /// A file attached to a post (Mastodon's `MediaAttachment`).
    ///
    /// `id` and `type` are required; addresses may be `null` (GoToSocial and Mastodon send `null`
    /// while media is still processing) and `description` (alt text) is often absent or `null`.
    public struct MediaAttachment: Codable, Hashable, Sendable, ReadableEntity {
        /// The kind of file. Any string decodes; unknown kinds show as ``unknown``.
        public struct Kind: RawRepresentable, Codable, Hashable, Sendable, TreeReadable {
            /// The kind as the server names it.
            public var rawValue: String
            /// The kind named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// A still image.
            public static let image = Kind(rawValue: "image")
            /// A looping silent video (animated GIFs arrive as this).
            public static let gifv = Kind(rawValue: "gifv")
            /// A video.
            public static let video = Kind(rawValue: "video")
            /// A sound file.
            public static let audio = Kind(rawValue: "audio")
            /// A file the server could not classify.
            public static let unknown = Kind(rawValue: "unknown")
        }

        /// The attachment's id (opaque).
        public var id: String
        /// The kind of file.
        public var type: Kind
        /// The file's address; `nil` while processing.
        public var url: String?
        /// A small preview image address, if any.
        public var previewURL: String?
        /// The address on the author's server, for remote media.
        public var remoteURL: String?
        /// The alt text, `nil` when the author wrote none.
        public var description: String?
        /// A tiny placeholder of the image, if any.
        public var blurhash: String?

        enum CodingKeys: String, SnakeCaseKey {
            case id, type, url, description, blurhash, previewURL, remoteURL
        }
    }
}

extension Mastodon.MediaAttachment {
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        type = try container.decode(Kind.self, forKey: .type)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        previewURL = try container.decodeIfPresent(String.self, forKey: .previewURL)
        remoteURL = try container.decodeIfPresent(String.self, forKey: .remoteURL)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        blurhash = try container.decodeIfPresent(String.self, forKey: .blurhash)
    }
}
