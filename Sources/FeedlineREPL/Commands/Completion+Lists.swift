extension Completion {
    /// After `lists`: the actions; after an action that names a list, your lists' names (in
    /// quotes when they hold a space, as the parser takes them); after `lists add NAME` and
    /// `lists remove NAME`, the handles seen, with `@`.
    static func listsMatches(before: [String], word: String, context: CompletionContext) -> [String] {
        let lowered = word.lowercased()
        guard let action = before.first?.lowercased() else {
            return ListsCommand.actions.filter { $0.hasPrefix(lowered) }
        }
        let namesList = ["rename", "delete", "add", "remove", "accounts", "open"].contains(action)
        if before.count == 1, namesList {
            let stem = word.hasPrefix("\"") ? String(lowered.dropFirst()) : lowered
            return context.lists.filter { $0.lowercased().hasPrefix(stem) }.map { ListReference.name($0).text }
        }
        if before.count >= 2, action == "add" || action == "remove" {
            let stem = word.hasPrefix("@") ? String(lowered.dropFirst()) : lowered
            return context.handles.filter { $0.lowercased().hasPrefix(stem) }.map { "@" + $0 }
        }
        return []
    }
}
