extension FeedListViewModel {
    /// The row of a conversation: as the session's conversations store shows it (unread, the
    /// last refusal), its last post as the post store shows it (latest copy, shared state).
    func conversationRow(_ conversation: Conversation) -> ConversationRow {
        // As every post row: the store's copies of the post and of the post it quotes.
        let lastPost = conversation.lastPost.map { store.row($0, thread: nil, filterContext: source.filterContext) }
        return ConversationRow(
            id: conversation.id, participants: conversation.participants, unread: conversation.unread, lastPost: lastPost,
            failure: conversations?.failure(conversation.id)
        )
    }

    /// Tells the conversations store that these conversations' last posts were deleted.
    func lastPostsDeleted(_ lastPosts: [(conversation: String, post: PostID)]) {
        for (conversation, post) in lastPosts { conversations?.lastPostDeleted(post, of: conversation) }
    }

    /// Opens the conversation row `id`: marks the conversation read (at once on every screen,
    /// see ``ConversationStore``) and returns the id of its last post, whose thread a front
    /// shows. `nil` (nothing happens) for a row that is no conversation or has no post.
    @discardableResult
    public func openConversation(row id: RowID) -> PostID? {
        guard let row = rows[id: id]?.conversation, let post = row.lastPost else { return nil }
        conversations?.markRead(row.id)
        return post.post.id
    }

    /// Removes the conversation the row `id` shows: off every conversations screen at once,
    /// back where it was (with the reason) if the server refuses. Returns `false` (and does
    /// nothing) for a row that is no conversation or is being removed.
    @discardableResult
    public func removeConversation(row id: RowID) -> Bool {
        guard let row = rows[id: id]?.conversation, let conversations else { return false }
        return conversations.remove(row.id)
    }
}
