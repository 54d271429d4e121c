import Foundation

/// A post encodes as a flat object of its fields (`reblog` nested, itself without a reblog), so
/// that a saved copy reads back equal: `Post.Fields`' synthesized coding. Optional fields are
/// left out when `nil`, and empty lists, zero counts and `false` flags are left out too; decoding
/// fills in the defaults of ``Post/init(id:author:text:createdAt:contentWarning:media:poll:card:repliesCount:reblogsCount:favouritesCount:favourited:reblogged:bookmarked:editedAt:tags:inReplyToID:url:filters:reblog:)``
/// for missing ones, so entries saved before a field existed still load, and normalises as that
/// initialiser does.
extension Post: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(normalizing: try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}
