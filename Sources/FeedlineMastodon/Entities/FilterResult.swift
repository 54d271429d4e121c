import Foundation

extension Mastodon {
    /// A filter of the signed-in user that matched a status (`Status.filtered[]`, Mastodon ≥ 4.0):
    /// the filter, and what in the status matched it.
    public struct FilterResult: Codable, Hashable, Sendable, ReadableEntity {
        public var filter: Filter
        /// The keywords of the filter found in the status.
        public var keywordMatches: [String]?
        /// The status ids the filter lists that matched.
        public var statusMatches: [String]?

        enum CodingKeys: String, SnakeCaseKey {
            case filter, keywordMatches, statusMatches
        }
    }

    /// A v2 filter (`Filter`): its title, where it applies and what it does.
    ///
    /// `context` keeps the names as sent (`home`, `notifications`, `public`, `thread`,
    /// `account`; unknown ones are ignored when mapped); `filter_action` is `warn`, `hide` or
    /// `blur` (Mastodon 4.4), and an unknown or absent action reads as `warn`, the safe middle
    /// (the post stays reachable, behind a warning).
    public struct Filter: Codable, Hashable, Sendable, ReadableEntity {
        public var id: String
        public var title: String
        public var context: [String]
        public var filterAction: String
        public var expiresAt: Date?

        enum CodingKeys: String, SnakeCaseKey {
            case id, title, context, filterAction, expiresAt
        }
    }
}

extension Mastodon.FilterResult {
    /// Decodes as Swift's synthesized decoding would: `filter` required.
    init(reading container: some FieldReader<CodingKeys>) throws {
        filter = try container.decode(Mastodon.Filter.self, forKey: .filter)
        keywordMatches = try container.decodeIfPresent([String].self, forKey: .keywordMatches)
        statusMatches = try container.decodeIfPresent([String].self, forKey: .statusMatches)
    }
}

extension Mastodon.Filter {
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        title = try container.value(.title, or: "")
        context = try container.value(.context, or: [])
        filterAction = try container.value(.filterAction, or: "warn")
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
    }
}
