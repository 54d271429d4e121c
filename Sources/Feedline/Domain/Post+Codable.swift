import Foundation

/// A post encodes as a flat object of its fields (`reblog` nested, itself without a reblog), so
/// that a saved copy reads back equal. Optional fields are left out when `nil`; decoding fills
/// in the defaults of ``Post/init(id:author:text:createdAt:contentWarning:media:poll:card:repliesCount:reblogsCount:favouritesCount:favourited:reblogged:bookmarked:editedAt:tags:inReplyToID:url:filters:reblog:)``
/// for missing ones, so entries saved before a field existed still load.
extension Post: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, author, text, createdAt, contentWarning, media, poll, card
        case repliesCount, reblogsCount, favouritesCount, favourited, reblogged, bookmarked
        case editedAt, tags, inReplyToID, url, filters, reblog
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(PostID.self, forKey: .id),
            author: try values.decode(Author.self, forKey: .author),
            text: try values.decode(String.self, forKey: .text),
            createdAt: try values.decode(Date.self, forKey: .createdAt),
            contentWarning: try values.decodeIfPresent(String.self, forKey: .contentWarning),
            media: try values.decodeIfPresent([Media].self, forKey: .media) ?? [],
            poll: try values.decodeIfPresent(Poll.self, forKey: .poll),
            card: try values.decodeIfPresent(LinkCard.self, forKey: .card),
            repliesCount: try values.decodeIfPresent(Int.self, forKey: .repliesCount) ?? 0,
            reblogsCount: try values.decodeIfPresent(Int.self, forKey: .reblogsCount) ?? 0,
            favouritesCount: try values.decodeIfPresent(Int.self, forKey: .favouritesCount) ?? 0,
            favourited: try values.decodeIfPresent(Bool.self, forKey: .favourited) ?? false,
            reblogged: try values.decodeIfPresent(Bool.self, forKey: .reblogged) ?? false,
            bookmarked: try values.decodeIfPresent(Bool.self, forKey: .bookmarked) ?? false,
            editedAt: try values.decodeIfPresent(Date.self, forKey: .editedAt),
            tags: try values.decodeIfPresent([String].self, forKey: .tags) ?? [],
            inReplyToID: try values.decodeIfPresent(PostID.self, forKey: .inReplyToID),
            url: try values.decodeIfPresent(String.self, forKey: .url),
            filters: try values.decodeIfPresent([PostFilter].self, forKey: .filters) ?? [],
            reblog: try values.decodeIfPresent(Post.self, forKey: .reblog)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(author, forKey: .author)
        try values.encode(text, forKey: .text)
        try values.encode(createdAt, forKey: .createdAt)
        try values.encodeIfPresent(contentWarning, forKey: .contentWarning)
        if !media.isEmpty { try values.encode(media, forKey: .media) }
        try values.encodeIfPresent(poll, forKey: .poll)
        try values.encodeIfPresent(card, forKey: .card)
        if repliesCount != 0 { try values.encode(repliesCount, forKey: .repliesCount) }
        if reblogsCount != 0 { try values.encode(reblogsCount, forKey: .reblogsCount) }
        if favouritesCount != 0 { try values.encode(favouritesCount, forKey: .favouritesCount) }
        if favourited { try values.encode(true, forKey: .favourited) }
        if reblogged { try values.encode(true, forKey: .reblogged) }
        if bookmarked { try values.encode(true, forKey: .bookmarked) }
        try values.encodeIfPresent(editedAt, forKey: .editedAt)
        if !tags.isEmpty { try values.encode(tags, forKey: .tags) }
        try values.encodeIfPresent(inReplyToID, forKey: .inReplyToID)
        try values.encodeIfPresent(url, forKey: .url)
        if !filters.isEmpty { try values.encode(filters, forKey: .filters) }
        try values.encodeIfPresent(reblog, forKey: .reblog)
    }
}
