import Feedline

/// Notifications you control: `dismissNotification`, which names a group by its key
/// (`"notification":"favourite-1"`) or by its row (`"row":"notification:favourite-1"`), and
/// `clearNotifications`.
extension JSONLCommand {
    /// What a command does to the notifications.
    public enum NotificationAction: Sendable, Equatable {
        /// Dismiss the group with this key (`dismissNotification`).
        case dismiss(String)
        /// Dismiss every notification (`clearNotifications`).
        case clear
    }

    /// The notifications command `name`: `clearNotifications` takes nothing; `dismissNotification`
    /// takes `"notification"` or `"row"` (not both).
    static func notifications(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        guard name == "dismissNotification" else { return .success(.notifications(.clear)) }
        let usage = "\(name) needs \"notification\": a notification group's key such as \"favourite-1\", or \"row\": a notification row id such as \"notification:favourite-1\"."
        let keyField = value["notification"], rowField = value["row"]
        if keyField != nil, rowField != nil { return .failure(FieldProblem(message: "\(name) takes \"notification\" or \"row\", not both.")) }
        if let keyField {
            guard let key = keyField.string, !key.isEmpty else { return .failure(FieldProblem(message: usage)) }
            return .success(.notifications(.dismiss(key)))
        }
        guard let text = rowField?.string, !text.isEmpty, let row = RowID(text) else { return .failure(FieldProblem(message: usage)) }
        guard case .notification(let key) = row else {
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is not a notification row; a notification row id is such as \"notification:favourite-1\"."))
        }
        return .success(.notifications(.dismiss(key)))
    }
}
