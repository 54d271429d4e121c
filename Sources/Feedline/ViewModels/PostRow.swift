import Foundation

/// What a timeline row shows for a post: the entry as the server sent it and the shared,
/// optimistic interaction state. Equal when every displayed value is equal.
public struct PostRow: Hashable, Sendable, Identifiable {
    /// The entry (for a reblog entry: the wrapper; ``content`` is the original).
    public var post: Post
    /// The shared interaction state of the original post.
    public var interaction: PostInteraction

    public init(post: Post, interaction: PostInteraction) {
        self.post = post
        self.interaction = interaction
    }

    /// The entry's id: the row's identity.
    public var id: PostID { post.id }
    /// The original post's id: the interaction state's key.
    public var originalID: PostID { post.originalID }
    /// The post whose text and author the row shows (the original for a reblog entry).
    public var content: Post { post.content }
    public var author: Author { post.content.author }
    /// Who boosted it, for a reblog entry.
    public var boostedBy: Author? { post.boostedBy }
    public var text: String { post.content.text }
    public var contentWarning: String? { post.content.contentWarning }
    public var mediaSummary: String { post.content.mediaSummary }
    /// When the original was written.
    public var createdAt: Date { post.content.createdAt }
    public var repliesCount: Int { post.content.repliesCount }

    /// The age of the post relative to `clock`'s now: `now`, `5m`, `3h`, `Mar 4` …
    public func relativeTime(_ clock: WallClock) -> String {
        clock.relative(createdAt)
    }
}

/// One row of a timeline as fronts show it.
public indirect enum TimelineRow: Hashable, Sendable, Identifiable {
    case post(PostRow)
    case gap(Gap)

    public var id: RowID {
        switch self {
        case .post(let row): .post(row.id)
        case .gap(let gap): gap.id
        }
    }

    /// The post row, when this is one.
    public var post: PostRow? {
        if case .post(let row) = self { return row }
        return nil
    }

    /// The gap, when this is one.
    public var gap: Gap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }
}
