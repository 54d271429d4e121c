import Feedline

/// Notifications you control: the commands act on the session's one store of dismissals, so
/// every notifications screen loses the rows at once (a `changes` message before the `ok`); a
/// refusal later puts them back, and the `outcome` message carries the server's sentence.
extension JSONLinesDriver {
    /// Dismisses the group `key`, or every notification; the error's sentence when it is
    /// dismissed (or being cleared) already.
    func notifications(_ action: JSONLCommand.NotificationAction) -> String? {
        switch action {
        case .dismiss(let key):
            guard session.dismissNotification(key) else { return "The notification \(JSONLCommand.echo(key)) is dismissed already." }
        case .clear:
            guard session.clearNotifications() else { return "Your notifications are being cleared already." }
        }
        return nil
    }
}
