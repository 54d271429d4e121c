@_spi(FeedService) import Feedline

/// The notification policy (Mastodon 4.3+):
///
/// - `GET /api/v2/notifications/policy` answers the v2 `NotificationPolicy` (each field
///   `accept`, `filter` or `drop`, and `summary`).
/// - `PATCH /api/v2/notifications/policy` with one form field (`for_not_following=filter`)
///   changes it and answers the policy after.
///
/// A server older than 4.3 answers 404: said as a server without the policy.
extension MastodonHTTPService {
    /// The path of the notification-policy endpoint.
    static let notificationPolicyPath = "/api/v2/notifications/policy"

    /// `GET /api/v2/notifications/policy`.
    @_spi(FeedService) public func notificationPolicy() async throws -> NotificationPolicy {
        let request = APIRequest(method: "GET", url: server.url(path: Self.notificationPolicyPath), what: "your notification policy")
        do {
            let response = try await send(request)
            return NotificationPolicy(try decode(Mastodon.NotificationPolicy.self, from: response, what: request.what))
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: Self.noNotificationPolicy)
        }
    }

    /// `PATCH /api/v2/notifications/policy` with `field` set to `handling`: the policy after.
    @_spi(FeedService) public func setNotificationPolicy(
        _ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling
    ) async throws -> NotificationPolicy {
        let request = APIRequest(
            method: "PATCH", url: server.url(path: Self.notificationPolicyPath), what: "the change of your notification policy",
            form: FormBody.encode([(field.rawValue, handling.rawValue)])
        )
        do {
            let response = try await writing { try await send(request) }
            return NotificationPolicy(try decode(Mastodon.NotificationPolicy.self, from: response, what: request.what))
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: Self.noNotificationPolicy)
        }
    }

    /// What a server without the policy (older than Mastodon 4.3) is said as.
    static let noNotificationPolicy = "Your server has no notification policy (it came with Mastodon 4.3)"
}
