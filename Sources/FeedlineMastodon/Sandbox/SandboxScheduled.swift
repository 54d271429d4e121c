@_spi(FeedService) import Feedline
import Foundation

/// The sandbox's scheduled posts, kept as Mastodon keeps them: soonest first (by id at the
/// same time), ids `1`, `2` … past the scenario's, a time not more than 5 minutes ahead
/// refused with Mastodon's sentence, one scheduled post per idempotency key.
struct SandboxScheduled: Sendable {
    private(set) var posts: [ScheduledPost]
    private var lastID: Int
    /// The scheduled post made for each idempotency key, and when.
    private var keys: [String: (id: String, at: Date)] = [:]

    /// Mastodon's sentence for a time too soon.
    static let tooSoon = "Validation failed: Scheduled at The scheduled date must be in the future"

    init(_ posts: [ScheduledPost]) {
        self.posts = posts
        lastID = posts.compactMap { Int($0.id) }.max() ?? 0
        sort()
    }

    /// A page of `size` after the post `cursor` names (its id), and the next cursor.
    func page(after cursor: PageCursor?, size: Int) -> Page<ScheduledPost> {
        let start = cursor.flatMap { cursor in posts.firstIndex { $0.id == cursor.rawValue }.map { $0 + 1 } } ?? 0
        let items = Array(posts.dropFirst(start).prefix(size))
        let more = start + items.count < posts.count
        return Page(items: items, next: more ? items.last.map { PageCursor($0.id) } : nil)
    }

    /// Schedules `draft` (the post of `key` when one was made for it within the hour).
    mutating func schedule(_ draft: Draft, key: String, now: Date) throws(SandboxError) -> ScheduledPost {
        if let known = keys[key], now.timeIntervalSince(known.at) < SandboxService.idempotencyLifetime,
            let post = posts.first(where: { $0.id == known.id })
        {
            return post
        }
        guard let at = draft.scheduledAt else { throw .refused("There is no time to schedule the post for.") }
        try check(at, now: now)
        lastID += 1
        let post = ScheduledPost(
            id: String(lastID), scheduledAt: at, text: draft.text, contentWarning: draft.warning, visibility: draft.visibility,
            inReplyTo: draft.inReplyTo, mediaCount: draft.media.count, pollOptions: draft.poll?.options ?? []
        )
        posts.append(post)
        keys[key] = (post.id, now)
        sort()
        return post
    }

    /// Moves the post `id` to `date`.
    mutating func reschedule(_ id: String, to date: Date, now: Date) throws(SandboxError) -> ScheduledPost {
        guard let index = posts.firstIndex(where: { $0.id == id }) else { throw .refused("Record not found") }
        try check(date, now: now)
        posts[index].scheduledAt = date
        let post = posts[index]
        sort()
        return post
    }

    /// Cancels the post `id`.
    mutating func cancel(_ id: String) throws(SandboxError) {
        guard posts.contains(where: { $0.id == id }) else { throw .refused("Record not found") }
        posts.removeAll { $0.id == id }
    }

    private func check(_ date: Date, now: Date) throws(SandboxError) {
        guard date.timeIntervalSince(now) > 300 else { throw .refused(Self.tooSoon) }
    }

    private mutating func sort() {
        posts.sort { ($0.scheduledAt, $0.id.count, $0.id) < ($1.scheduledAt, $1.id.count, $1.id) }
    }
}
