@_spi(FeedService) import Feedline
import FeedlineTestSupport
import FlyingFox
import Foundation

/// The notification policy, as Mastodon 4.3 serves it (kept in the model's
/// ``ServerModel/notificationPolicy``):
///
/// - `GET /api/v2/notifications/policy` answers the v2 `NotificationPolicy`: `for_not_following`,
///   `for_not_followers`, `for_new_accounts`, `for_private_mentions`, `for_limited_accounts`
///   (each `accept`, `filter` or `drop`) and `summary` (`pending_requests_count`,
///   `pending_notifications_count`).
/// - `PATCH /api/v2/notifications/policy` (form or JSON, any of those fields) answers it after;
///   a value other than the three is 422 with Rails' sentence.
///
/// Both need a user (401). A server before 4.3 (``GroupedNotifications/missing``) has no route: 404.
extension FakeMastodon {
    /// The policy the server keeps now.
    var notificationPolicy: NotificationPolicy {
        get { state.withLock { $0.server.notificationPolicy } }
        set { state.withLock { $0.server.notificationPolicy = newValue } }
    }

    /// The policy as Mastodon's JSON has it.
    static func notificationPolicyJSON(_ policy: NotificationPolicy) -> [String: Any] {
        var json: [String: Any] = [
            "summary": ["pending_requests_count": policy.pendingRequests, "pending_notifications_count": policy.pendingNotifications]
        ]
        for field in NotificationPolicy.Field.allCases { json[field.rawValue] = policy[field].rawValue }
        return json
    }

    func notificationPolicyRoute(_ request: Recorded) -> HTTPResponse? {
        guard request.path == "/api/v2/notifications/policy" else { return nil }
        if state.withLock({ $0.groupedNotifications != .supported }) { return Self.error(404, "Not Found") }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch request.method {
        case "GET":
            return Self.object(Self.notificationPolicyJSON(notificationPolicy))
        case "PATCH":
            var changes: [(NotificationPolicy.Field, NotificationPolicy.Handling)] = []
            for field in NotificationPolicy.Field.allCases {
                guard let text = request.form[field.rawValue] ?? request.json[field.rawValue] as? String else { continue }
                guard let handling = NotificationPolicy.Handling(rawValue: text) else {
                    let name = field.rawValue.replacingOccurrences(of: "_", with: " ")
                    return Self.error(422, "Validation failed: \(name.prefix(1).uppercased() + name.dropFirst()) is not included in the list")
                }
                changes.append((field, handling))
            }
            return state.withLock { state in
                for (field, handling) in changes { state.server.notificationPolicy[field] = handling }
                return Self.object(Self.notificationPolicyJSON(state.server.notificationPolicy))
            }
        default:
            return nil
        }
    }
}
