import Foundation

extension Post {
    /// A post's stored fields, declared once. `Post` keeps one copy-on-write box of them, and
    /// its `==`, `hash(into:)` and JSON coding are this struct's synthesized ones, so a field added
    /// here reaches equality, hashing, saved state and every copy with nothing else to update —
    /// only its public accessor and initialiser parameter on `Post` are written by hand.
    ///
    /// Declared in the order the JSON has always listed them (that order also makes `==` reject
    /// different posts at the first field, `id`). A field marked ``OmittedWhenDefault`` is left out
    /// of the JSON while it holds its default (empty, zero, `false`) and read back as that default
    /// when missing; an optional field is left out while `nil` — so entries saved before a field
    /// existed still load.
    struct Fields: Hashable, Sendable, Codable {
        var id: PostID
        var author: Author
        var text: String
        var createdAt: Date
        var contentWarning: String?
        @OmittedWhenDefault var media: [Media]
        var poll: Poll?
        var card: LinkCard?
        @OmittedWhenDefault var repliesCount: Int
        @OmittedWhenDefault var reblogsCount: Int
        @OmittedWhenDefault var favouritesCount: Int
        @OmittedWhenDefault var favourited: Bool
        @OmittedWhenDefault var reblogged: Bool
        @OmittedWhenDefault var bookmarked: Bool
        var editedAt: Date?
        @OmittedWhenDefault var tags: [String]
        var inReplyToID: PostID?
        var url: String?
        @OmittedWhenDefault var filters: [PostFilter]
        var reblog: Post?
        @OmittedWhenDefault var visibility: PostVisibility
        @OmittedWhenDefault var mentions: [String]
        var language: String?
        var quote: Quote?
        @OmittedWhenDefault var links: [String]
        var quoteApproval: QuoteApproval?
        @OmittedWhenDefault var pinned: Bool
        @OmittedWhenDefault var muted: Bool
    }
}
