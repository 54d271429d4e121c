@_spi(FeedService) import Feedline

extension Conversation {
    /// The conversation for a Mastodon one: its id, its accounts as participants, `unread`, and
    /// its last status as a post.
    public init(_ conversation: Mastodon.Conversation) {
        self.init(
            id: conversation.id, participants: conversation.accounts.map(Author.init), unread: conversation.unread,
            lastPost: conversation.lastStatus.map(Post.init)
        )
    }
}
