import Synchronization

/// A value guarded by a lock, for state shared across threads.
///
/// It is `Synchronization.Mutex` plus one thing: on Linux, ThreadSanitizer cannot see the
/// futex inside `Mutex`, so every access under it looks like a race. `Locked` tells the
/// sanitizer about each acquire and release (see ``ThreadSanitizer``), at the cost of one load
/// and one predictable branch when the sanitizer is absent. Feedline uses it instead of `Mutex`
/// everywhere, so `swift test --sanitize=thread` reports real races only.
///
/// Like `Mutex`, it is non-copyable: keep it in a `let` of a class. `body` runs with the lock
/// held, must not re-enter the same lock, and should be short.
@usableFromInline
package struct Locked<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    // @unchecked: same contract as Mutex, which this wraps: the value is reached only under the lock.
    @usableFromInline let mutex: Mutex<Value>

    /// Creates a lock guarding `initialValue`.
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let hooks = ThreadSanitizer.active else { return try mutex.withLock(body) }
        // The storage address names this lock to the sanitizer; it is stable because a Locked
        // lives in a class's `let` and cannot be copied.
        let token = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(token)
            defer { hooks.release(token) }
            return try body(&value)
        }
    }
}
