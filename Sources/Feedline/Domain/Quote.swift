/// Whether a quoted post may be shown, as the server says (what ``QuoteDisplay/unavailable(_:)``
/// tells). Mastodon's states, plus `unauthorized` for any state this version does not know (shown as not authorised).
public enum QuoteState: String, Hashable, Sendable, Codable, CaseIterable {
    /// The quoted author has not approved the quote yet.
    case pending
    /// Approved: the quoted post may be shown.
    case accepted
    /// The quoted author refused the quote.
    case rejected
    /// The quoted author withdrew an approval given earlier.
    case revoked
    /// The quoted post was deleted.
    case deleted
    /// The server does not let the signed-in user see it (also: any state not known here).
    case unauthorized
    /// The signed-in user blocked the quoted account.
    case blockedAccount = "blocked_account"
    /// The signed-in user blocked the quoted account's domain.
    case blockedDomain = "blocked_domain"
    /// The signed-in user muted the quoted account.
    case mutedAccount = "muted_account"

    /// The state a server names: Mastodon's name (`blocked_account` …); any other name is
    /// ``unauthorized``.
    public init(serverName: String) {
        self = QuoteState(rawValue: serverName) ?? .unauthorized
    }

    /// Why the quoted post is not shown, as a sentence part ("quote pending approval"); `nil`
    /// for `accepted`.
    public var notShownReason: String? {
        switch self {
        case .accepted: nil
        case .pending: "quote pending approval"
        case .rejected: "quote refused by its author"
        case .revoked: "quote withdrawn by its author"
        case .deleted: "quoted post deleted"
        case .unauthorized: "quoted post not available"
        case .blockedAccount: "quote of an account you blocked"
        case .blockedDomain: "quote of a domain you blocked"
        case .mutedAccount: "quote of an account you muted"
        }
    }
}

/// A post quoting another (Mastodon 4.4+): whether the quote may be shown and, when it may and
/// the server sent it, the quoted post. A service's value: a front reads what a row or detail
/// shows of it, ``PostRow/quote`` and ``PostDetailState/quote``.
///
/// Quotes are kept one level deep: the quoted post's own quote is a placeholder (its state and
/// the id of what it quotes, never that post), as Mastodon's `ShallowQuote` is.
@_spi(FeedService) public struct Quote: Hashable, Sendable, Codable {
    /// Whether the quoted post may be shown, as the server says.
    public var state: QuoteState
    /// The quoted post's id, when the server names it (a shallow quote, or a full one).
    public var postID: PostID?
    /// The quoted post as the server sent it, for an accepted quote one level deep; its own
    /// quote, if any, is a placeholder (``post`` `nil`).
    public var post: Post?

    /// A quote; `post`'s own quote is kept as a placeholder (see the type), and `postID` defaults
    /// to `post`'s id.
    public init(state: QuoteState, postID: PostID? = nil, post: Post? = nil) {
        self.state = state
        self.post = post.map(Self.placeholderBelow)
        self.postID = postID ?? post?.id
    }

    /// The quote without the quoted post: its state and the quoted post's id.
    public var placeholder: Quote {
        var quote = self
        quote.post = nil
        return quote
    }

    /// `post` with its own quote reduced to a placeholder.
    private static func placeholderBelow(_ post: Post) -> Post {
        guard let inner = post.quote, inner.post != nil else { return post }
        var post = post
        post.quote = inner.placeholder
        return post
    }
}
