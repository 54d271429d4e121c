import Feedline

extension JSONLMessage {
    /// A conversation row's fields: `"conversation"` (the server's id), `"participants"` (authors,
    /// you left out), `"unread"`, `"lastPost"` (the last post's fields as a post row has them, with
    /// its shared state; `null` when it has none) and `"failure"` (the last refusal to mark it
    /// read or remove it, or `null`).
    static func conversationFields(_ row: ConversationRow, clock: WallClock) -> [(String, JSONLValue)] {
        [
            ("conversation", .string(row.id)), ("participants", .array(row.participants.map(author))), ("unread", .bool(row.unread)),
            ("lastPost", row.lastPost.map { .object(postFields($0, clock: clock)) } ?? .null), ("failure", .optional(row.failure)),
        ]
    }
}
