@testable import FeedlineMastodon
import FeedlineTestSupport

/// The fake server keeps Mastodon's statuses in a ``ServerModel``, so its interactions follow
/// the same rule as every other fake's, and a status keeps every field it is served with.
extension Mastodon.Status: ServerEntry {
    /// A flag the server did not send (`nil`, signed out) reads as off; writing sets them all (`pinned` and `muted` once they are on).
    public var interactions: ServerInteractions {
        get {
            ServerInteractions(
                favourited: favourited ?? false, favourites: favouritesCount, reblogged: reblogged ?? false, reblogs: reblogsCount,
                bookmarked: bookmarked ?? false, pinned: pinned ?? false, muted: muted ?? false
            )
        }
        set {
            favourited = newValue.favourited
            favouritesCount = newValue.favourites
            reblogged = newValue.reblogged
            reblogsCount = newValue.reblogs
            bookmarked = newValue.bookmarked
            // Mastodon says whether you pinned only of posts that can be pinned: kept absent
            // until it changes.
            if pinned != nil || newValue.pinned { pinned = newValue.pinned }
            if muted != nil || newValue.muted { muted = newValue.muted }
        }
    }

    /// The user's boost, numbered from 900000, far above the fixtures' ids. The fake does not know
    /// the user's account, so the boost is shown as the original's author's.
    public static func userBoost(of original: Mastodon.Status, number: Int) -> Mastodon.Status {
        Mastodon.Status(
            id: String(899_999 + number), createdAt: original.createdAt, account: original.account,
            favourited: false, reblogged: true, reblog: original
        )
    }
}
