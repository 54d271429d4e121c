import Feedline

/// `notifications KIND[,KIND…]`: the notifications screen filtered by kind; `notifications
/// clear [--yes]`: dismiss every notification.
extension CommandParser {
    /// `notifications clear`, then maybe `--yes` (anything else is one word too many).
    static func parseClearNotifications(_ option: String?) -> Result<Command, ParseError> {
        guard let option else { return .success(.clearNotifications(confirmed: false)) }
        guard option.lowercased() == "--yes" else { return .failure(.unexpectedArgument(.notifications, option)) }
        return .success(.clearNotifications(confirmed: true))
    }

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
