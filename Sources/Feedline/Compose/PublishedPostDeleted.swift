import Foundation

/// The server's answer to a post sent again with an idempotency key whose post it made and
/// has deleted since (Mastodon remembers a key for an hour and answers such a resend 404
/// `Record not found`): the post was made, and the user (or a moderator) removed it, so it is
/// not made again. The submission comes back as a draft with this sentence; sending it again
/// is a new post.
@_spi(FeedService) public struct PublishedPostDeleted: FeedServiceError, Hashable {
    public init() {}

    /// Not worth trying again: the same key gets the same answer for the rest of its hour.
    public var isTransient: Bool { false }

    /// One sentence for the user.
    public var errorDescription: String? { Self.sentence }

    /// What the draft says once it is back.
    public static let sentence = "This post was made and then deleted, so it was not posted again. Send it again to post it anew."
}
