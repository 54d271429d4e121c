import Feedline
import Foundation
import HTTPTypes

extension HTTPTransport {
    /// The whole answer to `request` with `body`: its status and header fields, and its body.
    ///
    /// Cancelling the calling task cancels the exchange at once, without waiting for the
    /// transport (``HTTPTransfer/cancel()``).
    ///
    /// - Throws: the ``HTTPTransportError`` the exchange ended with (``HTTPTransportError/Code/cancelled``
    ///   once cancelled).
    package func data(
        for request: HTTPRequest, body: Data? = nil, limits: HTTPTransferLimits
    ) async throws(HTTPTransportError) -> (HTTPResponse, Data) {
        let collected = Locked(Collected())
        let result: Result<(HTTPResponse, Data), HTTPTransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<(HTTPResponse, Data), HTTPTransportError>, Never>) in
                let transfer = start(request, body: body, limits: limits) { event in
                    switch event {
                    case .response(let head):
                        collected.withLock { $0.head = head }
                    case .body(let data):
                        collected.withLock { $0.body.append(data) }
                    case .finished(let error):
                        let (head, body) = collected.withLock { ($0.head, $0.body) }
                        if let error {
                            continuation.resume(returning: .failure(error))
                        } else if let head {
                            continuation.resume(returning: .success((head, body)))
                        } else {
                            continuation.resume(returning: .failure(HTTPTransportError(.badResponse, detail: "no answer")))
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
        return try result.get()
    }
}

/// What ``HTTPTransport/data(for:body:limits:)`` has received so far, and its transfer.
private struct Collected: Sendable {
    var head: HTTPResponse?
    var body = Data()
    var transfer: HTTPTransfer?
    var cancelled = false
}
