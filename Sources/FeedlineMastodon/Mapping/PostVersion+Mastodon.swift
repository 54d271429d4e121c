@_spi(FeedService) import Feedline
import Foundation

extension PostVersion {
    /// The version a Mastodon status edit records: its text and warning as plain text (a blank
    /// warning is `nil`), its date, its media, and its poll's options (an edit records no votes,
    /// so every count is `nil` and the total 0).
    public init(_ edit: Mastodon.StatusEdit) {
        let warning = HTMLText.plainText(from: edit.spoilerText)
        self.init(
            text: HTMLText.plainText(from: edit.content), contentWarning: warning.isEmpty ? nil : warning, createdAt: edit.createdAt,
            media: edit.mediaAttachments.map(Media.init),
            poll: edit.poll.map { Poll(options: $0.options.map { Poll.Option(title: $0.title, votes: nil) }, votesCount: 0, expired: false) }
        )
    }
}
