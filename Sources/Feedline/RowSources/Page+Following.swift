extension Page {
    /// Every item of a paged collection a screen shows whole (scheduled posts, requests of
    /// filtered notifications): `page` asked from the first page on (`nil`), following each
    /// page's `next` to the end — at most `limit` pages, against a server that never ends it, and
    /// stopping at an empty page or a cursor that does not move. In the server's order.
    static func following(atMost limit: Int, _ page: @Sendable (PageCursor?) async throws -> Page<Item>) async throws -> [Item] {
        var items: [Item] = []
        var cursor: PageCursor?
        for _ in 0..<limit {
            let fetched = try await page(cursor)
            items += fetched.items
            guard let next = fetched.next, next != cursor, !fetched.items.isEmpty else { break }
            cursor = next
        }
        return items
    }
}
