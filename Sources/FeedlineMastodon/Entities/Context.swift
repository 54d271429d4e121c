extension Mastodon {
    /// The thread around a status (Mastodon's `Context`): ancestors oldest first, descendants in
    /// thread order. Absent lists decode as empty.
    public struct Context: Codable, Hashable, Sendable {
        public var ancestors: [Status]
        public var descendants: [Status]

        public init(ancestors: [Status] = [], descendants: [Status] = []) {
            self.ancestors = ancestors
            self.descendants = descendants
        }

        enum CodingKeys: String, CodingKey {
            case ancestors, descendants
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ancestors = try container.value(.ancestors, or: [])
            descendants = try container.value(.descendants, or: [])
        }
    }
}
