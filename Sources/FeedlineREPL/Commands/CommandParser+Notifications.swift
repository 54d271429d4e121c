import Feedline

/// `notifications KIND[,KIND…]`: the notifications screen filtered by kind.
extension CommandParser {
    /// The kinds `word` names, comma-separated (`mentions`, `favorites,boosts`); a word that names
    /// none is an error listing the valid ones.
    static func parseNotificationKinds(_ word: String) -> Result<Command, ParseError> {
        var kinds: Set<NotificationGroup.Kind> = []
        for name in word.split(separator: ",", omittingEmptySubsequences: true) {
            guard let kind = NotificationGroup.Kind(filterName: String(name)) else { return .failure(.notAKind(String(name))) }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return .failure(.notAKind(word)) }
        return .success(.notificationsOf(kinds))
    }
}
