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
        /// The filter's keywords: sent by `/api/v2/filters`, absent (or `null`) in a status's
        /// `filtered[]`.
        public var keywords: [FilterKeyword]?

        enum CodingKeys: String, SnakeCaseKey {
            case id, title, context, filterAction, expiresAt, keywords
        }

        public init(id: String, title: String, context: [String], filterAction: String, expiresAt: Date? = nil, keywords: [FilterKeyword]? = nil) {
            self.id = id
            self.title = title
            self.context = context
            self.filterAction = filterAction
            self.expiresAt = expiresAt
            self.keywords = keywords
        }
    }

    /// A keyword of a v2 filter (`FilterKeyword`): the word or phrase, and whether it matches
    /// only whole words.
    public struct FilterKeyword: Codable, Hashable, Sendable, ReadableEntity {
        public var id: String
        public var keyword: String
        public var wholeWord: Bool

        enum CodingKeys: String, SnakeCaseKey {
            case id, keyword, wholeWord
        }

        public init(id: String, keyword: String, wholeWord: Bool) {
            self.id = id
            self.keyword = keyword
            self.wholeWord = wholeWord
        }
    }
}

extension Mastodon.FilterKeyword {
    init(reading container: some FieldReader<CodingKeys>) throws {
        id = try container.id(.id)
        keyword = try container.value(.keyword, or: "")
        wholeWord = try container.value(.wholeWord, or: false)
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
        keywords = try container.decodeIfPresent([Mastodon.FilterKeyword].self, forKey: .keywords)
    }
}
