extension Mastodon {
    /// What `GET /api/v2/search` answers (Mastodon's `Search`): the accounts, statuses and
    /// hashtags found. An absent or `null` list decodes as empty (a search with `type` answers
    /// the other lists empty, and some servers leave them out).
    public struct Search: Codable, Hashable, Sendable, ReadableEntity {
        /// The accounts found.
        public var accounts: [Account] = []
        /// The statuses found.
        public var statuses: [Status] = []
        /// The hashtags found.
        public var hashtags: [Hashtag] = []

        enum CodingKeys: String, SnakeCaseKey {
            case accounts, statuses, hashtags
        }
    }

    /// A hashtag as searches and trends answer it (Mastodon's `Tag`, which carries more than a
    /// status's ``Tag``): its recent use, day by day, and whether the user follows it.
    public struct Hashtag: Codable, Hashable, Sendable, ReadableEntity {
        /// One day of a hashtag's use. Mastodon sends every number as a string; a JSON integer
        /// is accepted too, and a string that is not a number reads as 0.
        public struct Day: Codable, Hashable, Sendable, ReadableEntity {
            /// The day, as a UNIX timestamp of its midnight (UTC), as sent.
            public var day: String
            /// Posts that used the hashtag that day.
            public var uses: Int
            /// Accounts that used the hashtag that day.
            public var accounts: Int

            enum CodingKeys: String, SnakeCaseKey {
                case day, uses, accounts
            }

            /// Encodes as Mastodon does: every value a string.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(day, forKey: .day)
                try container.encode(String(uses), forKey: .uses)
                try container.encode(String(accounts), forKey: .accounts)
            }
        }

        /// The name without `#`, as the server spells it.
        public var name: String
        /// The hashtag's page on the server; empty when the server sent none.
        public var url: String = ""
        /// The last days' use, newest first (Mastodon sends a week); `nil` when the server sent
        /// none, which is not the same as a week without use.
        public var history: [Day]?
        /// Whether the signed-in user follows the hashtag; `nil` when the server did not say
        /// (signed out, or a server before Mastodon 4.0).
        public var following: Bool?

        enum CodingKeys: String, SnakeCaseKey {
            case name, url, history, following
        }
    }
}

extension Mastodon.Search {
    /// Decodes tolerantly: an absent or `null` list is empty.
    init(reading container: some FieldReader<CodingKeys>) throws {
        accounts = try container.value(.accounts, or: [])
        statuses = try container.value(.statuses, or: [])
        hashtags = try container.value(.hashtags, or: [])
    }
}

extension Mastodon.Hashtag.Day {
    /// Decodes tolerantly (see the type).
    init(reading container: some FieldReader<CodingKeys>) throws {
        day = try container.optionalID(.day) ?? ""
        uses = Int(try container.optionalID(.uses) ?? "") ?? 0
        accounts = Int(try container.optionalID(.accounts) ?? "") ?? 0
    }
}

extension Mastodon.Hashtag {
    /// Decodes tolerantly: `name` is required, `url` defaults to empty, `history` and
    /// `following` to `nil`.
    init(reading container: some FieldReader<CodingKeys>) throws {
        name = try container.decode(String.self, forKey: .name)
        url = try container.value(.url, or: "")
        history = try container.decodeIfPresent([Day].self, forKey: .history)
        following = try container.decodeIfPresent(Bool.self, forKey: .following)
    }
}
