import Foundation

extension Mastodon {
    /// A poll attached to a post (Mastodon's `Poll`), enough to show it.
    ///
    /// `id` and `options` are required; counts default to 0 and flags to `false`.
    /// An option's `votes_count` is `null` while the server hides results.
    public struct Poll: Codable, Hashable, Sendable, ReadableEntity {
        /// One choice of the poll.
        public struct Option: Codable, Hashable, Sendable, ReadableEntity {
            /// The option's text.
            public var title: String
            /// Votes for this option; `nil` while results are hidden.
            public var votesCount: Int?

            enum CodingKeys: String, SnakeCaseKey {
                case title, votesCount
            }
        }

        /// The poll's id (opaque).
        public var id: String
        /// When voting closes; `nil` for a poll without an end.
        public var expiresAt: Date?
        /// Whether voting has closed.
        public var expired: Bool = false
        /// Whether a voter may choose several options.
        public var multiple: Bool = false
        /// Votes cast over all options.
        public var votesCount: Int = 0
        /// How many accounts voted; `nil` for single-choice polls on some servers.
        public var votersCount: Int?
        /// The choices, in order.
        public var options: [Option]
        /// The custom emoji used in option titles.
        public var emojis: [CustomEmoji] = []
        /// Whether the signed-in user voted; absent when signed out.
        public var voted: Bool?
        /// The options the signed-in user chose (0-based); absent when signed out.
        public var ownVotes: [Int]?

        enum CodingKeys: String, SnakeCaseKey {
            case id, expired, multiple, options, emojis, voted, expiresAt, votesCount, votersCount, ownVotes
        }
    }
}

extension Mastodon.Poll.Option {
    /// Decodes as Swift's synthesized decoding would: `title` required.
    init(reading container: some FieldReader<CodingKeys>) throws {
        title = try container.decode(String.self, forKey: .title)
        votesCount = try container.decodeIfPresent(Int.self, forKey: .votesCount)
    }
}

extension Mastodon.Poll {
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        expired = try container.value(.expired, or: false)
        multiple = try container.value(.multiple, or: false)
        votesCount = try container.value(.votesCount, or: 0)
        votersCount = try container.decodeIfPresent(Int.self, forKey: .votersCount)
        options = try container.decode([Option].self, forKey: .options)
        emojis = try container.value(.emojis, or: [])
        voted = try container.decodeIfPresent(Bool.self, forKey: .voted)
        ownVotes = try? container.decodeIfPresent([Int].self, forKey: .ownVotes)
    }
}
