extension Mastodon {
    /// A direct conversation (Mastodon's `Conversation`, from `/api/v1/conversations` and the
    /// `direct` stream's `conversation` event).
    public struct Conversation: Codable, Hashable, Sendable, ReadableEntity {
        /// The conversation's id (a JSON integer is kept as its decimal text).
        public var id: String
        /// Whether it has posts the user has not read; absent is read.
        public var unread: Bool
        /// The accounts taking part, the user left out.
        public var accounts: [Account]
        /// Its newest post; absent or `null` when the server sent none.
        public var lastStatus: Status?

        enum CodingKeys: String, SnakeCaseKey {
            case id, unread, accounts, lastStatus
        }
    }
}

extension Mastodon.Conversation {
    /// Decodes tolerantly: `id` is required; `unread` defaults to false, `accounts` to none.
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        unread = try container.value(.unread, or: false)
        accounts = try container.value(.accounts, or: [])
        lastStatus = try container.decodeIfPresent(Mastodon.Status.self, forKey: .lastStatus)
    }
}
