import Foundation

/// A post as the view models see it: plain values, already converted from the wire format.
///
/// A *reblog entry* (a boost) is a post of its own — its own `id`, the booster as `author` —
/// whose `reblog` holds the original. Interaction state (favourite, reblog, bookmark, counts)
/// belongs to the original; ``originalID`` and ``content`` name it.
///
/// A value with copy-on-write storage: copying a post (into a row, a snapshot, the store) is one
/// reference, however many fields it has; changing a copy copies its storage first. Two posts
/// sharing storage compare equal without looking at their fields.
public struct Post: Hashable, Sendable, Identifiable {
    private var storage: Storage

    /// The entry's own id: its identity in a list.
    public var id: PostID {
        get { storage.id }
        set { mutableStorage().id = newValue }
    }

    public var author: Author {
        get { storage.author }
        set { mutableStorage().author = newValue }
    }

    /// The post's text as plain text (line breaks kept, HTML already decoded).
    public var text: String {
        get { storage.text }
        set { mutableStorage().text = newValue }
    }

    public var createdAt: Date {
        get { storage.createdAt }
        set { mutableStorage().createdAt = newValue }
    }

    /// The content warning (spoiler text), or `nil` when the post has none.
    public var contentWarning: String? {
        get { storage.contentWarning }
        set { mutableStorage().contentWarning = newValue }
    }

    public var media: [Media] {
        get { storage.media }
        set { mutableStorage().media = newValue }
    }

    public var poll: Poll? {
        get { storage.poll }
        set { mutableStorage().poll = newValue }
    }

    public var card: LinkCard? {
        get { storage.card }
        set { mutableStorage().card = newValue }
    }

    public var repliesCount: Int {
        get { storage.repliesCount }
        set { mutableStorage().repliesCount = newValue }
    }

    public var reblogsCount: Int {
        get { storage.reblogsCount }
        set { mutableStorage().reblogsCount = newValue }
    }

    public var favouritesCount: Int {
        get { storage.favouritesCount }
        set { mutableStorage().favouritesCount = newValue }
    }

    /// Whether the signed-in user has favourited this post (`false` when signed out).
    public var favourited: Bool {
        get { storage.favourited }
        set { mutableStorage().favourited = newValue }
    }

    /// Whether the signed-in user has boosted this post (`false` when signed out).
    public var reblogged: Bool {
        get { storage.reblogged }
        set { mutableStorage().reblogged = newValue }
    }

    /// Whether the signed-in user has bookmarked this post (`false` when signed out).
    public var bookmarked: Bool {
        get { storage.bookmarked }
        set { mutableStorage().bookmarked = newValue }
    }

    /// When the post was last edited, if ever.
    public var editedAt: Date? {
        get { storage.editedAt }
        set { mutableStorage().editedAt = newValue }
    }

    /// The hashtags the post carries, without `#`, as the server names them.
    public var tags: [String] {
        get { storage.tags }
        set { mutableStorage().tags = newValue }
    }

    /// The post this one replies to, if any.
    public var inReplyToID: PostID? {
        get { storage.inReplyToID }
        set { mutableStorage().inReplyToID = newValue }
    }

    /// A web address for the post, if the server gave one.
    public var url: String? {
        get { storage.url }
        set { mutableStorage().url = newValue }
    }

    /// The user's server-side filters that matched this post (``filter(in:)`` picks the one
    /// that applies where it is shown).
    public var filters: [PostFilter] {
        get { storage.filters }
        set { mutableStorage().filters = newValue }
    }

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
        filters: [PostFilter] = [],
        reblog: Post? = nil
    ) {
        storage = Storage(
            id: id, author: author, text: text, createdAt: createdAt,
            contentWarning: contentWarning.flatMap { $0.isEmpty ? nil : $0 }, media: media, poll: poll, card: card,
            repliesCount: repliesCount, reblogsCount: reblogsCount, favouritesCount: favouritesCount,
            favourited: favourited, reblogged: reblogged, bookmarked: bookmarked, editedAt: editedAt, tags: tags,
            inReplyToID: inReplyToID, url: url, filters: filters, reblog: reblog.map(\.content)
        )
    }

    /// The boosted original when this is a reblog entry.
    ///
    /// Setting a reblog flattens it: a reblog of a reblog stores the innermost original,
    /// since interaction state always belongs to a post that is not itself a boost.
    public var reblog: Post? {
        get { storage.reblog }
        set { mutableStorage().reblog = newValue.map(\.content) }
    }

    /// The post whose text and interaction state this entry shows: the original for a
    /// reblog entry, otherwise the post itself.
    public var content: Post { storage.reblog ?? self }

    /// The key of the shared interaction state: `reblog?.id ?? id`.
    public var originalID: PostID { storage.reblog?.id ?? storage.id }

    /// The booster of a reblog entry, `nil` for an ordinary post.
    public var boostedBy: Author? { storage.reblog == nil ? nil : storage.author }

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

    public static func == (lhs: Post, rhs: Post) -> Bool {
        lhs.storage === rhs.storage || lhs.storage == rhs.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.id)
        hasher.combine(storage.author)
        hasher.combine(storage.text)
        hasher.combine(storage.createdAt)
        hasher.combine(storage.contentWarning)
        hasher.combine(storage.media)
        hasher.combine(storage.poll)
        hasher.combine(storage.card)
        hasher.combine(storage.repliesCount)
        hasher.combine(storage.reblogsCount)
        hasher.combine(storage.favouritesCount)
        hasher.combine(storage.favourited)
        hasher.combine(storage.reblogged)
        hasher.combine(storage.bookmarked)
        hasher.combine(storage.editedAt)
        hasher.combine(storage.tags)
        hasher.combine(storage.inReplyToID)
        hasher.combine(storage.url)
        hasher.combine(storage.filters)
        hasher.combine(storage.reblog)
    }

    /// The storage, copied first when another post shares it.
    private mutating func mutableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    // @unchecked: mutated only through `mutableStorage()`, i.e. while one `Post` value holds it
    // alone — and Swift's exclusivity rules confine a mutation of that value to one thread.
    private final class Storage: @unchecked Sendable, Equatable {
        var id: PostID
        var author: Author
        var text: String
        var createdAt: Date
        var contentWarning: String?
        var media: [Media]
        var poll: Poll?
        var card: LinkCard?
        var repliesCount: Int
        var reblogsCount: Int
        var favouritesCount: Int
        var favourited: Bool
        var reblogged: Bool
        var bookmarked: Bool
        var editedAt: Date?
        var tags: [String]
        var inReplyToID: PostID?
        var url: String?
        var filters: [PostFilter]
        var reblog: Post?

        init(
            id: PostID,
            author: Author,
            text: String,
            createdAt: Date,
            contentWarning: String?,
            media: [Media],
            poll: Poll?,
            card: LinkCard?,
            repliesCount: Int,
            reblogsCount: Int,
            favouritesCount: Int,
            favourited: Bool,
            reblogged: Bool,
            bookmarked: Bool,
            editedAt: Date?,
            tags: [String],
            inReplyToID: PostID?,
            url: String?,
            filters: [PostFilter],
            reblog: Post?
        ) {
            self.id = id
            self.author = author
            self.text = text
            self.createdAt = createdAt
            self.contentWarning = contentWarning
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
            self.filters = filters
            self.reblog = reblog
        }

        func copy() -> Storage {
            Storage(id: id, author: author, text: text, createdAt: createdAt, contentWarning: contentWarning, media: media, poll: poll, card: card, repliesCount: repliesCount, reblogsCount: reblogsCount, favouritesCount: favouritesCount, favourited: favourited, reblogged: reblogged, bookmarked: bookmarked, editedAt: editedAt, tags: tags, inReplyToID: inReplyToID, url: url, filters: filters, reblog: reblog)
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs.id == rhs.id && lhs.author == rhs.author && lhs.text == rhs.text && lhs.createdAt == rhs.createdAt && lhs.contentWarning == rhs.contentWarning && lhs.media == rhs.media && lhs.poll == rhs.poll && lhs.card == rhs.card && lhs.repliesCount == rhs.repliesCount && lhs.reblogsCount == rhs.reblogsCount && lhs.favouritesCount == rhs.favouritesCount && lhs.favourited == rhs.favourited && lhs.reblogged == rhs.reblogged && lhs.bookmarked == rhs.bookmarked && lhs.editedAt == rhs.editedAt && lhs.tags == rhs.tags && lhs.inReplyToID == rhs.inReplyToID && lhs.url == rhs.url && lhs.filters == rhs.filters
                && lhs.reblog == rhs.reblog
        }
    }
}
