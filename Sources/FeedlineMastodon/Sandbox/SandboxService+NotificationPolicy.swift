@_spi(FeedService) import Feedline

/// The notification policy on the sandbox, as Mastodon 4.3's `GET` and
/// `PATCH /api/v2/notifications/policy` answer it; it starts as the scenario's
/// `notification_policy` (Mastodon's defaults when absent). Reading is
/// ``SandboxScenario/Request/notificationPolicy``, changing
/// ``SandboxScenario/Request/notificationPolicyChange`` (its faults apply).
extension SandboxService {
    /// The policy and its summary.
    @_spi(FeedService) public func notificationPolicy() async throws -> NotificationPolicy {
        try await performOnAccounts(.notificationPolicy) { state, _ throws(SandboxError) in state.notificationPolicy }
    }

    /// Sets `field` to `handling`; answers the policy after.
    @_spi(FeedService) public func setNotificationPolicy(
        _ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling
    ) async throws -> NotificationPolicy {
        try await performOnAccounts(.notificationPolicyChange) { state, _ throws(SandboxError) in
            state.notificationPolicy[field] = handling
            return state.notificationPolicy
        }
    }
}
