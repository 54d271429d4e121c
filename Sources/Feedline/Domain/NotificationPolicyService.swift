/// Your server's notification policy (Mastodon 4.3+): reading it and changing one field.
/// Part of `FeedService`.
@_spi(FeedService) public protocol NotificationPolicyService: Sendable {
    /// The policy and its summary (`GET /api/v2/notifications/policy`).
    func notificationPolicy() async throws -> NotificationPolicy

    /// Sets `field` to `handling` (`PATCH /api/v2/notifications/policy` with that one field)
    /// and returns the policy as the server has it after.
    func setNotificationPolicy(_ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling) async throws -> NotificationPolicy
}
