import Foundation

extension Mastodon {
    /// `GET /api/v1/statuses/:id/source`: a post as typed.
    public struct StatusSource: Codable, Hashable, Sendable, ReadableEntity {
        public var id: String
        public var text: String
        public var spoilerText: String = ""

        enum CodingKeys: String, SnakeCaseKey {
            case id, text, spoilerText
        }
    }

    /// One version in `GET /api/v1/statuses/:id/history` (Mastodon's `StatusEdit`): what
    /// Feedline shows of it.
    public struct StatusEdit: Codable, Hashable, Sendable {
        /// A version's poll: its options' titles.
        public struct PollVersion: Codable, Hashable, Sendable {
            public struct Option: Codable, Hashable, Sendable {
                public var title: String
            }

            public var options: [Option]
        }

        /// HTML.
        public var content: String
        public var spoilerText: String = ""
        public var sensitive: Bool = false
        public var createdAt: Date
        public var mediaAttachments: [MediaAttachment] = []
        public var poll: PollVersion?

        enum CodingKeys: String, SnakeCaseKey {
            case content, sensitive, poll, spoilerText, createdAt, mediaAttachments
        }
    }
}

extension Mastodon.StatusSource {
    /// Decodes tolerantly: a missing `spoiler_text` is empty.
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        text = try container.decode(String.self, forKey: .text)
        spoilerText = try container.decodeIfPresent(String.self, forKey: .spoilerText) ?? ""
    }
}

extension Mastodon.StatusEdit {
    /// Decodes tolerantly: absent fields read as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        content = try container.decodeIfPresent(String.self, forKey: .content) ?? ""
        spoilerText = try container.decodeIfPresent(String.self, forKey: .spoilerText) ?? ""
        sensitive = try container.decodeIfPresent(Bool.self, forKey: .sensitive) ?? false
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        mediaAttachments = try container.decodeIfPresent([Mastodon.MediaAttachment].self, forKey: .mediaAttachments) ?? []
        poll = try container.decodeIfPresent(PollVersion.self, forKey: .poll)
    }
}
