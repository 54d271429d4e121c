@_spi(FeedService) import Feedline
import Foundation

/// Server filters on the sandbox, as Mastodon's `GET/POST /api/v2/filters` and
/// `PUT/DELETE /api/v2/filters/:id` answer them (rules in ``SandboxFilters``); the list starts
/// as the scenario's `filters`. Each call is a request of its kind
/// (``SandboxScenario/Request/filters``, ``SandboxScenario/Request/filterChange``) with latency
/// and faults like the others.
extension SandboxService {
    /// Every filter, oldest first.
    @_spi(FeedService) public func filters() async throws -> [PostFilter] {
        try await performOnAccounts(.filters) { state, _ throws(SandboxError) in state.filters.filters }
    }

    /// Makes `filter` (see ``SandboxFilters``).
    @_spi(FeedService) public func createFilter(_ filter: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        try await performOnAccounts(.filterChange) { state, now throws(SandboxError) in try state.filters.create(filter, expiresIn: expiresIn, now: now) }
    }

    /// Changes the filter `filter.id` (a 404 for a filter gone).
    @_spi(FeedService) public func updateFilter(_ filter: PostFilter, replacing old: PostFilter, expiresIn: Int?) async throws -> PostFilter {
        try await performOnAccounts(.filterChange) { state, now throws(SandboxError) in try state.filters.update(filter, expiresIn: expiresIn, now: now) }
    }

    /// Deletes the filter `id` (a 404 for a filter gone).
    public func deleteFilter(_ id: String) async throws {
        try await performOnAccounts(.filterChange) { state, _ throws(SandboxError) in try state.filters.delete(id) }
    }
}
