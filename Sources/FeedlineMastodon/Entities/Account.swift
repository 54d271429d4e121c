import Foundation

extension Mastodon {
    /// A user account (Mastodon's `Account`), the fields a feed shows.
    ///
    /// `id` and `acct` are required; `username` defaults to the part of `acct` before `@`,
    /// texts to empty strings, counts to 0 and flags to `false`. `last_status_at` may be a bare
    /// calendar date (Mastodon) or a full timestamp (other servers). `moved` is `nil` when absent
    /// or `null`.
    public struct Account: Codable, Hashable, Sendable, ReadableEntity {
        /// A profile metadata row.
        public struct Field: Codable, Hashable, Sendable, ReadableEntity {
            /// The label, plain text.
            public var name: String
            /// HTML.
            public var value: String
            /// When the server verified a link in `value` back to the profile; `nil` when unverified.
            public var verifiedAt: Date?

            enum CodingKeys: String, SnakeCaseKey {
                case name, value, verifiedAt
            }
        }

        /// The account's id on the server that sent it (opaque).
        public var id: String
        /// The user name without the server.
        public var username: String
        /// `user` on the server that sent it, `user@host` for remote accounts.
        public var acct: String
        /// May be empty; may contain `:shortcode:` custom emoji (see ``emojis``).
        public var displayName: String
        /// Whether follow requests need approval.
        public var locked: Bool
        /// Whether the account says it is automated.
        public var bot: Bool
        /// When the account was made (Mastodon sends midnight of the day).
        public var createdAt: Date?
        /// The profile's biography, HTML.
        public var note: String
        /// The profile page, if any.
        public var url: String?
        /// The avatar image address, if any.
        public var avatar: String?
        /// The header image address, if any.
        public var header: String?
        /// Followers, as the server counts them.
        public var followersCount: Int
        /// Accounts followed, as the server counts them.
        public var followingCount: Int
        /// Posts, as the server counts them.
        public var statusesCount: Int
        /// When the account last posted; Mastodon sends only the day.
        public var lastStatusAt: Date?
        /// The custom emoji used in `display_name` and `note`.
        public var emojis: [CustomEmoji]
        /// Profile metadata rows.
        public var fields: [Field]
        /// Whether the account is a group (its posts are boosts of what its members send it).
        public var group: Bool
        private var movedTo: Moved?

        /// An account with these values; `username` and `acct` are required, the rest default as when decoded.
        init(
            id: String, username: String, acct: String, displayName: String = "", locked: Bool = false,
            bot: Bool = false, createdAt: Date? = nil, note: String = "", url: String? = nil, avatar: String? = nil,
            header: String? = nil, followersCount: Int = 0, followingCount: Int = 0, statusesCount: Int = 0,
            lastStatusAt: Date? = nil, emojis: [CustomEmoji] = [], fields: [Field] = [], group: Bool = false,
            moved: Account? = nil
        ) {
            self.id = id
            self.username = username
            self.acct = acct
            self.displayName = displayName
            self.locked = locked
            self.bot = bot
            self.createdAt = createdAt
            self.note = note
            self.url = url
            self.avatar = avatar
            self.header = header
            self.followersCount = followersCount
            self.followingCount = followingCount
            self.statusesCount = statusesCount
            self.lastStatusAt = lastStatusAt
            self.emojis = emojis
            self.fields = fields
            self.group = group
            self.movedTo = moved.map(Moved.account)
        }

        /// The account this one moved to, if it moved (which may itself have moved on).
        public var moved: Account? {
            get {
                guard case .account(let account)? = movedTo else { return nil }
                return account
            }
            set { movedTo = newValue.map(Moved.account) }
        }

        enum CodingKeys: String, SnakeCaseKey {
            case id, username, acct, locked, bot, note, url, avatar, header, emojis, fields, group, moved, displayName, createdAt
            case followersCount, followingCount, statusesCount, lastStatusAt
        }

        init(reading container: some FieldReader<CodingKeys>) throws {
            id = try container.id(.id)
            acct = try container.decode(String.self, forKey: .acct)
            username = try container.value(.username, or: String(acct.prefix { $0 != "@" }))
            displayName = try container.value(.displayName, or: "")
            locked = try container.value(.locked, or: false)
            bot = try container.value(.bot, or: false)
            createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
            note = try container.value(.note, or: "")
            url = try container.decodeIfPresent(String.self, forKey: .url)
            avatar = try container.decodeIfPresent(String.self, forKey: .avatar)
            header = try container.decodeIfPresent(String.self, forKey: .header)
            followersCount = try container.value(.followersCount, or: 0)
            followingCount = try container.value(.followingCount, or: 0)
            statusesCount = try container.value(.statusesCount, or: 0)
            lastStatusAt = try container.decodeIfPresent(Date.self, forKey: .lastStatusAt)
            emojis = try container.value(.emojis, or: [])
            fields = try container.value(.fields, or: [])
            group = try container.value(.group, or: false)
            movedTo = try container.decodeIfPresent(Account.self, forKey: .moved).map(Moved.account)
        }

        /// Encodes as Mastodon does, `last_status_at` as a bare day.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(username, forKey: .username)
            try container.encode(acct, forKey: .acct)
            try container.encode(displayName, forKey: .displayName)
            try container.encode(locked, forKey: .locked)
            try container.encode(bot, forKey: .bot)
            try container.encodeIfPresent(createdAt, forKey: .createdAt)
            try container.encode(note, forKey: .note)
            try container.encodeIfPresent(url, forKey: .url)
            try container.encodeIfPresent(avatar, forKey: .avatar)
            try container.encodeIfPresent(header, forKey: .header)
            try container.encode(followersCount, forKey: .followersCount)
            try container.encode(followingCount, forKey: .followingCount)
            try container.encode(statusesCount, forKey: .statusesCount)
            try container.encodeIfPresent(lastStatusAt.map(DateFormat.calendarDay), forKey: .lastStatusAt)
            try container.encode(emojis, forKey: .emojis)
            try container.encode(fields, forKey: .fields)
            try container.encode(group, forKey: .group)
            try container.encodeIfPresent(moved, forKey: .moved)
        }

        /// Where ``moved`` is kept: an account holds the one it moved to by indirection.
        private indirect enum Moved: Hashable, Sendable {
            case account(Account)
        }
    }
}

extension Mastodon.Account.Field {
    /// Decodes as Swift's synthesized decoding would: `name` and `value` required.
    init(reading container: some FieldReader<CodingKeys>) throws {
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(String.self, forKey: .value)
        verifiedAt = try container.decodeIfPresent(Date.self, forKey: .verifiedAt)
    }
}
