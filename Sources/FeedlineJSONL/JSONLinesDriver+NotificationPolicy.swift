@_spi(FeedService) import Feedline

/// `notificationPolicy` and `setNotificationPolicy`: your notification policy through the
/// session's one policy store.
extension JSONLinesDriver {
    /// Reads the policy and replies with it (no field), or sets `field` to `value` — reading the
    /// policy first when it was never read. Returns why nothing was done, or `nil`.
    func notificationPolicy(field name: String?, value: String?, id: JSONLValue?) async -> String? {
        guard let name, let field = NotificationPolicy.Field(name: name), let value, let handling = NotificationPolicy.Handling(rawValue: value) else {
            if let failure = await session.loadNotificationPolicy() { return "Could not read your notification policy: \(failure.message)" }
            if let policy = session.notificationPolicy { emit(JSONLMessage.notificationPolicy(policy, session: session, id: id)) }
            return nil
        }
        if session.notificationPolicy == nil, let failure = await session.loadNotificationPolicy() {
            return "Could not read your notification policy: \(failure.message)"
        }
        do {
            try session.setNotificationPolicy(field, to: handling)
        } catch {
            return error.message
        }
        return nil
    }
}

extension JSONLMessage {
    /// The reply to `notificationPolicy`: each field as shown (a change shows at once) with
    /// whether it waits for the server and its last refusal, and what waits as requests:
    /// `{"type":"notificationPolicy","id":1,"fields":[{"field":"not-following","value":"accept","pending":false,"failure":null},…],"pendingRequests":2,"pendingNotifications":5}`.
    @MainActor
    static func notificationPolicy(_ policy: NotificationPolicy, session: FeedSession, id: JSONLValue?) -> JSONLValue {
        let fields: [JSONLValue] = NotificationPolicy.Field.allCases.map { field in
            .object([
                ("field", .string(field.name)), ("value", .string(policy[field].rawValue)), ("pending", .bool(session.isNotificationPolicyPending(field))),
                ("failure", .optional(session.notificationPolicyFailure(field))),
            ])
        }
        return .object(
            [("type", "notificationPolicy")] + (id.map { [("id", $0)] } ?? []) + [
                ("fields", .array(fields)), ("pendingRequests", .number(Double(policy.pendingRequests))),
                ("pendingNotifications", .number(Double(policy.pendingNotifications))),
            ])
    }
}
