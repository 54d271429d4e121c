/// The notifications your server filtered, one request per account (Mastodon 4.3+): listing
/// them, accepting or dismissing one. Part of `FeedService`.
@_spi(FeedService) public protocol NotificationRequestService: Sendable {
    /// One page of the requests, newest first, after `cursor` (`nil`: the first page)
    /// (`GET /api/v1/notifications/requests`, paged by its `Link` header).
    func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest>

    /// Accepts or dismisses the request `id` (`POST /api/v1/notifications/requests/:id/accept`
    /// or `…/dismiss`).
    func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws
}
