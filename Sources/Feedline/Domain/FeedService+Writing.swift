import Foundation

/// What a service that cannot write answers every write with: a refusal (repeating cannot help).
public struct WritingUnsupported: FeedServiceError, Hashable {
    public init() {}
    public var isTransient: Bool { false }
    public var errorDescription: String? { "This connection only reads: it cannot post, edit or delete." }
}

/// Defaults for a read-only service (an archive, a test double): every write is refused with
/// ``WritingUnsupported``.
extension FeedService {
    public func composeSettings() async throws -> ComposeSettings { throw WritingUnsupported() }
    public func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post { throw WritingUnsupported() }
    public func delete(_ id: PostID) async throws -> Post { throw WritingUnsupported() }
    public func source(of id: PostID) async throws -> PostSource { throw WritingUnsupported() }
    public func history(of id: PostID) async throws -> [PostVersion] { throw WritingUnsupported() }
    public func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll { throw WritingUnsupported() }
}

/// A post as its author typed it: what an edit starts from.
public struct PostSource: Hashable, Sendable, Codable {
    public var text: String
    /// The content warning; `nil` for none.
    public var contentWarning: String?

    public init(text: String, contentWarning: String? = nil) {
        self.text = text
        self.contentWarning = contentWarning?.isEmpty == true ? nil : contentWarning
    }
}

/// One version of an edited post, as its history lists it.
public struct PostVersion: Hashable, Sendable, Codable {
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
