@_spi(FeedService) import Feedline

/// The requests of filtered notifications (Mastodon 4.3+):
///
/// - `GET /api/v1/notifications/requests` lists them, newest first, paged by its `Link` header.
/// - `POST /api/v1/notifications/requests/:id/accept` accepts one (its notifications join yours),
///   `POST /api/v1/notifications/requests/:id/dismiss` dismisses it; both answer `{}`.
///
/// A server older than 4.3 answers 404: said as a server without filtered notifications.
extension MastodonHTTPService {
    /// The path of the notification-request endpoints.
    static let notificationRequestsPath = "/api/v1/notifications/requests"

    /// A page of the requests (``pageSize`` of them for a `nil` cursor, otherwise the page the
    /// cursor names); the next cursor is the answer's `rel="next"` link.
    @_spi(FeedService) public func notificationRequests(after cursor: PageCursor?) async throws -> Page<NotificationRequest> {
        do {
            return try await ownPage(
                Mastodon.NotificationRequest.self, path: Self.notificationRequestsPath, after: cursor, what: "your filtered notifications"
            ) { NotificationRequest($0) }
        } catch MastodonHTTPError.notFound {
            throw MastodonHTTPError.notFound(serverMessage: Self.noNotificationRequests)
        }
    }

    /// `POST /api/v1/notifications/requests/:id/accept` or `…/dismiss`.
    @_spi(FeedService) public func answerNotificationRequest(_ id: String, _ answer: NotificationRequest.Answer) async throws {
        let request = APIRequest(
            method: "POST", url: server.url(path: Self.notificationRequestsPath + "/" + URLPath.encode(id) + "/" + answer.rawValue),
            what: answer == .accept ? "the accept of the filtered notifications" : "the dismissal of the filtered notifications"
        )
        _ = try await writing { try await send(request) }
    }

    /// What a server without filtered notifications (older than Mastodon 4.3) is said as.
    static let noNotificationRequests = "Your server has no filtered notifications (they came with Mastodon 4.3)"
}
