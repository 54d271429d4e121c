extension PostStore {
    /// A row of the entry `post` as the store shows it: the latest copy of its original and its
    /// shared state, and — when it quotes a post — the latest copy of that post and its state.
    /// A quoted post deleted since the entry was fetched shows as deleted. O(1).
    package func row(_ post: Post, thread: ThreadPlace?, filterContext: FilterContext?) -> PostRow {
        var entry = post
        var interaction: PostInteraction?
        if let current = current(post.originalID) {
            if entry.reblog != nil {
                entry.reblog = current.post
                entry.nameBooster(as: current.ownAuthor)
            } else {
                entry = current.post
            }
            interaction = current.interaction
        }
        return PostRow(
            post: quoteChecked(entry), interaction: interaction, thread: thread, filterContext: filterContext,
            quoted: quoted(by: entry)
        )
    }

    /// The store's copy of the post `post` quotes, with its shared state, when it has one.
    package func quoted(by post: Post) -> QuotedPost? {
        guard let quote = post.content.quote, quote.state == .accepted, let id = quote.postID, !isQuoteDeleted(id),
            let current = current(id)
        else { return nil }
        return QuotedPost(post: current.post, interaction: currentQuoted(id)?.interaction ?? current.interaction)
    }

    /// `post` with its quote marked deleted when the store knows the quoted post was.
    package func quoteChecked(_ post: Post) -> Post {
        guard let quote = post.content.quote, quote.state == .accepted, let id = quote.postID, isQuoteDeleted(id) else { return post }
        var post = post
        if post.reblog != nil { post.reblog?.quote?.state = .deleted } else { post.quote?.state = .deleted }
        return post
    }
}
