import Foundation

/// Mastodon's idempotency keys (`Idempotency-Key` on `POST /api/v1/statuses`), as every fake
/// server keeps them: a key is remembered for ``keyLifetime`` from its first use; within it, a
/// resend answers the key's post — or, once that post is deleted, "Record not found" (404)
/// rather than a new post; after it, the key makes a post again.
extension ServerWriting {
    /// How long a key is remembered (Mastodon: an hour).
    package static var keyLifetime: TimeInterval { 3_600 }

    /// What a key stands for now.
    package enum KeyAnswer: Hashable, Sendable {
        /// Not remembered (never used, or expired): the request makes a post.
        case new
        /// The post the key made, which the server still has.
        case made(ID)
        /// The key made a post that has been deleted since: Mastodon's 404.
        case deleted
    }

    /// What `key` stands for at `now`; `exists` says whether the server still has a post.
    package func answer(to key: String, at now: Date, exists: (ID) -> Bool) -> KeyAnswer {
        guard let id = published[key], publishedAt[key].map({ now.timeIntervalSince($0) < Self.keyLifetime }) ?? true else { return .new }
        return exists(id) ? .made(id) : .deleted
    }

    /// `key` made the post `id` at `now`.
    package mutating func remember(_ key: String, made id: ID, at now: Date) {
        published[key] = id
        publishedAt[key] = now
    }
}
