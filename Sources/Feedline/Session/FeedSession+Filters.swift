import Foundation

extension FeedSession {
    /// Makes `filter` (its id ignored; it needs a title, a keyword and a context): at once on
    /// every filters screen as pending, and on every list it applies to — a hide filter takes
    /// the posts it matches off, a warn filter puts its warning on them — then replaced by the
    /// server's filter; a refusal takes it off everywhere and says why (an ``Outcome``,
    /// ``Outcome/Subject/filter(_:title:was:)``, under the local key returned); a lost
    /// connection keeps it and sends it again. Throws why (nothing happens) for a filter that
    /// cannot be made.
    @_spi(FeedService)
    @discardableResult
    public func createFilter(_ filter: PostFilter) throws(FeedFailure) -> String {
        do { return try filters.create(filter) } catch { throw error.failure }
    }

    /// Changes the filter `id` to `filter` (keywords with an id are kept, those without added,
    /// the others deleted): at once on every screen, posts it no longer hides back where they
    /// belong; rolled back with the server's sentence on refusal. Throws why (nothing happens)
    /// for an unknown filter, one still being made, or one that cannot be made.
    @_spi(FeedService)
    public func updateFilter(_ id: String, to filter: PostFilter) throws(FeedFailure) {
        do { try filters.update(id, to: filter) } catch { throw error.failure }
    }

    /// Deletes the filter `id`: off every filters screen at once, and the posts it hid back
    /// where they belong; all back on refusal. Throws why (nothing happens) for an unknown
    /// filter or one still being made.
    public func deleteFilter(_ id: String) throws(FeedFailure) {
        do { try filters.delete(id) } catch { throw error.failure }
    }

    /// The filter shown under `id` (its id, or the local key of one being made), when a
    /// filters screen loaded it or it was made here.
    @_spi(FeedService)
    public func filter(_ id: String) -> PostFilter? { filters.filter(id) }
}
