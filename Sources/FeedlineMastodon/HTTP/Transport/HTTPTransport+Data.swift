import Feedline
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransport {
    /// The whole answer to `request`: its status and headers, and its body.
    ///
    /// Cancelling the calling task cancels the exchange at once, without waiting for the
    /// transport (``HTTPTransfer/cancel()``).
    ///
    /// - Throws: the `URLError` the exchange ended with; `URLError(.cancelled)` once cancelled.
    package func data(for request: URLRequest, limits: HTTPTransferLimits) async throws -> (HTTPHead, Data) {
        let collected = Locked(Collected())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(HTTPHead, Data), any Error>) in
                let transfer = start(request, limits: limits) { event in
                    switch event {
                    case .response(let head):
                        collected.withLock { $0.head = head }
                    case .body(let data):
                        collected.withLock { $0.body.append(data) }
                    case .finished(let error):
                        let (head, body) = collected.withLock { ($0.head, $0.body) }
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let head {
                            continuation.resume(returning: (head, body))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                }
                // Cancelled before the transfer existed: the handler could not cancel it.
                let cancelled = collected.withLock { state in
                    state.transfer = transfer
                    return state.cancelled
                }
                if cancelled { transfer.cancel() }
            }
        } onCancel: {
            let transfer = collected.withLock { state in
                state.cancelled = true
                return state.transfer
            }
            transfer?.cancel()
        }
    }
}

/// What ``HTTPTransport/data(for:limits:)`` has received so far, and its transfer.
private struct Collected: Sendable {
    var head: HTTPHead?
    var body = Data()
    var transfer: HTTPTransfer?
    var cancelled = false
}
