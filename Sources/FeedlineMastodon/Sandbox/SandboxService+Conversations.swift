@_spi(FeedService) import Feedline
import Foundation

/// Direct conversations on the sandbox, as Mastodon's `GET /api/v1/conversations`,
/// `POST /api/v1/conversations/:id/read` and `DELETE /api/v1/conversations/:id` answer them.
///
/// The conversations start as the scenario's `conversations` (their direct statuses are fixture
/// statuses, usually in an `elsewhere` file so the home timeline does not show them). They are
/// served most recent last status first, ``pageSize`` at a time (the cursor is the offset of the
/// next page, opaque to callers). A conversation's participants are the authors of its statuses
/// and the accounts they mention, the user left out. A direct reply the user posts to one of a
/// conversation's statuses becomes its last status and moves it to the top (`publish`). Each
/// call is a request of its own kind (``SandboxScenario/Request/conversations``,
/// ``SandboxScenario/Request/conversationRead``, ``SandboxScenario/Request/conversationRemove``)
/// with latency and faults like the others; a lost answer makes the change and then fails.
extension SandboxService {
    /// A page of the user's conversations, most recent last status first.
    ///
    /// - Throws: ``SandboxError/unknownCursor(_:)`` for a cursor it did not give, or a scheduled fault.
    @_spi(FeedService) public func conversations(after cursor: PageCursor?) async throws -> Page<Conversation> {
        let size = pageSize
        return try await performOnAccounts(.conversations) { state, _ throws(SandboxError) in
            let window = try OffsetWindow(after: cursor, size: size)
            return window.page(of: state.orderedConversations()) { state.conversation($0) }
        }
    }

    /// Marks the conversation `id` read and returns it afterwards.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` for a conversation the user does not have, or a scheduled fault.
    @_spi(FeedService) public func markConversationRead(_ id: String) async throws -> Conversation {
        try await performOnAccounts(.conversationRead) { state, _ throws(SandboxError) in
            guard state.conversations.markRead(id), let record = state.conversations.record(id) else { throw Self.noConversation(id) }
            return state.conversation(record)
        }
    }

    /// Removes the conversation `id` from the user's conversations; its statuses stay.
    ///
    /// - Throws: as ``markConversationRead(_:)``.
    public func removeConversation(_ id: String) async throws {
        try await performOnAccounts(.conversationRemove) { state, _ throws(SandboxError) in
            guard state.conversations.remove(id) else { throw Self.noConversation(id) }
        }
    }

    private static func noConversation(_ id: String) -> SandboxError {
        .refused("There is no conversation \(id): it may have been removed.")
    }
}

extension SandboxService.State {
    /// The conversations shown, most recent last status first (equal dates by id).
    func orderedConversations() -> [SandboxConversations.Record] {
        conversations.shown.sorted { lhs, rhs in
            let left = store.rendered(lhs.last), right = store.rendered(rhs.last)
            if let left, let right, left.createdAt != right.createdAt { return left.createdAt > right.createdAt }
            return lhs.last.count != rhs.last.count ? lhs.last.count > rhs.last.count : lhs.last > rhs.last
        }
    }

    /// A conversation as the service answers it.
    mutating func conversation(_ record: SandboxConversations.Record) -> Conversation {
        let me = scenario.account.id
        var participants: [Author] = []
        var seen: Set<String> = [me]
        let statuses = record.statuses.compactMap { store.rendered($0) }.sorted { $0.createdAt < $1.createdAt }
        for status in statuses {
            if seen.insert(status.account.id).inserted { participants.append(Author(status.account)) }
            for mention in status.mentions where seen.insert(mention.id).inserted {
                let known = store.account(named: mention.acct)
                participants.append(known.map(Author.init) ?? Author(id: mention.id, displayName: mention.username, handle: mention.acct))
            }
        }
        return Conversation(id: record.id, participants: participants, unread: record.unread, lastPost: store.post(record.last))
    }
}
