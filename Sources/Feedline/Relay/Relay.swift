import Synchronization

/// A thread-safe holder of a current value that notifies its subscribers of every change —
/// a `BehaviorRelay` / `CurrentValueSubject` without completion or errors.
///
/// Guarantees:
/// - **Replay.** ``subscribe(_:)`` delivers the current value first, then every later one.
/// - **Order.** Every subscriber sees the values in the order the sets happened, each exactly
///   once, never two at a time: deliveries are serialised per relay.
/// - **Outside the lock.** Handlers run without any lock held, so a handler may read or set this
///   relay, subscribe, or cancel any subscription (its own included). A set from inside a
///   handler is delivered after the current value has reached every subscriber.
/// - **Where.** Deliveries run on the thread that set the value, unless another thread is already
///   delivering for this relay; then that thread delivers it, in order, and `set` returns at once.
/// - **Ownership.** A subscription lasts as long as its ``Subscription`` token.
///
/// - Complexity: `set` is O(s) for s subscribers plus the handlers' own cost; subscribing is
///   O(1) amortised, cancelling O(s).
@usableFromInline
package final class Relay<Value: Sendable>: ReadableRelay, Sendable {
    @usableFromInline let state: Locked<State>
    /// Who delivers: ``Delivery/idle`` (no one), ``Delivery/delivering`` (one thread, nothing
    /// waits) or ``Delivery/queued`` (one thread, and `state.queue` holds what waits for it).
    /// Every change is made under the lock but one: the delivering thread's `delivering → idle`
    /// when it is done. So a set that finds nothing queued costs one lock round trip and one
    /// compare-and-swap, not two lock round trips.
    @usableFromInline let delivery = Atomic<UInt8>(0)

    /// Creates a relay holding `value`.
    @inlinable
    package init(_ value: Value) {
        state = Locked(State(value: value))
    }

    /// The current value.
    @inlinable
    package var value: Value {
        get { state.withLock { $0.value } }
    }

    /// Replaces the value and notifies every subscriber (see the type's guarantees).
    @inlinable
    package func set(_ newValue: Value) {
        let snapshot: ContiguousArray<Subscriber>? = state.withLock { state in
            state.value = newValue
            return claim(&state) { .value(newValue) }
        }
        guard let snapshot else { return }
        Self.deliver(newValue, to: snapshot)
        finishDelivering()
    }

    /// Mutates the value in place under the lock — an atomic read-modify-write, so concurrent
    /// updates are never lost — then notifies like ``set(_:)``. `body` must not use this relay.
    @inlinable
    @discardableResult
    package func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let (result, newValue, snapshot): (Result, Value, ContiguousArray<Subscriber>?) = try state.withLock { state in
            let result = try body(&state.value)
            let newValue = state.value
            return (result, newValue, claim(&state) { .value(newValue) })
        }
        if let snapshot {
            Self.deliver(newValue, to: snapshot)
            finishDelivering()
        }
        return result
    }

    /// Mutates the value in place under the lock without notifying anyone; ``publish()`` delivers
    /// it later. For owners that must do bookkeeping between a change and its delivery. `body`
    /// must not use this relay.
    @inlinable
    package func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try state.withLock { state in try body(&state.value) }
    }

    /// Notifies every subscriber of the current value, as ``set(_:)`` would.
    @inlinable
    package func publish() {
        let (value, snapshot): (Value, ContiguousArray<Subscriber>?) = state.withLock { state in
            let value = state.value
            return (value, claim(&state) { .value(value) })
        }
        guard let snapshot else { return }
        Self.deliver(value, to: snapshot)
        finishDelivering()
    }

    /// Subscribes `handler`, which receives the current value at once, then every change.
    /// Keep the returned token as long as the updates are wanted.
    @inlinable
    package func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
        let subscriber = Subscriber(handler)
        let replay: Value? = state.withLock { state in
            guard becomeDeliverer() else {
                state.queue.append(.subscribe(subscriber, state.value))
                return nil
            }
            state.subscribers.append(subscriber)
            return state.value
        }
        if let replay {
            if subscriber.isActive { subscriber.handler(replay) }
            finishDelivering()
        }
        return Subscription { [self] in self.remove(subscriber) }
    }

    /// How many subscriptions are live. For tests and diagnostics.
    package var subscriberCount: Int {
        state.withLock { state in
            state.subscribers.count + state.queue.count { item in
                if case .subscribe(let subscriber, _) = item { return subscriber.isActive }
                return false
            }
        }
    }

    // MARK: - Delivery

    /// Under the lock, for a new value: the subscribers to deliver it to now, or `nil` when
    /// there are none, or when another thread is delivering (then `item` waits in the queue).
    @inlinable
    func claim(_ state: inout State, _ item: () -> Pending) -> ContiguousArray<Subscriber>? {
        if state.subscribers.isEmpty && delivery.load(ordering: .acquiring) == Delivery.idle { return nil }
        guard becomeDeliverer() else {
            state.queue.append(item())
            return nil
        }
        return state.subscribers
    }

    /// Under the lock: makes this thread the delivering one and returns `true`, or returns
    /// `false` when another thread is delivering — the caller then queues what it has, and
    /// ``delivery`` says that something is queued.
    @inlinable
    func becomeDeliverer() -> Bool {
        switch delivery.load(ordering: .acquiring) {
        case Delivery.queued:
            return false
        case Delivery.delivering:
            // The delivering thread may finish meanwhile (its one change made without the lock).
            let (queued, _) = delivery.compareExchange(
                expected: Delivery.delivering, desired: Delivery.queued, ordering: .acquiringAndReleasing)
            if queued { return false }
        default:
            break
        }
        delivery.store(Delivery.delivering, ordering: .relaxed)
        return true
    }

    /// Ends this thread's delivery: at once when nothing was queued meanwhile, else after
    /// delivering what was (``drain()``).
    @inlinable
    func finishDelivering() {
        let (done, _) = delivery.compareExchange(expected: Delivery.delivering, desired: Delivery.idle, ordering: .releasing)
        if !done { drain() }
    }

    @inlinable
    static func deliver(_ value: Value, to subscribers: ContiguousArray<Subscriber>) {
        for subscriber in subscribers where subscriber.isActive {
            subscriber.handler(value)
        }
    }

    /// Delivers what was queued while this thread was delivering, one item at a time (each to
    /// the subscribers of its moment), until nothing more is queued.
    @inlinable
    func drain() {
        repeat {
            let (item, subscribers): (Pending, ContiguousArray<Subscriber>) = state.withLock { state in
                // `queued`: the queue holds something, and only this thread takes from it.
                let item = state.queue.removeFirst()
                if state.queue.isEmpty { delivery.store(Delivery.delivering, ordering: .relaxed) }
                if case .subscribe(let subscriber, _) = item, subscriber.isActive {
                    state.subscribers.append(subscriber)
                }
                return (item, state.subscribers)
            }
            switch item {
            case .value(let value):
                Self.deliver(value, to: subscribers)
            case .subscribe(let subscriber, let replay):
                if subscriber.isActive { subscriber.handler(replay) }
            }
        } while !delivery.compareExchange(expected: Delivery.delivering, desired: Delivery.idle, ordering: .releasing).exchanged
    }

    @inlinable
    func remove(_ subscriber: Subscriber) {
        subscriber.deactivate()
        state.withLock { state in
            if let index = state.subscribers.firstIndex(where: { $0 === subscriber }) {
                state.subscribers.remove(at: index)
            }
        }
    }

    // MARK: - Storage

    @usableFromInline
    struct State {
        @usableFromInline var value: Value
        @usableFromInline var subscribers: ContiguousArray<Subscriber> = []
        @usableFromInline var queue: [Pending] = []

        @inlinable init(value: Value) { self.value = value }
    }

    /// The values of ``delivery``.
    @usableFromInline
    enum Delivery {
        @inlinable static var idle: UInt8 { 0 }
        @inlinable static var delivering: UInt8 { 1 }
        @inlinable static var queued: UInt8 { 2 }
    }

    @usableFromInline
    enum Pending {
        case value(Value)
        case subscribe(Subscriber, Value)
    }

    @usableFromInline
    final class Subscriber: Sendable {
        @usableFromInline let handler: @Sendable (Value) -> Void
        @usableFromInline let active = Atomic<Bool>(true)

        @inlinable init(_ handler: @escaping @Sendable (Value) -> Void) {
            self.handler = handler
        }

        @inlinable var isActive: Bool { active.load(ordering: .acquiring) }
        @inlinable func deactivate() { active.store(false, ordering: .releasing) }
    }
}
