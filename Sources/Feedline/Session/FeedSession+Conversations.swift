extension FeedSession {
    /// The conversation `id` as every conversations screen shows it now (unread as you last
    /// made it), or `nil` when no screen showed it or it is removed (or being removed). A front
    /// reads the conversation's row (``ConversationRow``) and acts by its id; the JSON-lines
    /// driver looks the id up here.
    package func conversation(_ id: String) -> Conversation? {
        conversations.conversation(id)
    }

    /// Whether a change of the conversation `id` (a read, a removal) waits for the server.
    public func isConversationPending(_ id: String) -> Bool {
        conversations.isPending(id)
    }

    /// The last refusal of a change of the conversation `id` ("Could not remove the conversation
    /// with @ana: …"), until the next change; its row shows it too (``ConversationRow/failure``).
    public func conversationFailure(_ id: String) -> String? {
        conversations.failure(id)
    }

    /// Opens the conversation row `id` of `list`: the conversation is marked read (at once on
    /// every screen; one request; unread again with the reason if the server refuses) and the
    /// thread of its last post is pushed. Returns `false` (nothing happens) for a row that is no
    /// conversation or has no post.
    @discardableResult
    public func openConversation(row id: RowID, in list: FeedListViewModel) -> Bool {
        guard let post = list.openConversation(row: id) else { return false }
        navigator.push(.list(.thread(post)))
        return true
    }

    /// Removes the conversation `id` (Mastodon's `DELETE /api/v1/conversations/:id`; its posts
    /// stay): off every conversations screen at once, back where it was, with the reason, if
    /// the server refuses. Returns `false` (nothing happens) when no screen showed it or its
    /// removal is under way.
    @discardableResult
    public func removeConversation(_ id: String) -> Bool {
        conversations.remove(id)
    }

    /// Marks the conversation `id` read without opening it. Returns `false` when it is unknown,
    /// read already, or being marked read.
    @discardableResult
    public func markConversationRead(_ id: String) -> Bool {
        conversations.markRead(id)
    }
}

extension FeedSession {
    /// Loads every conversations list on the stack again (a `direct` stream that reconnected:
    /// what changed while there was none). Lists elsewhere load fresh when opened.
    public func reloadConversations() {
        for case .list(let list) in navigator.screens where list.source == .conversations { list.refresh() }
    }
}
