/// One page of a list, newest first.
@_spi(FeedService) public struct Page<Item: Hashable & Sendable>: Hashable, Sendable {
    /// The items, newest first, in the order the server sent them.
    public var items: [Item]
    /// Where the next (older) page starts, or `nil` at the end of the list.
    public var next: PageCursor?
    /// How many entries the server sent in this page that could not be read (a wrong type,
    /// a missing field) and were left out of `items`; 0 for a page read whole.
    public var skipped: Int
    /// How many of the first `items` the server puts on top, out of the newest-first order —
    /// an account's pinned posts, above its newest (Mastodon's `pinned=true`): a list keeps
    /// them on top and asks for newer items above the first item below them. 0 for most pages.
    public var onTop: Int

    public init(items: [Item], next: PageCursor?, skipped: Int = 0, onTop: Int = 0) {
        self.items = items
        self.next = next
        self.skipped = skipped
        self.onTop = min(max(0, onTop), items.count)
    }
}

@_spi(FeedService) extension Page where Item == Post {
    /// A page of posts.
    public init(posts: [Post], next: PageCursor?, skipped: Int = 0, onTop: Int = 0) {
        self.init(items: posts, next: next, skipped: skipped, onTop: onTop)
    }

    /// The posts.
    public var posts: [Post] { items }
}

/// Items newer than a known one, for a refresh or for filling a gap.
@_spi(FeedService) public struct NewerPage<Item: Hashable & Sendable>: Hashable, Sendable {
    /// The newest items of the requested range, newest first.
    public var items: [Item]
    /// Whether items older than the oldest of `items` (and still inside the requested range)
    /// may exist that were not returned. When `true` a gap remains below `items`.
    public var hasMore: Bool
    /// The oldest item the server sent, when it is not the last of `items` (a list left out
    /// posts its filters hide): where a gap below `items` ends, so the hidden items are not
    /// asked for again.
    package var oldestBound: ItemID?
    /// How many entries the server sent in this answer that could not be read and were left
    /// out of `items`; 0 for an answer read whole.
    public var skipped: Int

    public init(items: [Item], hasMore: Bool, skipped: Int = 0) {
        self.items = items
        self.hasMore = hasMore
        self.skipped = skipped
    }
}

@_spi(FeedService) extension NewerPage where Item == Post {
    /// Newer posts.
    public init(posts: [Post], hasMore: Bool, skipped: Int = 0) {
        self.init(items: posts, hasMore: hasMore, skipped: skipped)
    }

    /// The posts.
    public var posts: [Post] { items }
}

/// The thread around a post: what it replies to and what replies to it. A service answers it; a
/// front shows a thread as the ``ListSource/thread(_:)`` list, whose rows carry their depth.
@_spi(FeedService) public struct PostContext: Hashable, Sendable {
    /// The posts above, oldest first (the root of the thread first).
    public var ancestors: [Post]
    /// The replies below, in thread order (depth first, oldest first).
    public var descendants: [Post]

    public init(ancestors: [Post] = [], descendants: [Post] = []) {
        self.ancestors = ancestors
        self.descendants = descendants
    }
}
