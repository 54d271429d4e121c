/// The identity of a timeline row: a post entry, or the gap above a post.
public enum RowID: Hashable, Sendable, CustomStringConvertible {
    /// A post entry, by its own id (a reblog entry's id, not the original's).
    case post(PostID)
    /// The gap above the post with this id (its lower bound).
    case gap(below: PostID)

    public var description: String {
        switch self {
        case .post(let id): "post:\(id)"
        case .gap(let below): "gap:\(below)"
        }
    }
}

/// Posts that may be missing between two rows, left by a refresh whose page was full.
public struct Gap: Hashable, Sendable, Identifiable {
    /// Whether the gap's posts are being loaded, or why the last load failed.
    public enum Status: Hashable, Sendable {
        case idle
        case loading
        case failed(String)
    }

    /// The post right below the gap: the missing posts are newer than it (`since_id`).
    public var below: PostID
    /// The post right above the gap: the missing posts are older than it (`max_id`).
    public var above: PostID
    public var status: Status

    public init(below: PostID, above: PostID, status: Status = .idle) {
        self.below = below
        self.above = above
        self.status = status
    }

    /// Stable while the gap shrinks: it is named for the post below it.
    public var id: RowID { .gap(below: below) }
}

/// A row of the pagination machine: a post entry as the server sent it, or a gap.
public indirect enum TimelineEntry: Hashable, Sendable, Identifiable {
    case post(Post)
    case gap(Gap)

    public var id: RowID {
        switch self {
        case .post(let post): .post(post.id)
        case .gap(let gap): gap.id
        }
    }

    /// The post, when this is a post row.
    public var post: Post? {
        if case .post(let post) = self { return post }
        return nil
    }

    /// The gap, when this is a gap row.
    public var gap: Gap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }
}
