@_spi(FeedService) import Feedline
import Foundation

/// The fields of a filter row.
extension JSONLMessage {
    /// A filter row's fields after its id and kind: `"filter"` (its id), `"title"`, `"action"`
    /// (`warn`, `hide` or `blur`), `"contexts"` (in Mastodon's order), `"keywords"` (each
    /// `{"keyword":"…","wholeWord":true}`), `"expiresAt"` (ISO 8601, or null), `"pending"` (a change
    /// waits for the server) and `"failure"` (the last refusal, or null).
    static func filterFields(_ filter: PostFilter, _ state: ToggleDisplay) -> [(String, JSONLValue)] {
        [
            ("filter", .string(filter.id)), ("title", .string(filter.title)), ("action", .string(filter.action.rawValue)),
            ("contexts", .array(FilterContext.allCases.filter(filter.contexts.contains).map { .string($0.rawValue) })),
            ("keywords", .array(filter.keywords.map { .object([("keyword", .string($0.keyword)), ("wholeWord", .bool($0.wholeWord))]) })),
            ("expiresAt", .optional(filter.expiresAt.map { ISO8601DateFormatter().string(from: $0) })),
            ("pending", .bool(state.pending)), ("failure", .optional(state.failure)),
        ]
    }
}
