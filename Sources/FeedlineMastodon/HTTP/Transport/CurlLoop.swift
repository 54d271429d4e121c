#if canImport(CCurl)
import CCurl
import Feedline
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libcurl's multi interface run by one thread of its own: every exchange of a
/// ``CurlTransport`` goes through it, and its connections are kept for reuse.
///
/// The thread runs while there are exchanges (or requests to start) and sleeps in
/// `curl_multi_poll` until a socket is ready, libcurl has a timer due, an exchange's idle
/// deadline comes, or another thread hands it work (`curl_multi_wakeup`) — it never polls.
/// With nothing left it ends; the next exchange starts a new one.
///
/// Other threads only touch ``inbox``; libcurl's handles and the exchanges belong to the thread
/// that runs (only one runs at a time). Events of one exchange are reported from that thread,
/// in order, never two at once.
// @unchecked: `multi` and `exchanges` are used only by the running loop thread (one at a time,
// handed over under the inbox lock); all that other threads share is `inbox`, behind a lock.
final class CurlLoop: @unchecked Sendable {
    /// An exchange asked for and not begun yet.
    private struct Pending: Sendable {
        var id: Int
        var request: URLRequest
        var limits: HTTPTransferLimits
        var receive: @Sendable (HTTPTransferEvent) -> Void
    }

    /// What other threads hand the loop.
    private struct Inbox: Sendable {
        var nextID = 1
        var pending: [Pending] = []
        var cancelled: Set<Int> = []
        /// Whether a loop thread runs (it ends only when this is false under the lock).
        var running = false
    }

    /// libcurl's global set-up, once per process, before any handle is made.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    private var exchanges: [Int: CurlExchange] = [:]

    /// A loop with no thread yet; `nil` when libcurl cannot be set up.
    init?() {
        guard Self.initialized, let multi = curl_multi_init() else { return nil }
        self.multi = multi
    }

    deinit {
        // No thread runs: each holds the loop until it ends, and ends with no exchange left.
        curl_multi_cleanup(multi)
    }

    /// Starts `request`; returns the exchange's id (for ``cancel(_:)``).
    func start(_ request: URLRequest, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void) -> Int {
        let (id, launch) = inbox.withLock { inbox in
            let id = inbox.nextID
            inbox.nextID += 1
            inbox.pending.append(Pending(id: id, request: request, limits: limits, receive: receive))
            let launch = !inbox.running
            inbox.running = true
            if !launch { curl_multi_wakeup(multi) }
            return (id, launch)
        }
        if launch {
            let thread = Thread { self.run() }
            thread.name = "feedline.http"
            thread.start()
        }
        return id
    }

    /// Cancels exchange `id`, if it still runs; never waits for the loop.
    func cancel(_ id: Int) {
        inbox.withLock { inbox in
            inbox.cancelled.insert(id)
            // Woken under the lock: the loop cannot end (nor the handle go) in between.
            if inbox.running { curl_multi_wakeup(multi) }
        }
    }

    // MARK: - The thread

    private func run() {
        while let (pending, cancelled) = takeInbox() {
            for item in pending { begin(item) }
            for id in cancelled {
                if let exchange = exchanges[id] { end(exchange, URLError(.cancelled)) }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            readMessages()
            expireIdle()
            guard let wait = nextWait() else { continue }
            curl_multi_poll(multi, nil, 0, wait, nil)
        }
    }

    /// What other threads handed over; `nil` (and the loop marked not running) when there is
    /// nothing and no exchange left, so the thread ends.
    private func takeInbox() -> ([Pending], Set<Int>)? {
        inbox.withLock { inbox in
            if inbox.pending.isEmpty, exchanges.isEmpty {
                inbox.running = false
                inbox.cancelled.removeAll()
                return nil
            }
            defer {
                inbox.pending.removeAll()
                inbox.cancelled.removeAll()
            }
            return (inbox.pending, inbox.cancelled)
        }
    }

    private func begin(_ item: Pending) {
        guard let exchange = CurlExchange(id: item.id, request: item.request, limits: item.limits, receive: item.receive) else {
            item.receive(.finished(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not set the request up"])))
            return
        }
        guard curl_multi_add_handle(multi, exchange.easy) == CURLM_OK else {
            exchange.finish(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not start the request"]))
            return
        }
        exchanges[item.id] = exchange
    }

    /// Takes in what libcurl finished: follows a redirect within the origin, else reports the end.
    private func readMessages() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = feedline_curl_message_result(message)
            guard let exchange = exchanges[Int(bitPattern: feedline_curl_private(easy))] else { continue }
            if code == CURLE_OK, exchange.redirect != nil {
                follow(exchange)
            } else {
                end(exchange, code == CURLE_OK ? nil : exchange.error(for: code))
            }
        }
    }

    private func follow(_ exchange: CurlExchange) {
        curl_multi_remove_handle(multi, exchange.easy)
        guard exchange.redirects < CurlExchange.redirectLimit else {
            end(exchange, URLError(.httpTooManyRedirects))
            return
        }
        guard exchange.followRedirect(), curl_multi_add_handle(multi, exchange.easy) == CURLM_OK else {
            end(exchange, URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not follow the redirect"]))
            return
        }
    }

    /// Ends every exchange that went without a byte for its idle limit.
    private func expireIdle() {
        let now = ContinuousClock.now
        for exchange in exchanges.values where exchange.deadline <= now {
            end(exchange, URLError(.timedOut))
        }
    }

    /// Milliseconds until the nearest idle deadline (libcurl's own timers may wake it sooner);
    /// `nil` when no exchange runs.
    private func nextWait() -> Int32? {
        guard let deadline = exchanges.values.map(\.deadline).min() else { return nil }
        let wait = ContinuousClock.now.duration(to: deadline)
        let milliseconds = (wait.timeInterval * 1000).rounded(.up)
        return Int32(min(max(milliseconds, 0), 60_000))
    }

    /// Takes `exchange` out of the multi handle and reports how it ended.
    private func end(_ exchange: CurlExchange, _ error: URLError?) {
        curl_multi_remove_handle(multi, exchange.easy)
        exchanges[exchange.id] = nil
        exchange.finish(error)
    }
}
#endif
