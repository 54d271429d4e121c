/// Direct conversations on a server: reading them, marking one read, removing one. Part of
/// `FeedService`.
@_spi(FeedService) public protocol ConversationService: Sendable {
    /// A page of the signed-in user's direct conversations, most recently active first (`GET
    /// /api/v1/conversations`, paged by `Link`).
    func conversations(after cursor: PageCursor?) async throws -> Page<Conversation>

    /// Marks the conversation `id` read and returns it afterwards (`POST
    /// /api/v1/conversations/:id/read`).
    func markConversationRead(_ id: String) async throws -> Conversation

    /// Removes the conversation `id` from the user's conversations (`DELETE
    /// /api/v1/conversations/:id`; its posts stay).
    func removeConversation(_ id: String) async throws
}
