/// The post a row or detail quotes, as the ``PostStore`` shows it everywhere: its latest copy
/// and its shared interaction state (a favourite made inside a quote is the quoted post's own).
public struct QuotedPost: Hashable, Sendable {
    /// The latest copy of the quoted post (its own quote, if any, a placeholder).
    public var post: Post
    /// Its shared interaction state.
    public var interaction: PostInteraction

    /// The quoted post `post` with `interaction` (by default, as its server copy says).
    public init(post: Post, interaction: PostInteraction? = nil) {
        self.post = post
        self.interaction = interaction ?? PostInteraction(serverCopy: post)
    }
}

/// What a quoting row or detail shows where the quoted post goes.
public enum QuoteDisplay: Hashable, Sendable {
    /// The quoted post, shown.
    case shown(QuotedPost)
    /// The quoted post behind the warning of `filter` (the quoting row's filter context)
    /// until it is revealed.
    case warned(QuotedPost, filter: PostFilter)
    /// The quoted post is kept out by a `hide` filter of the quoting row's filter context.
    case filtered(PostFilter)
    /// The quoted post is not shown, for the quote's state (pending, revoked, deleted…).
    case unavailable(Quote.State)
    /// The quoted post is not known yet (an accepted quote the server sent without it).
    case loading(PostID)

    /// What a quote of `quote` shows with the store's `current` copy of the quoted post, where
    /// `context` filters (the quoting row's context).
    package init(quote: Quote, current: QuotedPost?, context: FilterContext?) {
        guard quote.state == .accepted else {
            self = .unavailable(quote.state)
            return
        }
        guard let quoted = current ?? quote.post.map({ QuotedPost(post: $0) }) else {
            self = quote.postID.map { .loading($0) } ?? .unavailable(.unauthorized)
            return
        }
        // Its author is muted or blocked (or their domain): not shown, as Mastodon hides it.
        if let hidden = quoted.interaction.authorHidden {
            self = .unavailable(hidden)
            return
        }
        if let filter = quoted.post.filter(in: context) {
            switch filter.action {
            case .hide:
                self = .filtered(filter)
                return
            case .warn where !quoted.interaction.revealed:
                self = .warned(quoted, filter: filter)
                return
            case .warn, .blur:
                break
            }
        }
        self = .shown(quoted)
    }

    /// The quoted post, when it is shown or warned.
    public var quoted: QuotedPost? {
        switch self {
        case .shown(let quoted), .warned(let quoted, _): quoted
        case .filtered, .unavailable, .loading: nil
        }
    }
}
