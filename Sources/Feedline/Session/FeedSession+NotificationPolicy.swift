/// Your notification policy (Mastodon 4.3+): whose notifications your server accepts, filters
/// into notification requests, or drops — read once, changed field by field on every screen at
/// once.
extension FeedSession {
    /// The policy as every screen shows it now (a change shows at once), or `nil` until
    /// ``loadNotificationPolicy()`` read it.
    @_spi(FeedService) public var notificationPolicy: NotificationPolicy? { notificationPolicies.policy }

    /// Whether a change of `field` of the policy waits for the server.
    @_spi(FeedService) public func isNotificationPolicyPending(_ field: NotificationPolicy.Field) -> Bool {
        notificationPolicies.isPending(field)
    }

    /// The server's last refusal of a change of `field`, as a sentence, or `nil`.
    @_spi(FeedService) public func notificationPolicyFailure(_ field: NotificationPolicy.Field) -> String? {
        notificationPolicies.failure(field)
    }

    /// Reads the policy (`GET /api/v2/notifications/policy`), counted in the session's activity;
    /// a field changed meanwhile keeps its change. Returns why it could not be read, or `nil`.
    @discardableResult
    public func loadNotificationPolicy() async -> FeedFailure? {
        await notificationPolicies.load()
    }

    /// Sets `field` of the policy to `handling` (`PATCH /api/v2/notifications/policy`): every
    /// screen shows it at once; a refusal brings the server's value back with its sentence
    /// (``notificationPolicyFailure(_:)``), a lost connection sends it again later (``retry()``
    /// at once). The outcome is ``Outcome/Subject/notificationPolicy(_:value:)``. Throws why
    /// (nothing happens) when the policy was not read yet.
    @_spi(FeedService) public func setNotificationPolicy(
        _ field: NotificationPolicy.Field, to handling: NotificationPolicy.Handling
    ) throws(FeedFailure) {
        try notificationPolicies.set(field, to: handling)
    }

    /// Calls `handler` with the policy as shown after every change of it. Lasts as long as the token.
    package func observeNotificationPolicy(_ handler: @escaping @MainActor @Sendable (NotificationPolicy?) -> Void) -> Subscription {
        notificationPolicies.observe(handler)
    }
}
