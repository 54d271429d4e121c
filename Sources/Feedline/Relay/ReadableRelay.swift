import Synchronization

/// Something with a current value and subscribers: a `Relay` or a derived ``ReadOnlyRelay``.
///
/// Every conforming type replays the current value on subscribe and delivers changes in order.
package protocol ReadableRelay<Value>: Sendable {
    associatedtype Value: Sendable

    /// The current value.
    var value: Value { get }

    /// Subscribes `handler`: the current value at once, then every change, in order.
    /// The subscription lasts as long as the returned token.
    func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription
}

extension ReadableRelay {
    /// A read-only view of this relay, for handing out without the ability to set it.
    package var readOnly: ReadOnlyRelay<Value> {
        ReadOnlyRelay(value: { self.value }, subscribe: { self.subscribe($0) })
    }

    /// See ``ReadOnlyRelay/map(_:)``.
    package func map<T: Sendable>(_ transform: @escaping @Sendable (Value) -> T) -> ReadOnlyRelay<T> { readOnly.map(transform) }

    /// See ``ReadOnlyRelay/observe(_:)``.
    @MainActor
    package func observe(_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> Subscription { readOnly.observe(handler) }

    /// See ``ReadOnlyRelay/values(bufferingPolicy:)``.
    package func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded) -> AsyncStream<Value> {
        readOnly.values(bufferingPolicy: bufferingPolicy)
    }

    /// See ``ReadOnlyRelay/values``.
    package var values: AsyncStream<Value> { readOnly.values }
}

extension ReadableRelay where Value: Equatable {
    /// See ``ReadOnlyRelay/removeDuplicates()``.
    package func removeDuplicates() -> ReadOnlyRelay<Value> { readOnly.removeDuplicates() }
}

/// A read-only relay: a source relay seen through an optional transformation. Holds no value
/// of its own; reading and subscribing go to the source.
public struct ReadOnlyRelay<Value: Sendable>: ReadableRelay {
    private let read: @Sendable () -> Value
    private let attach: @Sendable (@escaping @Sendable (Value) -> Void) -> Subscription

    /// Wraps a value getter and a subscribe function that follow `ReadableRelay`'s rules.
    public init(
        value: @escaping @Sendable () -> Value,
        subscribe: @escaping @Sendable (@escaping @Sendable (Value) -> Void) -> Subscription
    ) {
        self.read = value
        self.attach = subscribe
    }

    /// A relay that always holds `value` and never changes.
    public static func constant(_ value: Value) -> ReadOnlyRelay<Value> {
        ReadOnlyRelay(value: { value }, subscribe: { handler in handler(value); return .empty })
    }

    /// The current value.
    public var value: Value { read() }

    /// Subscribes `handler`: the current value at once, then every change, in order.
    /// The subscription lasts as long as the returned token.
    public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        attach(handler)
    }

    /// A derived relay whose value is `transform(value)`, computed on each read and delivery.
    /// It stores nothing: cheap to make, and subscribing subscribes to this relay.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) -> T) -> ReadOnlyRelay<T> {
        ReadOnlyRelay<T>(
            value: { transform(read()) },
            subscribe: { handler in attach { handler(transform($0)) } }
        )
    }

    /// Subscribes `handler` on the main actor, for relays that are set on the main actor — every
    /// view model's output is. The handler runs synchronously with each delivery: the current
    /// value at once, then every change, in order. Setting such a relay elsewhere is a
    /// programming error and traps. The subscription lasts as long as the returned token.
    @MainActor
    public func observe(_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> Subscription {
        attach { value in MainActor.assumeIsolated { handler(value) } }
    }

    /// The values as an `AsyncSequence`: the current one first, then every change, in order,
    /// buffered without limit unless `bufferingPolicy` says otherwise. The subscription ends when
    /// the iterating task is cancelled or the stream is dropped.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Value> {
        AsyncStream(Value.self, bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = attach { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    /// The values as an `AsyncSequence`, unbuffered policy aside (see ``values(bufferingPolicy:)``).
    public var values: AsyncStream<Value> { values() }
}

extension ReadOnlyRelay where Value: Equatable {
    /// A derived relay that delivers a value only when it differs from the last one this
    /// subscriber received. Each subscription keeps its own last value.
    public func removeDuplicates() -> ReadOnlyRelay<Value> {
        ReadOnlyRelay(
            value: { self.value },
            subscribe: { handler in
                let last = Locked<Value?>(nil)
                return self.subscribe { value in
                    let isNew = last.withLock { last in
                        if last == value { return false }
                        last = value
                        return true
                    }
                    if isNew { handler(value) }
                }
            }
        )
    }
}
