/// The post a row or detail quotes, as the session's post store shows it everywhere: its latest copy
/// and its shared interaction state (a favourite made inside a quote is the quoted post's own).
/// What a ``QuoteDisplay`` is made from; a front reads the display.
package struct QuotedPost: Hashable, Sendable {
    /// The latest copy of the quoted post (its own quote, if any, a placeholder).
    package var post: Post
    /// Its shared interaction state.
    package var interaction: PostInteraction

    /// The quoted post `post` with `interaction` (by default, as its server copy says).
    package init(post: Post, interaction: PostInteraction? = nil) {
        self.post = post
        self.interaction = interaction ?? PostInteraction(serverCopy: post)
    }
}

/// What a quoting row or detail shows where the quoted post goes. The quoted post comes as the
/// session's post store shows it everywhere: its latest copy and its shared interaction state (a
/// favourite made inside a quote is the quoted post's own).
public enum QuoteDisplay: Hashable, Sendable {
    /// The quoted post (its own quote, if any, a placeholder) and its interaction state, shown.
    case shown(Post, PostInteraction)
    /// The quoted post and its interaction state behind the warning of `filter` (the quoting
    /// row's filter context) until it is revealed.
    case warned(Post, PostInteraction, filter: PostFilter)
    /// The quoted post is kept out by a `hide` filter of the quoting row's filter context.
    case filtered(PostFilter)
    /// The quoted post is not shown, for the quote's state (pending, revoked, deleted…).
    case unavailable(QuoteState)
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
                self = .warned(quoted.post, quoted.interaction, filter: filter)
                return
            case .warn, .blur:
                break
            }
        }
        self = .shown(quoted.post, quoted.interaction)
    }

    /// The quoted post, when it is shown or warned.
    public var post: Post? { quoted?.post }

    /// The quoted post's interaction state, when it is shown or warned.
    public var interaction: PostInteraction? { quoted?.interaction }

    /// The quoted post with its interaction state, when it is shown or warned.
    package var quoted: QuotedPost? {
        switch self {
        case .shown(let post, let interaction), .warned(let post, let interaction, _): QuotedPost(post: post, interaction: interaction)
        case .filtered, .unavailable, .loading: nil
        }
    }
}
