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
        progress("Removing the conversation with \(conversation.participantHandles)…") { [weak self] in
            self?.session.isConversationPending(id) == true
        }
    }
}
