import Foundation

/// Runs blocking work (a semaphore wait, a pipe read to its end, `waitUntilExit`) on a thread of
/// its own and suspends the caller until it returns.
///
/// Swift Testing runs tests on the concurrency pool, which has one thread per core (two on CI).
/// A test that blocked a pool thread while waiting for a child process could starve the fake
/// HTTP server or another suite's tasks sharing that pool, which then hit their own deadlines:
/// a failure that depends on the machine's speed. Waiting here keeps the pool free.
public func offPool<T: Sendable>(_ name: String = "feedline-test.wait", _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.name = name
        thread.start()
    }
}

/// The throwing form of ``offPool(_:_:)``.
public func offPool<T: Sendable>(_ name: String = "feedline-test.wait", _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = name
        thread.start()
    }
}
