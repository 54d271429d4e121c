/// Your requests of filtered notifications (Mastodon 4.3+): the notifications your policy kept
/// aside, one request per account, accepted or dismissed on every screen at once.
extension FeedSession {
    /// The unanswered requests as every screen shows them now, newest first: an answered one
    /// is gone at once (see ``ListSource/notificationRequests``). Filled by that screen's loads.
    @_spi(FeedService) public var notificationRequestList: [NotificationRequest] { notificationRequests.rows.map(\.request) }

    /// The request `id` with whether its answer waits for the server and its last refusal, or
    /// `nil` (unknown, or answered).
    @_spi(FeedService) public func notificationRequest(_ id: String) -> (request: NotificationRequest, state: ToggleDisplay)? {
        notificationRequests.row(id).map { ($0.request, $0.state) }
    }

    /// Whether an answer to the request `id` waits for the server.
    @_spi(FeedService) public func isNotificationRequestPending(_ id: String) -> Bool {
        notificationRequests.isPending(id)
    }

    /// Accepts (`POST /api/v1/notifications/requests/:id/accept`) or dismisses (`…/dismiss`) the
    /// request `id`: it leaves every screen at once; a refusal brings it back with the server's
    /// sentence on its row; a lost connection sends it again later (``retry()`` at once). Once
    /// the server confirms an accept, every notifications screen loads its first page again,
    /// where the account's notifications now are. The outcome is
    /// ``Outcome/Subject/notificationRequest(_:accept:)``. Throws why (nothing happens) for a
    /// request no screen shows.
    @_spi(FeedService) public func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) throws(FeedFailure) {
        try notificationRequests.answer(id, answer)
    }

    /// Accepts or dismisses every request shown and not already being answered, as
    /// ``answerNotificationRequest(_:_:)`` does each: one request to the server per account, so
    /// that a refusal brings back that account's row alone, with the server's sentence (Mastodon's
    /// batch endpoints answer all or nothing, with no sentence per account). Returns the ids
    /// answered, newest first. Throws why nothing is sent: none shows (the screen's first page
    /// loads them), or every one shown is being answered already.
    @_spi(FeedService) public func answerAllNotificationRequests(_ answer: NotificationRequest.Answer) throws(FeedFailure) -> [String] {
        try notificationRequests.answerAll(answer)
    }
}
