import Foundation

extension PostStore {
    // MARK: - Your filters, on every screen at once

    /// Your filter `id` is now `filter` (`nil`: deleted), on every screen at once: every post the
    /// store holds is matched again — it carries the filter when its keywords match
    /// (``PostFilter/matches(_:)``), and no longer when they do not or the filter is gone (a
    /// filter without keywords, which lists posts by id, stays on the posts the server matched) —
    /// and later copies are matched alike, so a page from a server that has not caught up does not
    /// undo it. The holders of each post whose filters changed hear `.changed` (a warning shows
    /// or goes), then every holder hears `.filterChanged(id)` (a list takes the rows a hide filter
    /// now hides and puts back those it no longer does).
    ///
    /// - Complexity: O(n) for the n posts the store holds, times the filter's keywords and text.
    package func filterChanged(_ id: String, to filter: PostFilter?) {
        filterDefinitions[id] = .some(filter)
        let now = filterClock.now()
        for (postID, entry) in entries {
            guard var post = entry.post else { continue }
            let filters = Self.filters(post.filters, of: post, with: id, filter, at: now)
            guard filters != post.filters else { continue }
            let before = (entry.post, entry.display)
            post.filters = filters
            entry.post = post
            changed(postID, entry, before: before)
        }
        for holder in holders.keys.sorted() { holders[holder]?(.filterChanged(id)) }
    }

    /// The ids of the hide filters that keep `post` (its shown content) out of lists in
    /// `context`, with the filters this session changed applied; empty when none does.
    package func hidingFilters(of post: Post, in context: FilterContext?) -> [String] {
        guard let context else { return [] }
        return refiltered(post.content).filters.filter { $0.action == .hide && $0.contexts.contains(context) }.map(\.id)
    }

    /// The server's id of the filter made here under the local key `local`, once it made it.
    package func madeFilter(_ local: String) -> String? { filterAliases[local] }

    /// The filter shown under the local key `local` was made by the server as `id`: what it kept
    /// off lists under the one, the other keeps off (no list loads again for it).
    package func filterMade(_ local: String, as id: String) {
        filterAliases[local] = id
    }

    /// `post` (an original) with every filter this session changed matched again.
    func refiltered(_ post: Post) -> Post {
        guard !filterDefinitions.isEmpty else { return post }
        let now = filterClock.now()
        var post = post
        var filters = post.filters
        for (id, filter) in filterDefinitions { filters = Self.filters(filters, of: post, with: id, filter, at: now) }
        if filters != post.filters { post.filters = filters }
        return post
    }

    /// `filters` (those `post` carries) with the filter `id` as `filter` is now.
    static func filters(_ filters: [PostFilter], of post: Post, with id: String, _ filter: PostFilter?, at now: Date) -> [PostFilter] {
        let carried = filters.contains { $0.id == id }
        var result = filters.filter { $0.id != id }
        guard let filter else { return result }
        if filter.matches(post, at: now) || (carried && filter.keywords.isEmpty) { result.append(filter) }
        return result
    }
}
