extension Mastodon {
    /// An account a post mentions (Mastodon's `Status::Mention`).
    public struct Mention: Codable, Hashable, Sendable, ReadableEntity {
        /// The mentioned account's id (opaque).
        public var id: String
        /// The user name without the server.
        public var username: String
        /// `user` for a local account, `user@host` for a remote one.
        public var acct: String
        /// The account's profile page; empty when the server sent none.
        public var url: String

        enum CodingKeys: String, SnakeCaseKey {
            case id, username, acct, url
        }
    }
}

extension Mastodon.Mention {
    /// Decodes tolerantly: `id` and `acct` are required; `username` defaults to `acct` before `@`.
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        acct = try container.decode(String.self, forKey: .acct)
        username = try container.value(.username, or: String(acct.prefix { $0 != "@" }))
        url = try container.value(.url, or: "")
    }
}
