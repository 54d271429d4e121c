import Foundation

/// What a list keeps across runs: its newest entries (posts and gaps, newest first), where older
/// pages continue, and the reading position. A value the core hands out and takes back; saving
/// and loading it is the front's business (the core does no I/O): encode it (it is `Codable`) or,
/// to store its entries one by one as `FeedlineState` does, read them through the
/// `@_spi(FeedService)` members (the entries, the cursor and the reading position).
public struct SavedList: Hashable, Sendable, Codable {
    /// One saved entry: a post row (the entry as the server sent it) or a gap between two.
    @_spi(FeedService) public enum Entry: Hashable, Sendable, Codable {
        case post(Post)
        case gap(below: ItemID, above: ItemID)

        /// The row this entry restores to (a gap restores idle).
        public var rowID: RowID {
            switch self {
            case .post(let post): .post(post.id)
            case .gap(let below, _): .gap(below: below.rawValue)
            }
        }
    }

    /// At most ``limit`` entries, newest first; never a gap first or last.
    @_spi(FeedService) public var entries: [Entry]
    /// Where older pages continue below the last entry; `nil` when the list reached its end.
    @_spi(FeedService) public var older: PageCursor?
    /// The newest post the user has seen (see ``ReadingPosition``), if any.
    @_spi(FeedService) public var position: ReadingPosition?

    /// How many entries a list keeps: the "last 1,000 entries".
    public static let limit = 1_000

    @_spi(FeedService) public init(entries: [Entry], older: PageCursor?, position: ReadingPosition? = nil) {
        self.entries = entries
        self.older = older
        self.position = position
    }
}

/// The newest item the user has seen in a list — Mastodon's marker meaning: every item newer
/// than it is unread. In a timeline it is a post entry; in the notifications, the newest
/// notification of a group. It only moves forward (see `ListState/position`). A state store's
/// concern (`FeedlineState` keeps it), as a saved list's entries are.
@_spi(FeedService) public struct ReadingPosition: Hashable, Sendable, Codable {
    /// The entry's id (for a boost, the boost's own id: the marker names timeline entries), or
    /// the notification's.
    public var id: ItemID
    /// When the post was written (the notification happened): orders two positions when
    /// neither is in the list any more.
    public var createdAt: Date

    public init(id: ItemID, createdAt: Date) {
        self.id = id
        self.createdAt = createdAt
    }

    /// The position at a post entry.
    public init(_ post: Post) {
        self.init(id: ItemID(post.id), createdAt: post.createdAt)
    }

    /// Whether this position is further on than `other`: written later. A position at the
    /// same item is not.
    public func isNewer(than other: ReadingPosition) -> Bool {
        id != other.id && createdAt > other.createdAt
    }
}

/// A favourite, boost or bookmark the user asked for that the server has not confirmed because
/// it could not be reached (no connection, a timeout, a 5xx): kept, shown as pending, re-sent
/// with backoff and at the next start. Keyed by the original post and the kind.
public struct OutboxEntry: Hashable, Sendable, Codable {
    /// The original post (a boost's original).
    public var postID: PostID
    public var kind: InteractionKind
    /// The value the user wants.
    public var value: Bool

    public init(postID: PostID, kind: InteractionKind, value: Bool) {
        self.postID = postID
        self.kind = kind
        self.value = value
    }
}
