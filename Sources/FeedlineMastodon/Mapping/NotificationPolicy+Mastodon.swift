@_spi(FeedService) import Feedline

extension NotificationPolicy {
    /// What Feedline shows of a server's notification policy; a value it does not know
    /// (a newer server's) reads as `filter`, the cautious middle.
    public init(_ policy: Mastodon.NotificationPolicy) {
        func handling(_ value: String) -> Handling { Handling(rawValue: value) ?? .filter }
        self.init(
            [
                .notFollowing: handling(policy.forNotFollowing), .notFollowers: handling(policy.forNotFollowers),
                .newAccounts: handling(policy.forNewAccounts), .privateMentions: handling(policy.forPrivateMentions),
                .limitedAccounts: handling(policy.forLimitedAccounts),
            ],
            pendingRequests: policy.summary.pendingRequestsCount, pendingNotifications: policy.summary.pendingNotificationsCount
        )
    }
}
