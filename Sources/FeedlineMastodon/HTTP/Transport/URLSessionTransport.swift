import Feedline
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over `URLSession`: the transport where Foundation's own is sound (Apple platforms).
/// On Linux use `CurlTransport` — there, an exchange awaiting its answer through `URLSession`
/// keeps a core busy (see its documentation).
///
/// One ephemeral session with a delegate that hands each task's response, body chunks and end
/// to that exchange's `receive`; redirects leave the request's origin never (the 3xx is then
/// the answer). See ``HTTPTransport`` for what every exchange guarantees.
package final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let exchanges: Exchanges

    package init() {
        let configuration = URLSessionConfiguration.ephemeral
        // Per request: URLRequest.timeoutInterval (the idle limit) and a timer for the total.
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        let exchanges = Exchanges()
        self.exchanges = exchanges
        let queue = OperationQueue()
        queue.name = "feedline.http"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    package func start(
        _ request: URLRequest, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
    ) -> HTTPTransfer {
        var request = request
        request.timeoutInterval = limits.idle.timeInterval
        let task = TaskBox(session.dataTask(with: request))
        exchanges.add(task, origin: request.url.flatMap(MastodonServer.origin(of:)), receive: receive)
        if let total = limits.total {
            let exchanges = exchanges
            DispatchQueue.global().asyncAfter(deadline: .now() + total.timeInterval) {
                if exchanges.markTimedOut(task) { task.task.cancel() }
            }
        }
        task.task.resume()
        // cancel() may run inside a Swift task's cancellation handler; URLSession's own cancel
        // can wait for the session's queue, so it is left to another thread.
        return HTTPTransfer { DispatchQueue.global().async { task.task.cancel() } }
    }

    // @unchecked: URLSessionTask is thread-safe (its state is behind the session's queue) but
    // not marked Sendable on Linux.
    fileprivate struct TaskBox: @unchecked Sendable {
        let task: URLSessionTask
        init(_ task: URLSessionTask) { self.task = task }
    }
}

/// The session's delegate: each task's exchange, by task identifier.
private final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange: Sendable {
        var origin: String?
        var receive: @Sendable (HTTPTransferEvent) -> Void
        var timedOut = false
    }

    private let byTask = Locked<[Int: Exchange]>([:])

    fileprivate func add(_ task: URLSessionTransport.TaskBox, origin: String?, receive: @escaping @Sendable (HTTPTransferEvent) -> Void) {
        byTask.withLock { $0[task.task.taskIdentifier] = Exchange(origin: origin, receive: receive) }
    }

    /// Marks the task's exchange as over its total time; `false` when it has ended already.
    fileprivate func markTimedOut(_ task: URLSessionTransport.TaskBox) -> Bool {
        byTask.withLock { byTask in
            guard byTask[task.task.taskIdentifier] != nil else { return false }
            byTask[task.task.taskIdentifier]?.timedOut = true
            return true
        }
    }

    private func receive(_ task: URLSessionTask) -> (@Sendable (HTTPTransferEvent) -> Void)? {
        byTask.withLock { $0[task.taskIdentifier]?.receive }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        var head = HTTPHead(status: http.statusCode)
        for (key, value) in http.allHeaderFields {
            guard let name = key as? String, let text = value as? String else { continue }
            head.add(name: name, value: text)
        }
        receive(dataTask)?(.response(head))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        receive(dataTask)?(.body(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = byTask.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let failure: URLError? = switch error {
        case nil: nil
        case let error as URLError where error.code == .cancelled && exchange.timedOut: URLError(.timedOut)
        case let error as URLError: error
        case let error?: URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: String(describing: error)])
        }
        exchange.receive(.finished(failure))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let origin = byTask.withLock { $0[task.taskIdentifier]?.origin }
        guard let url = request.url, let origin, MastodonServer.origin(of: url) == origin else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }
}
