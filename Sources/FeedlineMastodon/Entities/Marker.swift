import Foundation

extension Mastodon {
    /// A timeline's saved reading position (Mastodon's `Marker`): the last item read, and the
    /// version the server counts up with each save.
    public struct Marker: Codable, Hashable, Sendable, ReadableEntity {
        /// The id of the last post (home) or notification (notifications) read.
        public var lastReadID: String
        /// Counts up with every save; `0` when the server sent none.
        public var version: Int = 0
        /// When it was last saved, if the server said.
        public var updatedAt: Date?

        enum CodingKeys: String, SnakeCaseKey {
            case lastReadID, version, updatedAt
        }
    }
}

extension Mastodon.Marker {
    /// Decodes tolerantly: `last_read_id` is required (a string or an integer), `version`
    /// defaults to 0, an unreadable `updated_at` is `nil`.
    init(reading container: some FieldReader<CodingKeys>) throws {
        lastReadID = try container.id(.lastReadID)
        version = try container.value(.version, or: 0)
        updatedAt = try? container.decodeIfPresent(Date.self, forKey: .updatedAt)
    }
}
