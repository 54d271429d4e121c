@_spi(FeedService) import Feedline

/// Your notification policy: `notificationPolicy` (reply with it) and `setNotificationPolicy`
/// (`"field"`, `"value"`).
extension JSONLCommand {
    /// The policy command `name`: `notificationPolicy` takes nothing; `setNotificationPolicy`
    /// takes `"field"` (`not-following`, `not-followers`, `new-accounts`, `private-mentions`,
    /// `limited-accounts`, or the API's `for_not_following`…) and `"value"` (`accept`, `filter`,
    /// `drop`).
    static func notificationPolicy(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        guard name == "setNotificationPolicy" else { return .success(.notificationPolicy(field: nil, value: nil)) }
        let usage =
            "setNotificationPolicy needs \"field\" (\(NotificationPolicy.Field.nameList)) and \"value\" (accept, filter or drop), such as {\"cmd\":\"setNotificationPolicy\",\"field\":\"not-following\",\"value\":\"filter\"}."
        guard let fieldText = value["field"]?.string, let valueText = value["value"]?.string else { return .failure(FieldProblem(message: usage)) }
        guard let field = NotificationPolicy.Field(name: fieldText) else {
            return .failure(FieldProblem(message: "setNotificationPolicy: \(echo(fieldText)) is not a field of the policy; \(usage)"))
        }
        guard let handling = NotificationPolicy.Handling(rawValue: valueText.lowercased()) else {
            return .failure(FieldProblem(message: "setNotificationPolicy: \(echo(valueText)) is not accept, filter or drop; \(usage)"))
        }
        return .success(.notificationPolicy(field: field.name, value: handling.rawValue))
    }
}
