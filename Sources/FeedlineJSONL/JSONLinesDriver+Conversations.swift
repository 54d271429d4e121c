@_spi(FeedService) import Feedline

/// Direct conversations: the commands act on the session's one conversation store, so every
/// conversations screen shows the change at once (its row updated in place, or removed, in a
/// `changes` message before the `ok`); a refusal later puts the row back (or shows it unread
/// again) with the reason in its `"failure"`.
extension JSONLinesDriver {
    /// Opens, marks read or removes the conversation `id`; the error's sentence when the
    /// session does not know it (no conversations screen showed it), or it has no post to open,
    /// or is read or being removed already.
    func conversation(_ action: JSONLCommand.ConversationAction, _ id: String) -> String? {
        let name = JSONLCommand.echo(id)
        guard let conversation = session.conversation(id) else {
            return "Unknown conversation \(name): no conversations screen has shown it (or it was removed)."
        }
        switch action {
        case .open:
            guard let post = conversation.lastPostID else { return "The conversation \(name) has no post to open." }
            session.markConversationRead(id)
            session.navigator.push(.list(.thread(post)))
        case .markRead:
            guard session.markConversationRead(id) else { return "The conversation \(name) is read already." }
        case .remove:
            guard session.removeConversation(id) else { return "The conversation \(name) is being removed already." }
        }
        return nil
    }
}
