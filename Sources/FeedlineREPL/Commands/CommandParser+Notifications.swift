@_spi(FeedService) import Feedline

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

/// `notifications policy [FIELD VALUE]`: your notification policy, or one field of it set.
extension CommandParser {
    /// The usage sentence of `notifications policy`.
    static let notificationPolicyUsage =
        "notifications policy shows your notification policy; notifications policy FIELD accept|filter|drop sets one, where FIELD is \(NotificationPolicy.Field.nameList) (for example: notifications policy not-following filter)."

    /// The words after `notifications policy`: none, or a field and a value (any case).
    static func parseNotificationPolicy(_ rest: Substring, isSeparator: (Character) -> Bool) -> Result<Command, ParseError> {
        // At most three words count: a field, a value, one too many.
        let words = rest.split(maxSplits: 3, omittingEmptySubsequences: true, whereSeparator: isSeparator).prefix(3).map {
            String($0.prefix { !isSeparator($0) })
        }
        guard let fieldWord = words.first else { return .success(.notificationPolicy(field: nil, value: nil)) }
        guard let field = NotificationPolicy.Field(name: fieldWord) else {
            return .failure(.notificationPolicy("\"\(ParseError.echo(fieldWord))\" is not a field of the policy; \(notificationPolicyUsage)"))
        }
        guard words.count > 1 else {
            return .failure(.notificationPolicy("notifications policy \(field.name) needs accept, filter or drop, for example: notifications policy \(field.name) filter."))
        }
        guard let value = NotificationPolicy.Handling(rawValue: words[1].lowercased()) else {
            return .failure(.notificationPolicy("\"\(ParseError.echo(words[1]))\" is not accept, filter or drop; \(notificationPolicyUsage)"))
        }
        if words.count > 2 { return .failure(.unexpectedArgument(.notifications, words[2])) }
        return .success(.notificationPolicy(field: field.name, value: value.rawValue))
    }
}
