/// Something a post leads to that a browser opens: a link of its text, its link card, or one of
/// its attachments — what fronts number for a reader to open (`link N`, `browse N K`).
public enum PostLink: Hashable, Sendable {
    /// A link in the post's text.
    case link(url: String)
    /// The post's link preview card, when its text does not link the same address.
    case card(LinkCard, url: String)
    /// An attachment.
    case media(Media, url: String)

    /// The address: `http` or `https`, with no space or control character in it (as
    /// ``checked(_:)`` lets through).
    public var url: String {
        switch self {
        case .link(let url), .card(_, let url), .media(_, let url): url
        }
    }

    /// `address` when a browser may be given it: an `http` or `https` address with a host, no
    /// whitespace, control or format character, at most 2048 bytes; `nil` otherwise.
    public static func checked(_ address: String) -> String? {
        guard address.utf8.count <= 2_048 else { return nil }
        let lowered = address.lowercased()
        let scheme = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : 0
        guard scheme > 0, address.utf8.count > scheme else { return nil }
        let clean = address.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control && scalar.properties.generalCategory != .format
        }
        return clean ? address : nil
    }
}

extension Post {
    /// What a reader can open of the post (a boost: of its original), numbered from 1 in this
    /// order: the links of its text, its link card's address when the text does not link it,
    /// then each attachment that has an address. Addresses a browser may not be given
    /// (``PostLink/checked(_:)``) are left out.
    public var linkTargets: [PostLink] {
        let post = content
        var targets = post.links.compactMap { PostLink.checked($0).map { PostLink.link(url: $0) } }
        if let card = post.card, let url = PostLink.checked(card.url), !targets.contains(where: { $0.url == url }) {
            targets.append(.card(card, url: url))
        }
        for media in post.media {
            if let url = media.url.flatMap(PostLink.checked) { targets.append(.media(media, url: url)) }
        }
        return targets
    }

    /// The post's own web address (a boost: its original's), when a browser may be given it.
    public var webAddress: String? {
        content.url.flatMap(PostLink.checked)
    }
}
