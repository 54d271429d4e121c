import AsyncHTTPClient
import Feedline
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// HTTP over AsyncHTTPClient (SwiftNIO; TLS by swift-nio-ssl's own BoringSSL, certificates
/// checked against the system's store; HTTP/1.1 and HTTP/2; connections pooled and reused):
/// the transport on every platform. See ``HTTPTransport`` for what every exchange guarantees.
///
/// Policy is Feedline's, not the library's: the client follows no redirect itself — the
/// transport follows one only within the first request's origin, at most ``redirectLimit``,
/// and calls one back to an address already asked a loop —, and each exchange has a task of
/// its own plus a watchdog task that sleeps until the idle or total deadline (nothing polls:
/// an open event stream or a request the server holds costs no CPU).
package final class AsyncHTTPClientTransport: HTTPTransport {
    /// The most redirects followed before the exchange fails.
    package static let redirectLimit = 10

    /// The process's one client (AsyncHTTPClient's shared event loops), made on first use, so
    /// a session that never opens a socket never starts it. It lives as long as the process.
    package static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            // The idle and total limits are each exchange's own (the watchdog); connecting
            // has AsyncHTTPClient's own bound as well.
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(30), read: nil),
            // Bodies as sent: a compressed answer would be inflated in pieces larger than the
            // body limit counts.
            decompression: .disabled
        )
        // A refused connection is the answer now, not retried until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    private let client: HTTPClient

    /// A transport on `client` (the process's one client unless a test brings its own).
    package init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient) {
        self.client = client
    }

    package func start(
        _ request: HTTPRequest, body: Data?, limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void
    ) -> HTTPTransfer {
        let exchange = Exchange(limits: limits, receive: receive)
        let client = client
        exchange.begin(
            run: Task { await exchange.run(request, body: body, on: client) },
            watch: Task { await exchange.watch() }
        )
        return HTTPTransfer { exchange.stop(.cancelled) }
    }
}

/// One exchange: its state behind a lock, the task that runs it and the watchdog that ends it
/// at its idle or total deadline.
private final class Exchange: Sendable {
    private struct State {
        var lastActivity: ContinuousClock.Instant
        var started: ContinuousClock.Instant
        /// Why the exchange was stopped from outside its task (cancel, a deadline), if it was.
        var stopped: HTTPTransportError.Code?
        var finished = false
        var run: Task<Void, Never>?
        var watch: Task<Void, Never>?
    }

    private let limits: HTTPTransferLimits
    private let receive: @Sendable (HTTPTransferEvent) -> Void
    private let state: Locked<State>

    init(limits: HTTPTransferLimits, receive: @escaping @Sendable (HTTPTransferEvent) -> Void) {
        self.limits = limits
        self.receive = receive
        let now = ContinuousClock.now
        state = Locked(State(lastActivity: now, started: now))
    }

    /// Keeps the tasks, cancelling them at once when the exchange was stopped before they existed.
    func begin(run: Task<Void, Never>, watch: Task<Void, Never>) {
        let stopped = state.withLock { state in
            state.run = run
            state.watch = watch
            return state.stopped != nil || state.finished
        }
        if stopped {
            run.cancel()
            watch.cancel()
        }
    }

    /// Ends the exchange for `reason` (the first reason wins); its task reports it.
    func stop(_ reason: HTTPTransportError.Code) {
        let run = state.withLock { state -> Task<Void, Never>? in
            guard !state.finished, state.stopped == nil else { return nil }
            state.stopped = reason
            return state.run
        }
        run?.cancel()
    }

    private func touch() {
        state.withLock { $0.lastActivity = .now }
    }

    /// Reports the end, once: the reason it was stopped for wins over what the library threw.
    private func finish(_ error: HTTPTransportError?) {
        let (first, stopped, watch) = state.withLock { state in
            defer { state.finished = true }
            return (!state.finished, state.stopped, state.watch)
        }
        watch?.cancel()
        guard first else { return }
        if let stopped {
            receive(.finished(HTTPTransportError(stopped, detail: error?.detail ?? "")))
        } else {
            receive(.finished(error))
        }
    }

    // MARK: - The watchdog

    /// Sleeps until the nearest deadline, then stops the exchange if it passed (bytes may
    /// have come meanwhile: then it sleeps again). Ends when the exchange does.
    func watch() async {
        while !Task.isCancelled {
            let (idle, total) = state.withLock { state in
                (state.lastActivity + limits.idle, limits.total.map { state.started + $0 })
            }
            let now = ContinuousClock.now
            if let total, total <= now {
                stop(.totalTimeout)
                return
            }
            if idle <= now {
                stop(.idleTimeout)
                return
            }
            let wake = total.map { min($0, idle) } ?? idle
            do {
                try await Task.sleep(until: wake, clock: .continuous)
            } catch {
                return
            }
        }
    }

    // MARK: - Running

    func run(_ first: HTTPRequest, body firstBody: Data?, on client: HTTPClient) async {
        var request = first
        var body = firstBody
        let origin = first.url.flatMap(MastodonServer.origin(of:))
        var asked: Set<String> = [first.url?.absoluteString ?? ""]
        do {
            while true {
                let response = try await client.execute(Self.clientRequest(request, body: body), deadline: .distantFuture)
                touch()
                if let next = Self.redirect(response, from: request, within: origin) {
                    guard asked.count <= AsyncHTTPClientTransport.redirectLimit else { throw HTTPTransportError(.tooManyRedirects) }
                    let address = next.url?.absoluteString ?? ""
                    guard asked.insert(address).inserted else { throw HTTPTransportError(.redirectLoop, detail: address) }
                    if next.method != request.method { body = nil }
                    request = next
                    // The redirect's own body is nobody's: dropping it closes its connection.
                    continue
                }
                try await deliver(response)
                finish(nil)
                return
            }
        } catch {
            finish(HTTPTransportError(library: error))
        }
    }

    /// Reports the head, then the body as it comes, counting it against the limit.
    private func deliver(_ response: HTTPClientResponse) async throws {
        let limit = limits.maximumBody
        if let limit, let announced = response.headers.first(name: "Content-Length").flatMap(Int.init), announced > limit {
            throw HTTPTransportError(.bodyTooLarge(limit: limit), detail: "Content-Length \(announced)")
        }
        receive(.response(Self.head(response)))
        var count = 0
        for try await buffer in response.body {
            touch()
            count += buffer.readableBytes
            if let limit, count > limit { throw HTTPTransportError(.bodyTooLarge(limit: limit)) }
            if buffer.readableBytes > 0 { receive(.body(Data(buffer.readableBytesView))) }
        }
    }

    // MARK: - Between swift-http-types and AsyncHTTPClient

    private static func clientRequest(_ request: HTTPRequest, body: Data?) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url?.absoluteString ?? "")
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            outgoing.body = .bytes(body)
        } else if [.post, .put, .patch].contains(request.method) {
            // An empty body announced as such (Content-Length: 0), as servers expect of a POST.
            outgoing.body = .bytes(Data())
        }
        return outgoing
    }

    private static func head(_ response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase), headerFields: fields)
    }

    /// The request to follow `response` with, when it is a redirect within `origin`; `nil` when
    /// it is the answer (not a redirect, or one elsewhere).
    private static func redirect(_ response: HTTPClientResponse, from request: HTTPRequest, within origin: String?) -> HTTPRequest? {
        let status = Int(response.status.code)
        guard [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location"),
            let current = request.url, let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let origin, MastodonServer.origin(of: target) == origin
        else { return nil }
        var next = request
        next.url = target
        // As browsers and URLSession do: 303, and 301/302 after a POST, become a GET.
        if status == 303 || ((status == 301 || status == 302) && request.method == .post) {
            next.method = .get
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        }
        return next
    }
}
