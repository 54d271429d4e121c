@_spi(FeedService) import Feedline
import Foundation

/// Mastodon's answer to an entry it does not have (404, `{"error":"Record not found"}`): a
/// refusal, not worth trying again.
package struct RecordNotFound: FeedServiceError, Hashable {
    package init() {}
    package var isTransient: Bool { false }
    package var errorDescription: String? { "Record not found" }
}

extension ServerModel {
    /// What a Mastodon server does when the user favourites (`value` true) or unfavourites,
    /// reblogs or unreblogs, bookmarks or unbookmarks the entry `id`, and what it answers:
    ///
    /// - The original takes it — a boost entry's original; the boost entry itself is unchanged.
    /// - Its flag becomes `value` and a count moves only with its flag, never below zero, so
    ///   asking twice is asking once (``ServerInteractions/set(_:to:)``).
    /// - A reblog answers with the user's boost of the original (made now, or the one standing),
    ///   whose `reblog` is the original; an unreblog deletes that boost and answers with the
    ///   original.
    /// - The user's favourites and bookmarks feeds list what they favourited and bookmarked, the
    ///   newest first: an original joins on top when its flag comes on and leaves when it goes off.
    /// - A bookmark asked of a boost entry answers with that entry, the original inside it
    ///   bookmarked and the entry's own flag off; every other answer is the original.
    ///
    /// - Throws: ``RecordNotFound`` when the server has no entry `id`; nothing changes then.
    package mutating func set(_ kind: InteractionKind, to value: Bool, on id: Entry.ID) throws(RecordNotFound) -> Entry {
        guard var original = original(of: id) else { throw RecordNotFound() }
        var interactions = original.interactions
        interactions.set(kind, to: value)
        if interactions != original.interactions {
            original.interactions = interactions
            originals[original.id] = original
            if let feed: Feed = kind == .favourite ? .favourites : kind == .bookmark ? .bookmarks : nil {
                timelines.feeds[feed, default: []].removeAll { $0 == original.id }
                if value { timelines.feeds[feed, default: []].insert(original.id, at: 0) }
            }
        }
        switch kind {
        case .reblog where value:
            return userBoost(of: original)
        case .reblog:
            if let boost = userBoosts[original.id] { removeBoost(boost) }
            return original
        case .bookmark where boosts[id] != nil:
            guard var boost = entry(id) else { throw RecordNotFound() }
            boost.interactions.bookmarked = false
            return boost
        case .favourite, .bookmark, .pin, .muteThread:
            return original
        }
    }

    /// The user's boost of `original`: the one standing, or a new one.
    private mutating func userBoost(of original: Entry) -> Entry {
        if let standing = userBoosts[original.id], let boost = entry(standing) { return boost }
        boostsMade += 1
        let boost = Entry.userBoost(of: original, number: boostsMade)
        add([boost])
        userBoosts[original.id] = boost.id
        return boost
    }
}
