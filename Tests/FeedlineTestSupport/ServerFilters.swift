@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's server filters, as a Mastodon server keeps them: the filters slice of
/// ``ServerModel``.
///
/// Its laws: the server gives each filter and keyword an id of its own (`f1`, `k1`, …); a filter
/// needs a title, a context and a keyword that is not blank (Mastodon's 422 sentences); an update
/// keeps keywords by id and deletes those it no longer names; a filter not there is refused.
package struct ServerFilters: Hashable, Sendable {
    /// The filters, oldest first (Mastodon's order).
    package private(set) var filters: [PostFilter]
    private var made = 0

    package init(_ filters: [PostFilter] = []) {
        self.filters = filters
    }

    /// Makes `filter` and returns it as saved, with its ids.
    package mutating func create(_ filter: PostFilter) throws(ServerRefusal) -> PostFilter {
        try Self.check(filter)
        made += 1
        var saved = filter
        saved.id = "f\(made)"
        saved.keywords = withIDs(filter.keywords)
        filters.append(saved)
        return saved
    }

    /// Changes the filter `filter.id` to `filter` and returns it as saved.
    package mutating func update(_ filter: PostFilter) throws(ServerRefusal) -> PostFilter {
        guard let index = filters.firstIndex(where: { $0.id == filter.id }) else { throw ServerRefusal("Record not found") }
        try Self.check(filter)
        var saved = filter
        saved.keywords = withIDs(filter.keywords)
        filters[index] = saved
        return saved
    }

    /// Deletes the filter `id`.
    package mutating func delete(_ id: String) throws(ServerRefusal) {
        guard filters.contains(where: { $0.id == id }) else { throw ServerRefusal("Record not found") }
        filters.removeAll { $0.id == id }
    }

    private mutating func withIDs(_ keywords: [PostFilter.Keyword]) -> [PostFilter.Keyword] {
        keywords.map { keyword in
            guard keyword.id.isEmpty else { return keyword }
            made += 1
            var saved = keyword
            saved.id = "k\(made)"
            return saved
        }
    }

    private static func check(_ filter: PostFilter) throws(ServerRefusal) {
        if filter.title.trimmingCharacters(in: .whitespaces).isEmpty { throw ServerRefusal("Validation failed: Title can't be blank") }
        if filter.contexts.isEmpty { throw ServerRefusal("Validation failed: Context can't be blank") }
        if filter.keywords.contains(where: { $0.keyword.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ServerRefusal("Validation failed: Keywords keyword can't be blank")
        }
    }
}
