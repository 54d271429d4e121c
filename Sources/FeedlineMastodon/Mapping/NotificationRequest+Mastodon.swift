@_spi(FeedService) import Feedline

extension NotificationRequest {
    /// What Feedline shows of a server's request of filtered notifications.
    public init(_ request: Mastodon.NotificationRequest) {
        self.init(
            id: request.id, account: Author(request.account), notificationsCount: max(0, request.notificationsCount),
            lastPost: request.lastStatus.map { Post($0) }, createdAt: request.createdAt, updatedAt: request.updatedAt
        )
    }
}
