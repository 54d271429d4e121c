import Feedline

/// Direct conversations: `openConversation`, `markRead` and `removeConversation`, which name a
/// conversation by the server's id (`"conversation":"41"`) or by its row
/// (`"row":"conversation:41"`).
extension JSONLCommand {
    /// What a command does to a conversation.
    public enum ConversationAction: String, Sendable, Equatable {
        /// Push the thread of its last post and mark it read (`openConversation`).
        case open
        /// Mark it read without opening it (`markRead`).
        case markRead
        /// Take it off the user's conversations; its posts stay (`removeConversation`).
        case remove
    }

    /// The conversation `name` acts on, from `"conversation"` or `"row"` (not both).
    static func conversation(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        let usage = "\(name) needs \"conversation\": a conversation's id such as \"41\", or \"row\": a conversation row id such as \"conversation:41\"."
        let action: ConversationAction = name == "openConversation" ? .open : name == "markRead" ? .markRead : .remove
        let idField = value["conversation"], rowField = value["row"]
        if idField != nil, rowField != nil { return .failure(FieldProblem(message: "\(name) takes \"conversation\" or \"row\", not both.")) }
        if let idField {
            guard let id = idField.string, !id.isEmpty else { return .failure(FieldProblem(message: usage)) }
            return .success(.conversation(action, id))
        }
        guard let text = rowField?.string, !text.isEmpty, let row = RowID(text) else { return .failure(FieldProblem(message: usage)) }
        guard case .conversation(let id) = row else {
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is not a conversation row; a conversation row id is such as \"conversation:41\"."))
        }
        return .success(.conversation(action, id))
    }
}
