import Feedline
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// `data(for:)` whose cancellation never waits for the session.
    ///
    /// swift-corelibs-foundation's own `data(for:)` cancels its task from inside the Swift task's
    /// cancellation handler, with `DispatchQueue.sync` onto the session's queue — while the
    /// runtime holds the Swift task's status lock. When the session is, at that moment, on that
    /// queue resuming the same task (its answer just came), each waits for the other for good:
    /// the thread that cancelled (the main actor, when a view model is released) never returns.
    /// Here the handler only marks the request cancelled and hands `cancel()` to another queue.
    ///
    /// - Throws: the `URLError` of the transfer; `URLError(.cancelled)` once cancelled.
    package func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let handle = CancellableTransfer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                // Cancelled before it started: it never starts (its handler is called by cancel()).
                if handle.start(task) { task.resume() } else { task.cancel() }
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// The task of one transfer and whether it was cancelled, shared by the transfer and its
/// cancellation handler.
private final class CancellableTransfer: Sendable {
    // @unchecked: URLSessionTask is thread-safe (its state is behind the session's queue) but
    // not marked Sendable on Linux.
    private struct State: @unchecked Sendable {
        var task: URLSessionTask?
        var cancelled = false
    }

    private let state = Locked(State())

    /// Records `task`; `false` when the transfer was cancelled already (then it must not start).
    func start(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            state.task = task
            return !state.cancelled
        }
    }

    /// Marks the transfer cancelled and cancels its task on another queue, so that the caller
    /// (inside a Swift task's cancellation) never waits for the session.
    func cancel() {
        let task = state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }
        guard let task else { return }
        // @unchecked: see State.
        struct Handoff: @unchecked Sendable { let task: URLSessionTask }
        let handoff = Handoff(task: task)
        DispatchQueue.global().async { handoff.task.cancel() }
    }
}
