import Feedline

/// Direct conversations: `remove N` (opening one is `open N`, see `runOnList`).
extension REPLDriver {
    /// `remove N`: takes conversation row N off every conversations screen at once; a refusal
    /// brings it back, its row saying why.
    func removeConversation(row number: Int) {
        guard case .row(let entry, let row, let number)? = target(number, name: .remove) else { return }
        guard let conversation = row.conversation else {
            refuse("Row \(number) is not a conversation; conversations lists them (delete N deletes a post of yours).")
            return
        }
        guard entry.list.removeConversation(row: row.id) else {
            refuse("The conversation with \(conversation.participantHandles) is being removed already.")
            return
        }
        let id = conversation.id
        conversationRemovalsAsked[id] = conversation.participantHandles
        progress("Removing the conversation with \(conversation.participantHandles)…") { [weak self] in
            self?.conversationRemovalsAsked[id] != nil
        }
    }

    /// Heard from the conversations: a removal the person asked for is reported once the server
    /// answered — done, or refused (the row says why where it is shown; elsewhere the report does).
    func conversationChanged(_ change: ConversationChange) {
        switch change {
        case .removed(let id):
            guard let handles = conversationRemovalsAsked.removeValue(forKey: id) else { return }
            reports.append("Done: removed the conversation with \(handles).")
        case .removalRefused(let id):
            guard conversationRemovalsAsked.removeValue(forKey: id) != nil else { return }
            if case .list(let entry)? = stack.last, entry.list.source == .conversations { break }
            if let failure = session.conversations.failure(id) { reports.append(failure + " It is back on the conversations screen.") }
        case .updated, .removing:
            return
        }
        flushIfFollowing()
    }
}
