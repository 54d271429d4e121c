import Foundation

/// A post as its author typed it: what an edit starts from.
@_spi(FeedService) public struct PostSource: Hashable, Sendable, Codable {
    public var text: String
    /// The content warning; `nil` for none.
    public var contentWarning: String?

    public init(text: String, contentWarning: String? = nil) {
        self.text = text
        self.contentWarning = contentWarning?.isEmpty == true ? nil : contentWarning
    }
}

/// One version of an edited post, as a service answers its history (a front shows the
/// ``ListSource/history(_:)`` list, a post row per version).
@_spi(FeedService) public struct PostVersion: Hashable, Sendable, Codable {
    /// The text as plain text.
    public var text: String
    public var contentWarning: String?
    /// When this version was made (the first: when the post was).
    public var createdAt: Date
    public var media: [Media]
    public var poll: Poll?

    public init(text: String, contentWarning: String? = nil, createdAt: Date, media: [Media] = [], poll: Poll? = nil) {
        self.text = text
        self.contentWarning = contentWarning?.isEmpty == true ? nil : contentWarning
        self.createdAt = createdAt
        self.media = media
        self.poll = poll
    }
}
