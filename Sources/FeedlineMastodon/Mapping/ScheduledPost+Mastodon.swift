@_spi(FeedService) import Feedline
import Foundation

extension ScheduledPost {
    /// What Feedline shows of a server's scheduled post.
    public init(_ scheduled: Mastodon.ScheduledStatus) {
        let params = scheduled.params
        self.init(
            id: scheduled.id, scheduledAt: scheduled.scheduledAt, text: params.text,
            contentWarning: params.spoilerText.flatMap { $0.isEmpty ? nil : $0 },
            visibility: params.visibility.map(PostVisibility.init(serverName:)) ?? .public, inReplyTo: params.inReplyToID.map { PostID($0) },
            mediaCount: scheduled.mediaAttachments.count, pollOptions: params.pollOptions
        )
    }
}
