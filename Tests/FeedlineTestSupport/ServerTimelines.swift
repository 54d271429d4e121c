@_spi(FeedService) import Feedline
import Foundation

/// Which entries each feed lists, newest first, and the notifications: the timelines slice of
/// ``ServerModel``. A feed lists ids only; what an entry is now is the model's (so an
/// interaction or an edit shows in every feed at once), and an entry the model no longer has
/// is gone from every feed (``ServerModel/timeline(_:)``).
package struct ServerTimelines<ID: Hashable & Sendable>: Sendable {
    /// The ids each feed lists, newest first.
    package var feeds: [Feed: [ID]] = [:]
    /// The notifications, newest first.
    package var notifications: [NotificationGroup] = []

    package init(_ feeds: [Feed: [ID]] = [:], notifications: [NotificationGroup] = []) {
        self.feeds = feeds
        self.notifications = notifications
    }

    /// Puts `id` on top of each of `feeds` (once).
    package mutating func prepend(_ id: ID, to feeds: [Feed]) {
        for feed in feeds {
            self.feeds[feed, default: []].removeAll { $0 == id }
            self.feeds[feed, default: []].insert(id, at: 0)
        }
    }
}

/// What the server keeps of the signed-in user's writing: the versions of each edited post
/// (oldest first, the first as it was published) and the post each publishing key made — the
/// writing slice of ``ServerModel``.
package struct ServerWriting<ID: Hashable & Sendable>: Sendable {
    /// The versions of each post edited at least once, oldest first.
    package var versions: [ID: [PostVersion]] = [:]
    /// The post each idempotency key published.
    package var published: [String: ID] = [:]
    /// When each key of ``published`` was first used, by the model's clock (a key without a
    /// date is remembered for ever); see ``answer(to:at:exists:)``.
    package var publishedAt: [String: Date] = [:]
    /// How many posts were published here (numbers their ids).
    package var made = 0
    /// What a post was typed as, where it differs from its text (Mastodon keeps the source
    /// apart from the text it renders); a post not here was typed as its text.
    package var sources: [ID: PostSource] = [:]
    /// The text each post was published with, kept after it is edited or deleted: what a test
    /// counts the posts made by.
    package var publishedTexts: [ID: String] = [:]

    package init() {}
}

extension ServerModel {
    /// The entries `feed` lists that the server still has, newest first, each as it is now.
    package func timeline(_ feed: Feed) -> [Entry] {
        (timelines.feeds[feed] ?? []).compactMap { entry($0) }
    }

    /// The entries of `feed` a page at a time: `size` of them from the offset `cursor` names
    /// (opaque to callers; the last page has none).
    ///
    /// - Throws: ``RecordNotFound`` for a cursor this model did not give.
    package func page(of feed: Feed, after cursor: PageCursor?, size: Int) throws(RecordNotFound) -> (entries: [Entry], next: PageCursor?) {
        let entries = timeline(feed)
        let (range, next) = try Self.slice(entries.count, after: cursor, size: size)
        return (Array(entries[range]), next)
    }

    /// The range of a page of `count` items after `cursor`, and the cursor of the page after it.
    ///
    /// - Throws: ``RecordNotFound`` for a cursor that is no offset.
    package static func slice(_ count: Int, after cursor: PageCursor?, size: Int) throws(RecordNotFound) -> (Range<Int>, PageCursor?) {
        let start: Int
        if let cursor {
            guard let offset = Int(cursor.rawValue), offset >= 0 else { throw RecordNotFound() }
            start = min(offset, count)
        } else {
            start = 0
        }
        let end = min(start + max(1, size), count)
        return (start..<end, end < count ? PageCursor(String(end)) : nil)
    }
}
