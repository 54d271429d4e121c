@_spi(FeedService) import Feedline

// A feed's pages as Mastodon and the sandbox page them: below a post, by its id.

extension GatedServer {
    /// A page of `posts` (newest first), ``pageSize`` of them below the post `cursor` names, as
    /// Mastodon's `max_id` pages a feed: a post that came on top since does not shift the pages
    /// below, and a list cut short goes on below its last post — even when that post was deleted
    /// since, as Mastodon's ids still order it (`listed` is the feed's ids, deleted ones
    /// included). The next cursor is the page's last post, when more follow.
    ///
    /// - Throws: ``RecordNotFound`` for a cursor that names no post the feed ever listed.
    func page(_ posts: [Post], below cursor: PageCursor?, listed: [PostID]) throws -> Page<Post> {
        var start = 0
        if let cursor {
            guard let below = Self.below(PostID(cursor.rawValue), in: posts, listed: listed) else { throw RecordNotFound() }
            start = below
        }
        let end = min(start + pageSize, posts.count)
        let items = Array(posts[start..<end])
        return Page(items: items, next: end < posts.count ? items.last.map { PageCursor($0.id.rawValue) } : nil)
    }

    /// The index in `posts` of the first post below `id`: the one after it, or — for a post the
    /// feed listed and no longer has — the first one listed after it; `nil` when the feed never
    /// listed it.
    static func below(_ id: PostID, in posts: [Post], listed: [PostID]) -> Int? {
        if let index = posts.firstIndex(where: { $0.id == id }) { return index + 1 }
        return at(id, in: posts, listed: listed)
    }

    /// The index in `posts` of `id`, or — for a post the feed listed and no longer has — of the
    /// first post listed after it; `nil` when the feed never listed it.
    static func at(_ id: PostID, in posts: [Post], listed: [PostID]) -> Int? {
        if let index = posts.firstIndex(where: { $0.id == id }) { return index }
        guard let gone = listed.firstIndex(of: id) else { return nil }
        let after = Set(listed[(gone + 1)...])
        return posts.firstIndex { after.contains($0.id) } ?? posts.count
    }
}
