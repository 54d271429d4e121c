/// What can happen to one post's interaction state. Every event carries the store's epoch at
/// the moment it happened.
package enum InteractionEvent: Hashable, Sendable {
    /// The backoff of the deferred re-send with `token` is over.
    case backoffElapsed(InteractionKind, token: StoreEpoch, at: StoreEpoch)
    /// A copy of the post arrived from a fetch (page, refresh, detail) that started at `fetchedAt`.
    case copyReceived(Post, fetchedAt: StoreEpoch, at: StoreEpoch)
    /// The request with `token` failed.
    case requestFailed(InteractionKind, token: StoreEpoch, failure: FeedFailure, at: StoreEpoch)
    /// The request with `token` succeeded; `reply` is the server's copy (a reblog wrapper is fine).
    case requestSucceeded(InteractionKind, token: StoreEpoch, reply: Post, at: StoreEpoch)
    /// An outbox saved by an earlier run wants `kind` set to `value` (``OutboxEntry``).
    case restored(InteractionKind, value: Bool, at: StoreEpoch)
    /// The user asked to retry what failed: the last failed kind is wanted again, and every
    /// deferred kind is sent at once.
    case retryRequested(at: StoreEpoch)
    /// The user toggled `kind`.
    case toggled(InteractionKind, at: StoreEpoch)
}
