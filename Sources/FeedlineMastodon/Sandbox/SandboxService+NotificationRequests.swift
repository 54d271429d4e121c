@_spi(FeedService) import Feedline

/// The requests of filtered notifications on the sandbox, as Mastodon 4.3's
/// `GET /api/v1/notifications/requests` and `POST …/:id/accept|dismiss` answer them; they start
/// as the scenario's `notification_requests`. Reading is
/// ``SandboxScenario/Request/notificationRequests``, answering
/// ``SandboxScenario/Request/notificationRequestAnswer`` (its faults apply).
extension SandboxService {
    /// A page of the requests, newest first.
    @_spi(FeedService) public func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest> {
        let size = pageSize
        return try await performOnAccounts(.notificationRequests) { state, _ throws(SandboxError) in
            state.notificationRequests.page(after: cursor, size: size)
        }
    }

    /// Accepts or dismisses the request `id`: it is gone, and the policy's summary counts it no
    /// more. An accept lets its notifications in: the one the scenario knows, the mention of its
    /// last status, joins the notifications in its place by date (the request's last change).
    @_spi(FeedService) public func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws {
        try await performOnAccounts(.notificationRequestAnswer) { state, _ throws(SandboxError) in
            let given = state.notificationRequests.given(id)
            let request = try state.notificationRequests.answer(id)
            if answer == .accept, let given, let status = given.lastStatus {
                // A broken deferred file leaves the list empty: its notifications requests fail, saying why.
                try? state.loadNotifications()
                state.notifications.add(type: "mention", account: given.account, status: status, at: given.updatedAt, inOrder: true)
            }
            state.notificationPolicy.pendingRequests = max(0, state.notificationPolicy.pendingRequests - 1)
            state.notificationPolicy.pendingNotifications = max(0, state.notificationPolicy.pendingNotifications - request.notificationsCount)
        }
    }
}
