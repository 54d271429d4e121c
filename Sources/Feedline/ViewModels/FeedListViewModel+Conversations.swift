extension FeedListViewModel {
    /// Opens the conversation row `id`: marks the conversation read (at once on every screen,
    /// see ``FeedSession/isConversationPending(_:)``) and returns the id of its last post, whose thread a front
    /// shows. `nil` (nothing happens) for a row that is no conversation or has no post.
    @discardableResult
    public func openConversation(row id: RowID) -> PostID? {
        guard let row = rows[id: id]?.conversation, let post = row.lastPost else { return nil }
        make.conversations?.markRead(row.id)
        return post.post.id
    }

    /// Removes the conversation the row `id` shows: off every conversations screen at once,
    /// back where it was (with the reason) if the server refuses. Returns `false` (and does
    /// nothing) for a row that is no conversation or is being removed.
    @discardableResult
    public func removeConversation(row id: RowID) -> Bool {
        guard let row = rows[id: id]?.conversation, let conversations = make.conversations else { return false }
        return conversations.remove(row.id)
    }
}
