@_spi(FeedService) import Feedline

// A feed's pages as Mastodon and the sandbox page them: below a post, by its id.

extension GatedServer {
    /// A page of `posts` (newest first), ``pageSize`` of them below the post `cursor` names, as
    /// Mastodon's `max_id` pages a feed: a post that came on top since does not shift the pages
    /// below, and a list cut short goes on below its last post. The next cursor is the page's
    /// last post, when more follow.
    ///
    /// - Throws: ``RecordNotFound`` for a cursor that names no post of `posts`.
    func page(_ posts: [Post], below cursor: PageCursor?) throws -> Page<Post> {
        var start = 0
        if let cursor {
            guard let index = posts.firstIndex(where: { $0.id.rawValue == cursor.rawValue }) else { throw RecordNotFound() }
            start = index + 1
        }
        let end = min(start + pageSize, posts.count)
        let items = Array(posts[start..<end])
        return Page(items: items, next: end < posts.count ? items.last.map { PageCursor($0.id.rawValue) } : nil)
    }
}
