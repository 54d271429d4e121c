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
///
/// The fields are declared once, in `Post.Fields`: equality, hashing, coding and copying all derive
/// from that one list, so a field added there cannot be missed by any of them.
public struct Post: Hashable, Sendable, Identifiable {
    private var storage: Storage

    /// The entry's own id: its identity in a list.
    public var id: PostID {
        get { storage.fields.id }
        set { mutableStorage().fields.id = newValue }
    }

    public var author: Author {
        get { storage.fields.author }
        set { mutableStorage().fields.author = newValue }
    }

    /// The post's text as plain text (line breaks kept, HTML already decoded).
    public var text: String {
        get { storage.fields.text }
        set { mutableStorage().fields.text = newValue }
    }

    public var createdAt: Date {
        get { storage.fields.createdAt }
        set { mutableStorage().fields.createdAt = newValue }
    }

    /// The content warning (spoiler text), or `nil` when the post has none.
    public var contentWarning: String? {
        get { storage.fields.contentWarning }
        set { mutableStorage().fields.contentWarning = newValue }
    }

    public var media: [Media] {
        get { storage.fields.media }
        set { mutableStorage().fields.media = newValue }
    }

    public var poll: Poll? {
        get { storage.fields.poll }
        set { mutableStorage().fields.poll = newValue }
    }

    public var card: LinkCard? {
        get { storage.fields.card }
        set { mutableStorage().fields.card = newValue }
    }

    public var repliesCount: Int {
        get { storage.fields.repliesCount }
        set { mutableStorage().fields.repliesCount = newValue }
    }

    public var reblogsCount: Int {
        get { storage.fields.reblogsCount }
        set { mutableStorage().fields.reblogsCount = newValue }
    }

    public var favouritesCount: Int {
        get { storage.fields.favouritesCount }
        set { mutableStorage().fields.favouritesCount = newValue }
    }

    /// Whether the signed-in user has favourited this post (`false` when signed out).
    public var favourited: Bool {
        get { storage.fields.favourited }
        set { mutableStorage().fields.favourited = newValue }
    }

    /// Whether the signed-in user has boosted this post (`false` when signed out).
    public var reblogged: Bool {
        get { storage.fields.reblogged }
        set { mutableStorage().fields.reblogged = newValue }
    }

    /// Whether the signed-in user has bookmarked this post (`false` when signed out).
    public var bookmarked: Bool {
        get { storage.fields.bookmarked }
        set { mutableStorage().fields.bookmarked = newValue }
    }

    /// Whether the signed-in user pinned this post (their own) to the top of their profile
    /// (Mastodon's `pinned`; `false` when signed out or for someone else's post).
    public var pinned: Bool {
        get { storage.fields.pinned }
        set { mutableStorage().fields.pinned = newValue }
    }

    /// Whether the signed-in user muted the conversation this post is part of: no notifications
    /// from it (Mastodon's `muted`; `false` when signed out).
    public var muted: Bool {
        get { storage.fields.muted }
        set { mutableStorage().fields.muted = newValue }
    }

    /// When the post was last edited, if ever.
    public var editedAt: Date? {
        get { storage.fields.editedAt }
        set { mutableStorage().fields.editedAt = newValue }
    }

    /// The hashtags the post carries, without `#`, as the server names them.
    public var tags: [String] {
        get { storage.fields.tags }
        set { mutableStorage().fields.tags = newValue }
    }

    /// The post this one replies to, if any.
    public var inReplyToID: PostID? {
        get { storage.fields.inReplyToID }
        set { mutableStorage().fields.inReplyToID = newValue }
    }

    /// A web address for the post, if the server gave one.
    public var url: String? {
        get { storage.fields.url }
        set { mutableStorage().fields.url = newValue }
    }

    /// The user's server-side filters that matched this post (a row's ``PostRow/warning`` is the
    /// one that applies where the row is shown).
    public var filters: [PostFilter] {
        get { storage.fields.filters }
        set { mutableStorage().fields.filters = newValue }
    }

    /// Who may see it (``PostVisibility/public`` when the server did not say).
    public var visibility: PostVisibility {
        get { storage.fields.visibility }
        set { mutableStorage().fields.visibility = newValue }
    }

    /// The handles it mentions, without `@` (`user` on the same server, `user@host` elsewhere),
    /// in the order the server lists them.
    public var mentions: [String] {
        get { storage.fields.mentions }
        set { mutableStorage().fields.mentions = newValue }
    }

    /// The language it is written in (an ISO 639 code), when the server says.
    public var language: String? {
        get { storage.fields.language }
        set { mutableStorage().fields.language = newValue }
    }

    /// The post this one quotes, with the quote's state (one level deep: see ``Quote``). A
    /// service sets it; a front reads what a row shows of it (``PostRow/quote``).
    @_spi(FeedService) public var quote: Quote? {
        get { storage.fields.quote }
        set { mutableStorage().fields.quote = newValue.map(Self.stored(quote:)) }
    }

    /// The web addresses its text links to, in order, each once — mentions and hashtags left
    /// out (they open profiles and hashtags here). Set by the service that read the post
    /// (FeedlineMastodon keeps only `http(s)` addresses with no space or control character).
    public var links: [String] {
        get { storage.fields.links }
        set { mutableStorage().fields.links = newValue }
    }

    /// How the post may be quoted and whether the signed-in user may, as the server says (Mastodon
    /// 4.5+); `nil` when it says nothing. A service sets it; a front reads its phrases
    /// (``quotePolicyPhrase``, ``quoteVerdictPhrase``, ``quoteAwaitsApproval``).
    @_spi(FeedService) public var quoteApproval: QuoteApproval? {
        get { storage.fields.quoteApproval }
        set { mutableStorage().fields.quoteApproval = newValue }
    }

    /// A post; an empty `contentWarning` is stored as none, and a `reblog` that is itself a
    /// boost is stored as its original (see ``reblog``). A service sets what it quotes and how
    /// it may be quoted after (the `@_spi(FeedService)` `quote` and `quoteApproval`).
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
        reblog: Post? = nil,
        visibility: PostVisibility = .public,
        mentions: [String] = [],
        language: String? = nil,
        links: [String] = [],
        pinned: Bool = false,
        muted: Bool = false
    ) {
        // Normalised as the arguments go in: building `Fields` first and normalising it after
        // copied every field once more (an initialiser twice as slow).
        storage = Storage(Fields(
            id: id, author: author, text: text, createdAt: createdAt, contentWarning: Self.stored(warning: contentWarning),
            media: media, poll: poll, card: card, repliesCount: repliesCount, reblogsCount: reblogsCount,
            favouritesCount: favouritesCount, favourited: favourited, reblogged: reblogged, bookmarked: bookmarked,
            editedAt: editedAt, tags: tags, inReplyToID: inReplyToID, url: url, filters: filters, reblog: reblog.map(\.content),
            visibility: visibility, mentions: mentions, language: language, quote: nil, links: links,
            quoteApproval: nil, pinned: pinned, muted: muted
        ))
    }

    /// A post of decoded `fields`, normalised as the public initialiser's arguments are.
    init(normalizing fields: Fields) {
        var fields = fields
        fields.contentWarning = Self.stored(warning: fields.contentWarning)
        fields.reblog = fields.reblog.map(\.content)
        fields.quote = fields.quote.map(Self.stored(quote:))
        storage = Storage(fields)
    }

    /// A content warning as stored: none for an empty one.
    private static func stored(warning: String?) -> String? {
        warning?.isEmpty == true ? nil : warning
    }

    /// A quote as stored: one level deep (the quoted post's own quote a placeholder).
    private static func stored(quote: Quote) -> Quote {
        Quote(state: quote.state, postID: quote.postID, post: quote.post)
    }

    /// The stored fields (a copy), for coding.
    var fields: Fields { storage.fields }

    /// The boosted original when this is a reblog entry.
    ///
    /// Setting a reblog flattens it: a reblog of a reblog stores the innermost original,
    /// since interaction state always belongs to a post that is not itself a boost. Setting the
    /// very original it holds (a copy sharing its storage) changes nothing, so the post keeps
    /// sharing its own storage too — a row refreshed with an unchanged original stays equal to
    /// its old self in O(1).
    public var reblog: Post? {
        get { storage.fields.reblog }
        set {
            let original = newValue.map(\.content)
            if original?.storage === storage.fields.reblog?.storage { return }
            mutableStorage().fields.reblog = original
        }
    }

    /// The post whose text and interaction state this entry shows: the original for a
    /// reblog entry, otherwise the post itself.
    public var content: Post { storage.fields.reblog ?? self }

    /// The key of the shared interaction state: `reblog?.id ?? id`.
    public var originalID: PostID { storage.fields.reblog?.id ?? storage.fields.id }

    /// The booster of a reblog entry, `nil` for an ordinary post.
    public var boostedBy: Author? { storage.fields.reblog == nil ? nil : storage.fields.author }

    /// Whether the signed-in user's `kind` is set on this post (the original's, for a reblog entry).
    public func isOn(_ kind: InteractionKind) -> Bool {
        let original = content
        return switch kind {
        case .favourite: original.favourited
        case .reblog: original.reblogged
        case .bookmark: original.bookmarked
        case .pin: original.pinned
        case .muteThread: original.muted
        }
    }

    /// The count of `kind` on this post (the original's); bookmarks, pins and muted
    /// conversations have no public count: 0.
    public func count(_ kind: InteractionKind) -> Int {
        let original = content
        return switch kind {
        case .favourite: max(0, original.favouritesCount)
        case .reblog: max(0, original.reblogsCount)
        case .bookmark, .pin, .muteThread: 0
        }
    }

    /// The media as one line: `[image: description] [video]`; empty without media.
    public var mediaSummary: String {
        media.map(\.summary).joined(separator: " ")
    }

    /// Equal when every stored field is equal (the synthesized `==` of `Post.Fields`); two posts sharing
    /// storage — a copy and its original — are equal at once, without reading a field.
    ///
    /// - Complexity: O(1) for copies of one post and for posts whose ids differ; otherwise the
    ///   fields' own comparisons.
    public static func == (lhs: Post, rhs: Post) -> Bool {
        // The ids first: reading the whole `Fields` out of its box copies it (a retain and a
        // release of every field), ten times the cost of comparing the ids of two different
        // posts. Equal posts in different boxes pay that copy (~110 ns against ~35 ns for the
        // field-by-field == this replaced); the reblog setter keeps such pairs rare.
        lhs.storage === rhs.storage || (lhs.storage.fields.id == rhs.storage.fields.id && lhs.storage.fields == rhs.storage.fields)
    }

    /// Hashes every stored field (the synthesized `hash(into:)` of `Post.Fields`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The storage, copied first when another post shares it.
    private mutating func mutableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// The one box a post's copies share until one of them changes.
    // @unchecked: mutated only through `mutableStorage()`, i.e. while one `Post` value holds it
    // alone — and Swift's exclusivity rules confine a mutation of that value to one thread.
    private final class Storage: @unchecked Sendable {
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

extension Post: CustomReflectable {
    /// The post's fields (not its storage box), so that printing and field-by-field diffs
    /// show them.
    public var customMirror: Mirror {
        Mirror(reflecting: storage.fields)
    }
}
