@_spi(FeedService) import Feedline

extension Announcement {
    /// An announcement as Feedline keeps it: its HTML made text as a post's content is
    /// (``HTMLText/plainText(from:hidingQuoteFallback:)``), an update at its publication `nil`.
    init(_ announcement: Mastodon.Announcement) {
        self.init(
            id: announcement.id, text: HTMLText.plainText(from: announcement.content), publishedAt: announcement.publishedAt,
            updatedAt: announcement.updatedAt.flatMap { $0 > announcement.publishedAt ? $0 : nil },
            startsAt: announcement.startsAt, endsAt: announcement.endsAt, allDay: announcement.allDay ?? false, read: announcement.read ?? false
        )
    }
}
