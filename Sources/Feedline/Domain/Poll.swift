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

    public init(options: [Option], votesCount: Int, expired: Bool, expiresAt: Date? = nil, multiple: Bool = false) {
        self.options = options
        self.votesCount = votesCount
        self.expired = expired
        self.expiresAt = expiresAt
        self.multiple = multiple
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

