@_spi(FeedService) import Feedline
import Foundation

/// The user's server filters on the sandbox, as Mastodon keeps them: oldest first; the sandbox
/// gives each filter and keyword an id of its own; a filter needs a title, a context and no blank
/// keyword (Mastodon's 422 sentences); an update keeps keywords by id and drops those it no longer
/// names; a filter not there is a 404.
struct SandboxFilters: Sendable {
    private(set) var filters: [PostFilter]
    private var made = 0

    /// The scenario's filters; a filter or keyword without an id gets the next one above every
    /// id the fixtures give (so ids never repeat).
    init(_ fixtures: [Mastodon.Filter]) {
        let given = fixtures.flatMap { [$0.id] + ($0.keywords ?? []).map(\.id) }.compactMap { Int($0) }
        made = given.max() ?? 0
        filters = []
        for fixture in fixtures {
            var filter = PostFilter(fixture)
            if filter.id.isEmpty {
                made += 1
                filter.id = String(made)
            }
            filter.keywords = withIDs(filter.keywords)
            filters.append(filter)
        }
    }

    /// Makes `filter`, expiring `expiresIn` seconds after `now` when given.
    mutating func create(_ filter: PostFilter, expiresIn: Int?, now: Date) throws(SandboxError) -> PostFilter {
        try Self.check(filter)
        made += 1
        var saved = filter
        saved.id = String(made)
        saved.keywords = withIDs(filter.keywords)
        if let expiresIn { saved.expiresAt = now.addingTimeInterval(TimeInterval(expiresIn)) }
        filters.append(saved)
        return saved
    }

    /// Changes the filter `filter.id`.
    mutating func update(_ filter: PostFilter, expiresIn: Int?, now: Date) throws(SandboxError) -> PostFilter {
        guard let index = filters.firstIndex(where: { $0.id == filter.id }) else { throw .refused("Record not found") }
        try Self.check(filter)
        var saved = filter
        saved.keywords = withIDs(filter.keywords)
        saved.expiresAt = expiresIn.map { now.addingTimeInterval(TimeInterval($0)) } ?? filters[index].expiresAt
        filters[index] = saved
        return saved
    }

    /// Deletes the filter `id`.
    mutating func delete(_ id: String) throws(SandboxError) {
        guard filters.contains(where: { $0.id == id }) else { throw .refused("Record not found") }
        filters.removeAll { $0.id == id }
    }

    private mutating func withIDs(_ keywords: [PostFilter.Keyword]) -> [PostFilter.Keyword] {
        keywords.map { keyword in
            guard keyword.id.isEmpty else { return keyword }
            made += 1
            var saved = keyword
            saved.id = String(made)
            return saved
        }
    }

    private static func check(_ filter: PostFilter) throws(SandboxError) {
        if filter.title.trimmingBlanks(newlines: true).isEmpty { throw .refused("Validation failed: Title can't be blank") }
        if filter.contexts.isEmpty { throw .refused("Validation failed: Context can't be blank") }
        if filter.keywords.contains(where: { $0.keyword.trimmingBlanks(newlines: true).isEmpty }) {
            throw .refused("Validation failed: Keywords keyword can't be blank")
        }
    }
}
