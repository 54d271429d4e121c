@_spi(FeedService) import Feedline

/// The signed-in user's direct conversations, as a Mastodon server keeps them: the
/// conversations slice of ``ServerModel``.
///
/// Its laws: a conversation marked read reads read from then on; a removed one is gone from
/// the next read (its posts stay); a new post brings a conversation (back) on top, unread; a
/// conversation the user does not have is refused, and
/// nothing changes.
package struct ServerConversations: Hashable, Sendable {
    /// The conversations, most recent first.
    package private(set) var conversations: [Conversation]

    package init(_ conversations: [Conversation] = []) {
        self.conversations = conversations
    }

    /// Marks the conversation `id` read and returns it.
    ///
    /// - Throws: ``ServerRefusal`` for a conversation the user does not have.
    package mutating func markRead(_ id: String) throws(ServerRefusal) -> Conversation {
        guard let index = conversations.firstIndex(where: { $0.id == id }) else { throw Self.none(id) }
        conversations[index].unread = false
        return conversations[index]
    }

    /// Removes the conversation `id`.
    ///
    /// - Throws: ``ServerRefusal`` for a conversation the user does not have.
    package mutating func remove(_ id: String) throws(ServerRefusal) {
        guard conversations.contains(where: { $0.id == id }) else { throw Self.none(id) }
        conversations.removeAll { $0.id == id }
    }

    /// A new post in the conversation `id`: it becomes its last post, unread, on top; a
    /// conversation the user did not have (or had removed) starts with `participant`. Returns
    /// the conversation as the server has it now.
    @discardableResult
    package mutating func receive(_ post: Post, in id: String, from participant: Author) -> Conversation {
        var conversation = conversations.first { $0.id == id } ?? Conversation(id: id, participants: [participant], unread: true, lastPost: nil)
        conversation.lastPost = post
        conversation.unread = true
        conversations.removeAll { $0.id == id }
        conversations.insert(conversation, at: 0)
        return conversation
    }

    private static func none(_ id: String) -> ServerRefusal {
        ServerRefusal("There is no conversation \(id): it may have been removed.")
    }
}
