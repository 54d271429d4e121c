import Synchronization

/// Ownership of one subscription. Cancelling it — by calling ``cancel()`` or by releasing the
/// last reference — stops further deliveries to its handler.
///
/// Whoever holds the token owns the subscription: keep it as long as the updates are wanted.
/// Cancelling twice is harmless. A handler that is running while its subscription is cancelled
/// from *another* thread may finish that one delivery; a cancel from inside a handler (the same
/// thread) takes effect before the next handler call.
public final class Subscription: Sendable, Hashable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// A token that runs `onCancel` once, on the first ``cancel()`` or on deinit.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    /// A token with nothing to cancel.
    public static var empty: Subscription { Subscription {} }

    /// Stops deliveries. Idempotent and thread-safe.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

    /// Keeps this token alive as long as `set` holds it (RxSwift's `disposed(by:)`).
    public func store(in set: inout Set<Subscription>) {
        set.insert(self)
    }

    deinit { cancel() }

    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
