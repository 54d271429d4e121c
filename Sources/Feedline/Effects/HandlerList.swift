/// Main-actor handlers registered with a token, notified in registration order.
/// The list itself is thread-safe, so tokens may be released on any thread.
final class HandlerList<Value: Sendable>: Sendable {
    private let handlers = Locked<(next: UInt64, entries: [(id: UInt64, handler: @MainActor @Sendable (Value) -> Void)])>((0, []))

    /// Registers `handler` until the returned token is cancelled or released.
    func add(_ handler: @escaping @MainActor @Sendable (Value) -> Void) -> Subscription {
        let id = handlers.withLock { state in
            state.next += 1
            state.entries.append((state.next, handler))
            return state.next
        }
        return Subscription { [self] in
            handlers.withLock { state in state.entries.removeAll { $0.id == id } }
        }
    }

    /// Calls every handler registered now, outside the lock, in registration order.
    @MainActor
    func notify(_ value: Value) {
        let current = handlers.withLock { $0.entries }
        for entry in current {
            entry.handler(value)
        }
    }

    var isEmpty: Bool { handlers.withLock { $0.entries.isEmpty } }
}
