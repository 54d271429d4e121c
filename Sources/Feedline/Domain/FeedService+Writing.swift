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
}
