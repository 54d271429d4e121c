import Feedline
import Foundation
import HTTPTypes

extension MastodonHTTPService {
    /// The user stream (the home timeline and notifications) as server-sent events.
    static let userStreamPath = "/api/v1/streaming/user"
    /// The server's description (Mastodon 4.0 and later), which names its streaming host.
    static let instancePath = "/api/v2/instance"
    /// The older description, asked when there is no v2 one.
    static let legacyInstancePath = "/api/v1/instance"

    /// Whether there is a token to stream with (Mastodon 4.2 and later stream only to signed-in users).
    var canStream: Bool { token != nil }

    /// The user stream's address at `endpoint`.
    func userStreamURL(_ endpoint: StreamLifecycleState.Endpoint) -> URL {
        switch endpoint {
        case .sameHost: server.url(path: Self.userStreamPath)
        case .announced(let url): url
        }
    }

    /// The `direct` stream's address at `endpoint`: the user stream's with `direct` for `user`.
    func directStreamURL(_ endpoint: StreamLifecycleState.Endpoint) -> URL {
        let user = userStreamURL(endpoint)
        guard var components = URLComponents(url: user, resolvingAgainstBaseURL: false), components.percentEncodedPath.hasSuffix("/user") else {
            return server.url(path: Self.directStreamPath)
        }
        components.percentEncodedPath = String(components.percentEncodedPath.dropLast(4)) + "direct"
        return components.url ?? server.url(path: Self.directStreamPath)
    }

    /// The `direct` stream: `conversation` events, one per new post in a direct conversation
    /// (Mastodon sends them on this stream only, not on `user`).
    static let directStreamPath = "/api/v1/streaming/direct"

    /// Where the server says its stream lives — `configuration.urls.streaming` of
    /// `GET /api/v2/instance`, or `urls.streaming_api` of `GET /api/v1/instance` when the server
    /// has no usable v2 description — as a user-stream address
    /// ``userStreamURL(announced:server:)`` accepts; `nil` when it names none, or none usable.
    ///
    /// - Throws: the request's ``MastodonHTTPError``.
    func announcedStreamURL() async throws -> URL? {
        let instance: Mastodon.Instance
        do {
            instance = try await serverDescription(at: Self.instancePath)
        } catch let error as MastodonHTTPError where !error.isTransient {
            // No v2 description here (a 404, a proxy's page, a body that is not one): ask v1.
            instance = try await serverDescription(at: Self.legacyInstancePath)
        }
        return instance.streamingURL.flatMap { Self.userStreamURL(announced: $0, server: server) }
    }

    private func serverDescription(at path: String) async throws -> Mastodon.Instance {
        let what = "the server's description"
        let response = try await send(APIRequest(method: "GET", url: server.url(path: path), what: what))
        return try decode(Mastodon.Instance.self, from: response, what: what)
    }

    /// The user-stream address under the streaming base a server announced, or `nil` when it
    /// cannot be used: `wss://` means `https://` and `ws://` `http://`; it must be `https` — plain
    /// `http` only when the server itself is (a local test server) and the host it names is on
    /// this machine too, so the token is never sent in the clear over a network — and name a host, without a user name, query or
    /// fragment. `nil` too when it is the server's own address, which was just tried.
    package static func userStreamURL(announced: String, server: MastodonServer) -> URL? {
        guard var components = URLComponents(string: announced.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        guard let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil
        else { return nil }
        // Plain http only from a server on this machine to a host on this machine: the token
        // goes with the stream and must not cross the network in clear.
        let plainAllowed = server.url.scheme == "http" && MastodonServer.isLoopback(host: host)
        let scheme: String
        switch components.scheme?.lowercased() {
        case "https", "wss": scheme = "https"
        case "http" where plainAllowed, "ws" where plainAllowed: scheme = "http"
        default: return nil
        }
        components.scheme = scheme
        components.host = host.lowercased()
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path + userStreamPath
        guard let url = components.url, url != server.url(path: userStreamPath) else { return nil }
        return url
    }

    /// Opens the user stream at `url` with the token, and reports what happens on it (see
    /// ``EventStreamSignal``). A connection silent for `idleTimeout` (real time) ends as
    /// ``EventStreamEnd/closed``. Ending the iteration (or cancelling its task) closes the connection.
    ///
    /// The token goes to `url` only: the server's own stream, or the host its description names
    /// as its streaming host (``announcedStreamURL()``); redirects leave neither origin.
    package func openUserStream(at url: URL, idleTimeout: Duration) -> AsyncStream<EventStreamSignal> {
        var fields = [("Accept", "text/event-stream"), ("Cache-Control", "no-store"), ("User-Agent", userAgent)]
        if let token { fields.append(("Authorization", "Bearer \(token.secret)")) }
        let request = HTTPRequest(method: .get, url: url, fields: fields)
        let (signals, continuation) = AsyncStream.makeStream(
            of: EventStreamSignal.self, bufferingPolicy: .bufferingOldest(EventStreamReader.backlog)
        )
        let reader = EventStreamReader(continuation: continuation)
        // The consumer may end the stream before the transfer exists: then it is cancelled as
        // soon as it does.
        let connection = Locked<(transfer: HTTPTransfer?, ended: Bool)>((nil, false))
        continuation.onTermination = { _ in
            let transfer = connection.withLock { connection in
                connection.ended = true
                return connection.transfer
            }
            transfer?.cancel()
        }
        let transfer = transport.start(request, body: nil, limits: HTTPTransferLimits(idle: idleTimeout)) { event in reader.receive(event) }
        let ended = connection.withLock { connection in
            connection.transfer = transfer
            return connection.ended
        }
        if ended { transfer.cancel() }
        return signals
    }
}
