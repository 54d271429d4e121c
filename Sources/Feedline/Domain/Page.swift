/// One page of a timeline, newest first.
public struct Page: Hashable, Sendable {
    /// The posts, newest first, in the order the server sent them.
    public var posts: [Post]
    /// Where the next (older) page starts, or `nil` at the end of the timeline.
    public var next: PageCursor?

    public init(posts: [Post], next: PageCursor?) {
        self.posts = posts
        self.next = next
    }
}

/// Posts newer than a known post, for a refresh or for filling a gap.
public struct NewerPage: Hashable, Sendable {
    /// The newest posts of the requested range, newest first.
    public var posts: [Post]
    /// Whether posts older than the oldest of `posts` (and still inside the requested range)
    /// may exist that were not returned. When `true` a gap remains below `posts`.
    public var hasMore: Bool

    public init(posts: [Post], hasMore: Bool) {
        self.posts = posts
        self.hasMore = hasMore
    }
}

/// The thread around a post: what it replies to and what replies to it.
public struct PostContext: Hashable, Sendable {
    /// The posts above, oldest first (the root of the thread first).
    public var ancestors: [Post]
    /// The replies below, in thread order (depth first, oldest first).
    public var descendants: [Post]

    public init(ancestors: [Post] = [], descendants: [Post] = []) {
        self.ancestors = ancestors
        self.descendants = descendants
    }
}
