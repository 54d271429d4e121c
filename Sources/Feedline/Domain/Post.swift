import Foundation

/// A post as the view models see it: plain values, already converted from the wire format.
///
/// A *reblog entry* (a boost) is a post of its own — its own `id`, the booster as `author` —
/// whose `reblog` holds the original. Interaction state (favourite, reblog, bookmark, counts)
/// belongs to the original; ``originalID`` and ``content`` name it.
public struct Post: Hashable, Sendable, Identifiable {
    /// The entry's own id: its identity in a timeline.
    public var id: PostID
    public var author: Author
    /// The post's text as plain text (line breaks kept, HTML already decoded).
    public var text: String
    public var createdAt: Date
    /// The content warning (spoiler text), or `nil` when the post has none.
    public var contentWarning: String?
    public var media: [Media]
    public var poll: Poll?
    public var card: LinkCard?
    public var repliesCount: Int
    public var reblogsCount: Int
    public var favouritesCount: Int
    /// Whether the signed-in user has favourited this post (`false` when signed out).
    public var favourited: Bool
    /// Whether the signed-in user has boosted this post (`false` when signed out).
    public var reblogged: Bool
    /// Whether the signed-in user has bookmarked this post (`false` when signed out).
    public var bookmarked: Bool
    /// When the post was last edited, if ever.
    public var editedAt: Date?
    /// The hashtags the post carries, without `#`, as the server names them.
    public var tags: [String]
    /// The post this one replies to, if any.
    public var inReplyToID: PostID?
    /// A web address for the post, if the server gave one.
    public var url: String?

    private var nested: Nested?

    public init(
        id: PostID,
        author: Author,
        text: String,
        createdAt: Date,
        contentWarning: String? = nil,
        media: [Media] = [],
        poll: Poll? = nil,
        card: LinkCard? = nil,
        repliesCount: Int = 0,
        reblogsCount: Int = 0,
        favouritesCount: Int = 0,
        favourited: Bool = false,
        reblogged: Bool = false,
        bookmarked: Bool = false,
        editedAt: Date? = nil,
        tags: [String] = [],
        inReplyToID: PostID? = nil,
        url: String? = nil,
        reblog: Post? = nil
    ) {
        self.id = id
        self.author = author
        self.text = text
        self.createdAt = createdAt
        self.contentWarning = contentWarning.flatMap { $0.isEmpty ? nil : $0 }
        self.media = media
        self.poll = poll
        self.card = card
        self.repliesCount = repliesCount
        self.reblogsCount = reblogsCount
        self.favouritesCount = favouritesCount
        self.favourited = favourited
        self.reblogged = reblogged
        self.bookmarked = bookmarked
        self.editedAt = editedAt
        self.tags = tags
        self.inReplyToID = inReplyToID
        self.url = url
        self.nested = reblog.map { Nested.post($0.content) }
    }

    /// The boosted original when this is a reblog entry.
    ///
    /// Setting a reblog flattens it: a reblog of a reblog stores the innermost original,
    /// since interaction state always belongs to a post that is not itself a boost.
    public var reblog: Post? {
        get {
            guard case .post(let post)? = nested else { return nil }
            return post
        }
        set { nested = newValue.map { Nested.post($0.content) } }
    }

    /// The post whose text and interaction state this entry shows: the original for a
    /// reblog entry, otherwise the post itself.
    public var content: Post { reblog ?? self }

    /// The key of the shared interaction state: `reblog?.id ?? id`.
    public var originalID: PostID { reblog?.id ?? id }

    /// The booster of a reblog entry, `nil` for an ordinary post.
    public var boostedBy: Author? { reblog == nil ? nil : author }

    /// Whether the signed-in user's `kind` is set on this post (the original's, for a reblog entry).
    public func isOn(_ kind: InteractionKind) -> Bool {
        let original = content
        return switch kind {
        case .favourite: original.favourited
        case .reblog: original.reblogged
        case .bookmark: original.bookmarked
        }
    }

    /// The count of `kind` on this post (the original's); bookmarks have no public count: 0.
    public func count(_ kind: InteractionKind) -> Int {
        let original = content
        return switch kind {
        case .favourite: max(0, original.favouritesCount)
        case .reblog: max(0, original.reblogsCount)
        case .bookmark: 0
        }
    }

    /// The media as one line: `[image: description] [video]`; empty without media.
    public var mediaSummary: String {
        media.map(\.summary).joined(separator: " ")
    }

    private indirect enum Nested: Hashable, Sendable {
        case post(Post)
    }
}
