extension Mastodon {
    /// The thread around a status (Mastodon's `Context`): ancestors oldest first, descendants in
    /// thread order. Absent lists decode as empty.
    public struct Context: Codable, Hashable, Sendable, ReadableEntity {
        /// The posts above, root first.
        public var ancestors: [Status] = []
        /// The replies below, depth first.
        public var descendants: [Status] = []

        enum CodingKeys: String, SnakeCaseKey {
            case ancestors, descendants
        }
    }
}

extension Mastodon.Context {
    /// Decodes tolerantly: an absent or `null` list is empty.
    init(reading container: some FieldReader<CodingKeys>) throws {
        ancestors = try container.value(.ancestors, or: [])
        descendants = try container.value(.descendants, or: [])
    }
}
