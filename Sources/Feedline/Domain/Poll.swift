import Foundation

/// A poll attached to a post, enough to show it.
public struct Poll: Hashable, Sendable, Codable {
    public struct Option: Hashable, Sendable, Codable {
        public var title: String
        /// Votes for this option; `nil` while the server hides results.
        public var votes: Int?

        public init(title: String, votes: Int?) {
            self.title = title
            self.votes = votes
        }
    }

    public var options: [Option]
    public var votesCount: Int
    public var expired: Bool
    public var expiresAt: Date?
    public var multiple: Bool
    /// The poll's id on the server (what a vote names); `nil` when unknown.
    public var id: String?
    /// Whether the signed-in user voted.
    public var voted: Bool
    /// The options the signed-in user chose (0-based), when they voted.
    public var ownVotes: [Int]

    public init(
        options: [Option], votesCount: Int, expired: Bool, expiresAt: Date? = nil, multiple: Bool = false, id: String? = nil,
        voted: Bool = false, ownVotes: [Int] = []
    ) {
        self.options = options
        self.votesCount = votesCount
        self.expired = expired
        self.expiresAt = expiresAt
        self.multiple = multiple
        self.id = id
        self.voted = voted
        self.ownVotes = ownVotes
    }

    private enum CodingKeys: String, CodingKey {
        case options, votesCount, expired, expiresAt, multiple, id, voted, ownVotes
    }

    /// Reads what ``encode(to:)`` writes; `voted` and `ownVotes` absent (saved before they existed) read as not voted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        options = try container.decode([Option].self, forKey: .options)
        votesCount = try container.decode(Int.self, forKey: .votesCount)
        expired = try container.decode(Bool.self, forKey: .expired)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        multiple = try container.decodeIfPresent(Bool.self, forKey: .multiple) ?? false
        id = try container.decodeIfPresent(String.self, forKey: .id)
        voted = try container.decodeIfPresent(Bool.self, forKey: .voted) ?? false
        ownVotes = try container.decodeIfPresent([Int].self, forKey: .ownVotes) ?? []
    }

    /// Leaves out what is unset (no id, not voted), so polls saved before votes existed keep their bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(options, forKey: .options)
        try container.encode(votesCount, forKey: .votesCount)
        try container.encode(expired, forKey: .expired)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encode(multiple, forKey: .multiple)
        try container.encodeIfPresent(id, forKey: .id)
        if voted { try container.encode(voted, forKey: .voted) }
        if !ownVotes.isEmpty { try container.encode(ownVotes, forKey: .ownVotes) }
    }
}

/// A link preview card attached to a post.
public struct LinkCard: Hashable, Sendable, Codable {
    public var url: String
    public var title: String
    public var summary: String

    public init(url: String, title: String, summary: String = "") {
        self.url = url
        self.title = title
        self.summary = summary
    }
}

