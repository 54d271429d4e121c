import Feedline
import FeedlineMastodon
import FlyingFox
import FeedlineTestSupport
import FlyingSocks
import Foundation
import Testing

/// A Mastodon-API server on 127.0.0.1 with an ephemeral port, serving statuses from memory
/// with Mastodon's paging (`max_id`, `since_id`, `min_id`, `limit`, `Link`), interactions (by
/// the shared ``ServerModel``) and `X-RateLimit-*` headers. It records every request, checks the
/// bearer token, and serves canned answers (errors, slow or malformed bodies) queued by a test
/// before anything else. A request for an endpoint it does not serve fails the test.
///
/// It serves posting, editing and deleting from the model too (`FakeMastodon+Writing.swift`).
/// Besides the home and public timelines it serves the other screens' endpoints (see
/// `FakeMastodon+Screens.swift`): account lookup and statuses, hashtag timelines, bookmarks and
/// favourites (paged by their own ids, as Mastodon does), threads, and notifications, grouped
/// (`/api/v2`, Mastodon 4.3) or not (`/api/v1`, with ``groupedNotifications`` saying whether the
/// server is older than 4.3).
final class FakeMastodon: Sendable {
    /// A request as the server saw it.
    struct Recorded: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        var query: [String: String]
        var authorization: String?
        var userAgent: String?
        /// The `application/x-www-form-urlencoded` body's fields (OAuth requests).
        var form: [String: String] = [:]
        /// The `Host` header: which name of the server was asked.
        var host: String?
        /// Every query item as `name=value`, in order (``query`` keeps one per name).
        var queryItems: [String] = []
        /// The path as sent, still percent-encoded (``path`` is decoded).
        var encodedPath = ""
        /// A JSON body's top-level fields (a follow's `reblogs` and `notify`).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(bodyText.utf8))) as? [String: Any] ?? [:] }
        /// The body as text.
        var bodyText = ""
        /// The `Idempotency-Key` header (a new post's).
        var idempotencyKey: String?

        var description: String { "\(method) \(path) \(query.sorted { $0.key < $1.key })" }
    }

    /// An answer queued by a test for the next request(s) that match.
    struct Canned: Sendable {
        var method: String?
        var pathPrefix: String
        var status: Int
        var headers: [String: String] = [:]
        var body: String
        var delay: Duration?
        var times = 1
        /// Announces this `Content-Length` but sends only ``body``, then closes the connection:
        /// an answer cut off mid-body.
        var cutOffAt: Int?
        /// Sends ``body`` this many times over, made as it goes (a huge answer), with its
        /// `Content-Length` when `announced`, else chunked.
        var repeats: (times: Int, announced: Bool)?
        /// Bytes sent instead of ``body`` (an answer that is not valid UTF-8).
        var bytes: Data?
    }

    /// How the server answers `GET /api/v2/notifications`.
    enum GroupedNotifications: Sendable, CustomTestStringConvertible {
        /// Mastodon 4.3 and later: grouped notifications (and `group_key` on `/api/v1` ones).
        case supported
        /// Mastodon before 4.3: no such route, so Rails answers 404 `{"error":"Not Found"}`.
        case missing
        /// No such route, answered by something in front of the server with an HTML 404 page.
        case missingPage

        var testDescription: String {
            switch self {
            case .supported: "Mastodon 4.3"
            case .missing: "Mastodon 4.2 (JSON 404)"
            case .missingPage: "Mastodon 4.2 behind a proxy (HTML 404)"
            }
        }
    }

    /// A bookmark or favourite: Mastodon pages these by the id of this record, not the status's.
    struct Mark: Sendable, Hashable {
        var id: UInt64
        var statusID: String
    }

    struct State: Sendable {
        var timeline: [Mastodon.Status]
        /// Every status the server knows, and what interactions do to them.
        var server: ServerModel<Mastodon.Status>
        /// Every entry the server knows (the timeline and the statuses elsewhere), newest first:
        /// what account and hashtag timelines are made of.
        var known: [Mastodon.Status] = []
        /// The user's notifications, newest first, and the group key of each (Mastodon 4.3's).
        var notifications: [Mastodon.Notification] = []
        var groupKeys: [String] = []
        var groupedNotifications = GroupedNotifications.supported
        /// The requests of filtered notifications, newest first (`FakeMastodon+NotificationRequests.swift`).
        var filteredRequests: [FilteredRequest] = []
        /// Newest first.
        var bookmarks: [Mark] = []
        var favourites: [Mark] = []
        /// The next bookmark and favourite record ids: a sequence of their own, far below status ids.
        var nextBookmark: UInt64 = 4_107
        var nextFavourite: UInt64 = 88_310
        var requests: [Recorded] = []
        var canned: [Canned] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Posted at the first timeline request for newer posts (see ``arriveOnRefresh(_:)``).
        var arrivals: [Mastodon.Status] = []
        /// The OAuth server's state (`FakeMastodon+OAuth.swift`).
        var oauth = FakeOAuth()
        /// The user stream (`FakeMastodon+Streaming.swift`).
        var streaming = StreamingState()
        /// Followers, following, mutes, blocks, follow requests and what search knows besides
        /// the statuses (`FakeMastodon+AccountLists.swift`).
        var lists = AccountListsState()
        /// The record ids of the user's domain blocks, which the model keeps (`FakeMastodon+DomainBlocks.swift`).
        var domainBlocks = DomainBlocksState()
        /// The hashtags the user follows and the trends (`FakeMastodon+Tags.swift`).
        var tags = TagsState()
        /// Which stream connections are `direct` ones; the conversations are the model's (`FakeMastodon+Conversations.swift`).
        var directStreams: Set<Int> = []
        /// The user's lists (`FakeMastodon+Lists.swift`).
        var userLists = UserListsState()
        /// The id of the last status posted through the API (`FakeMastodon+Writing.swift`).
        var lastStatusID: UInt64 = 0
        /// The server's custom emoji (`FakeMastodon+Suggestions.swift`).
        var customEmoji: [Mastodon.CustomEmoji] = []
        /// The translations the server makes, by status id (`FakeMastodon+Translations.swift`).
        var translations: [String: Mastodon.Translation] = [:]
        /// The reports filed and the instance's rules (`FakeMastodon+Reports.swift`).
        var reports = ReportsState()
        /// The instance's announcements and those the user dismissed (`FakeMastodon+Announcements.swift`).
        var announcements = AnnouncementsState()
    }

    static let rateLimitReset = "2026-11-23T12:05:00.000Z"
    /// How many posts an account pins at most (Mastodon's `StatusPinValidator::PIN_LIMIT`).
    static let pinLimit = 5

    /// The token requests must bear; `nil` accepts any (and none).
    let token: String?
    let state: Locked<State>
    /// Where the test made the fake: a request it does not serve fails the test there.
    let sourceLocation: SourceLocation
    private let server: HTTPServer
    private let running: Locked<Task<Void, any Error>?> = Locked(nil)
    private let port: Locked<UInt16> = Locked(0)

    /// A server whose home timeline is `statuses` (in order) and which also knows `elsewhere`
    /// (older posts, other accounts' posts, the user's own); `notifications` are the user's.
    /// Statuses already bookmarked or favourited are marked so in that order, oldest first.
    init(
        statuses: [Mastodon.Status], elsewhere: [Mastodon.Status] = [], notifications: [Mastodon.Notification] = [],
        token: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        self.token = token
        self.sourceLocation = sourceLocation
        var initial = State(timeline: statuses, server: ServerModel(statuses + elsewhere))
        initial.server.lists = Self.modelLists()
        // The fake's own domain is its address, which the blocks refuse (`FakeMastodon+DomainBlocks.swift`).
        initial.server.domainBlocks.own = "127.0.0.1"
        initial.known = Self.newestFirst(statuses + elsewhere)
        for status in initial.known.reversed() {
            let original = status.original
            if original.bookmarked == true, !initial.bookmarks.contains(where: { $0.statusID == original.id }) {
                initial.mark(original.id, bookmark: true)
            }
            if original.favourited == true, !initial.favourites.contains(where: { $0.statusID == original.id }) {
                initial.mark(original.id, favourite: true)
            }
        }
        initial.setNotifications(notifications)
        state = Locked(initial)
        let box = HandlerBox()
        // A canned delay is the test's to choose (FlyingFox would answer 500 after its default 15 s).
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 24 * 3600, logger: .disabled, handler: box)
        box.fake.withLock { $0 = WeakFake(self) }
    }

    /// Starts listening; returns the server's base address.
    func start() async throws -> URL {
        let server = server
        running.withLock { $0 = Task { try await server.run() } }
        // A hang guard, not a speed bar: under ThreadSanitizer with every suite running at once on
        // two cores, the server's task can wait over a minute for a thread (CI saw 60 s run out).
        try await server.waitUntilListening(timeout: 600)
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw URLError(.cannotConnectToHost) }
        self.port.withLock { $0 = port }
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    func stop() async {
        dropStreams()
        await server.stop()
        running.withLock { $0?.cancel() }
    }

    // MARK: - Test controls

    func enqueue(_ canned: Canned) {
        state.withLock { $0.canned.append(canned) }
    }

    /// Queues `status` with a Mastodon error body for the next request under `path`.
    func fail(_ path: String, method: String? = nil, status: Int, error: String? = nil, headers: [String: String] = [:]) {
        let body = error.map { "{\"error\":\"\($0)\"}" } ?? ""
        enqueue(Canned(method: method, pathPrefix: path, status: status, headers: headers, body: body))
    }

    var requests: [Recorded] { state.withLock { $0.requests } }

    /// Returns once the server has received `count` requests (at once if it has).
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.requests.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once the server has received a request that `matches` (at once if it has).
    func waitForRequest(_ matches: @Sendable (Recorded) -> Bool) async {
        var count = 1
        while !requests.contains(where: matches) {
            await waitForRequests(count)
            count = requests.count + 1
        }
    }

    /// Adds statuses to the top of the timeline (newest first), as if just posted.
    func post(_ statuses: [Mastodon.Status]) {
        state.withLock { state in state.add(statuses) }
    }

    /// Holds `statuses` back until the first timeline request for newer posts (`since_id` or
    /// `min_id`), then posts them: a refresh finds them whenever it runs, so a test driving a
    /// separate process needs no timing.
    func arriveOnRefresh(_ statuses: [Mastodon.Status]) {
        state.withLock { $0.arrivals = statuses }
    }

    func status(_ id: String) -> Mastodon.Status? { state.withLock { $0.server.entry(id) } }

    // MARK: - Serving

    func respond(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = request.method == .POST || request.method == .PUT || request.method == .PATCH ? try await request.bodyData : Data()
        let recorded = Recorded(
            method: request.method.rawValue,
            path: request.path,
            query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }),
            authorization: request.headers[.authorization],
            userAgent: request.headers[HTTPHeader("User-Agent")],
            form: Self.formFields(body),
            host: request.headers[.host],
            queryItems: request.query.map { "\($0.name)=\($0.value)" },
            encodedPath: request.target.path(),
            bodyText: String(decoding: body, as: UTF8.self),
            idempotencyKey: request.headers[HTTPHeader("Idempotency-Key")]
        )
        let (canned, ready) = state.withLock { state -> (Canned?, [CheckedContinuation<Void, Never>]) in
            state.requests.append(recorded)
            let count = state.requests.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            guard
                let index = state.canned.firstIndex(where: {
                    recorded.path.hasPrefix($0.pathPrefix) && ($0.method == nil || $0.method == recorded.method)
                })
            else { return (nil, ready) }
            let canned = state.canned[index]
            state.canned[index].times -= 1
            if state.canned[index].times <= 0 { state.canned.remove(at: index) }
            return (canned, ready)
        }
        for continuation in ready { continuation.resume() }
        if let canned {
            if let delay = canned.delay { try await Task.sleep(for: delay) }
            if let length = canned.cutOffAt { return Self.cutOff(canned, announcing: length) }
            if let repeats = canned.repeats { return Self.repeated(canned, repeats.times, announced: repeats.announced) }
            return Self.response(canned.status, canned.headers, canned.bytes ?? Data(canned.body.utf8))
        }
        if let answer = profileRoute(recorded) { return answer }
        if let answer = oauthRoute(recorded) { return answer }
        let bearer = recorded.authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let signedIn = (token != nil && bearer == token) || bearer.map(isIssued) == true
        // A fixed token or any token issued here is checked; a fake with neither accepts any.
        if recorded.authorization != nil, !signedIn, token != nil || hasIssuedTokens {
            return Self.error(401, "The access token is invalid")
        }
        if !signedIn, Self.needsUser(recorded) {
            return Self.error(401, "The access token is invalid")
        }
        return route(recorded)
    }

    /// The home timeline, bookmarks, favourites, notifications, the user stream and every POST need a user.
    private static func needsUser(_ request: Recorded) -> Bool {
        request.method == "POST" || request.path.hasSuffix("/timelines/home")
            || ["/api/v1/bookmarks", "/api/v1/favourites", "/api/v1/notifications", "/api/v2/notifications", "/api/v1/markers", userStreamPath]
                .contains(request.path)
    }

    private func route(_ request: Recorded) -> HTTPResponse {
        // The web front page, which is what the plain-HTTP probe asks for.
        if request.method == "GET", request.path == "/" {
            return Self.response(200, ["Content-Type": "text/html; charset=utf-8"], Data("<!DOCTYPE html><html><body>Mastodon</body></html>".utf8))
        }
        if let answer = translationRoute(request) { return answer }
        if let answer = reportsRoute(request) { return answer }
        if let answer = announcementsRoute(request) { return answer }
        if let answer = writingRoute(request) { return answer }
        if let answer = accountListsRoute(request) { return answer }
        if let answer = domainBlocksRoute(request) { return answer }
        if let answer = tagsRoute(request) { return answer }
        if let answer = conversationsRoute(request) { return answer }
        if let answer = notificationRequestsRoute(request) { return answer }
        if let answer = dismissRoute(request) { return answer }
        if let answer = userListsRoute(request) { return answer }
        if let answer = filtersRoute(request) { return answer }
        if let answer = scheduledRoute(request) { return answer }
        if let answer = notificationPolicyRoute(request) { return answer }
        if let answer = suggestionsRoute(request) { return answer }
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" || parts[1] == "v2" else { return unexpected(request) }
        let rest = Array(parts.dropFirst(2))
        switch (request.method, parts[1], rest.count) {
        case ("GET", "v2", 1) where rest[0] == "notifications":
            return groupedNotificationsPage(request)
        case ("GET", "v1", 1) where rest[0] == "notifications":
            return plainNotificationsPage(request)
        case ("GET", "v1", 1) where rest[0] == "bookmarks":
            return markedPage(request, bookmarks: true)
        case ("GET", "v1", 1) where rest[0] == "favourites":
            return markedPage(request, bookmarks: false)
        case ("GET", "v1", 2) where rest == ["streaming", "user"]:
            return userStream()
        case ("GET", _, 1) where rest[0] == "instance":
            return serverDescription(version: parts[1])
        case ("GET", "v1", 2) where rest == ["timelines", "home"] || rest == ["timelines", "public"]:
            return timelinePage(request)
        case ("GET", "v1", 3) where rest[0] == "timelines" && rest[1] == "tag":
            return tagPage(request, name: rest[2])
        case ("GET", "v1", 2) where rest == ["accounts", "lookup"]:
            return lookup(request)
        case ("GET", "v2", 1) where rest[0] == "search":
            return search(request)
        case ("GET", "v1", 2) where rest == ["accounts", "relationships"]:
            return relationships(request)
        case ("GET", "v1", 2) where rest[0] == "accounts":
            return knownAccounts().first { $0.id == rest[1] }.map { Self.json($0) } ?? Self.error(404, "Record not found")
        case ("POST", "v1", 3) where rest[0] == "accounts":
            return changeRelationship(request, accountID: rest[1], action: rest[2])
        case ("GET", "v1", 3) where rest[0] == "accounts" && rest[2] == "statuses":
            return accountPage(request, accountID: rest[1])
        case ("GET", "v1", 2) where rest[0] == "statuses":
            return state.withLock { state in
                state.server.entry(rest[1]).map { Self.json($0) } ?? Self.error(404, "Record not found")
            }
        case ("GET", "v1", 3) where rest[0] == "statuses" && rest[2] == "context":
            return context(rest[1])
        case ("GET", "v1", 1) where rest[0] == "markers":
            return markersAnswer(request)
        case ("POST", "v1", 1) where rest[0] == "markers":
            return saveMarkers(request)
        case ("POST", "v1", 3) where rest[0] == "statuses":
            return interact(request, rest[1], rest[2])
        default:
            return unexpected(request)
        }
    }

    /// A request for an endpoint this fake does not serve: it fails the test (at the line that
    /// made the fake) and is answered as Rails answers an unknown route, 404.
    func unexpected(_ request: Recorded) -> HTTPResponse {
        Issue.record("FakeMastodon got \(request.method) \(request.path), which it does not serve", sourceLocation: sourceLocation)
        return Self.error(404, "Record not found")
    }

    static func response(_ status: Int, _ headers: [String: String] = [:], _ body: Data) -> HTTPResponse {
        var all: HTTPHeaders = [
            HTTPHeader("Content-Type"): "application/json; charset=utf-8",
            HTTPHeader("X-RateLimit-Limit"): "300",
            HTTPHeader("X-RateLimit-Remaining"): "299",
            HTTPHeader("X-RateLimit-Reset"): rateLimitReset,
        ]
        for (name, value) in headers { all[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"), headers: all, body: body)
    }

    /// `canned`'s status, headers and body under a `Content-Length` of `length`, the connection
    /// closed once the body is sent.
    private static func cutOff(_ canned: Canned, announcing length: Int) -> HTTPResponse {
        var response = Self.response(canned.status, canned.headers, Data())
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        continuation.yield(Array(canned.body.utf8))
        continuation.finish(throwing: URLError(.networkConnectionLost))
        response.payload = .httpBody(HTTPBodySequence(from: EventStreamBody(chunks: chunks), count: length))
        return response
    }

    /// `canned`'s body `times` times over, made as it is sent.
    private static func repeated(_ canned: Canned, _ times: Int, announced: Bool) -> HTTPResponse {
        var response = Self.response(canned.status, canned.headers, Data())
        let body = RepeatedBody(piece: Array(canned.body.utf8), times: times)
        response.payload = .httpBody(
            announced ? HTTPBodySequence(from: body, count: canned.body.utf8.count * times) : HTTPBodySequence(from: body)
        )
        return response
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        response(status, [:], Data("{\"error\":\"\(message)\"}".utf8))
    }

    static func json(_ value: some Encodable, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        response(status, headers, (try? Mastodon.makeEncoder().encode(value)) ?? Data())
    }

    var baseURL: String { "http://127.0.0.1:\(port.withLock { $0 })" }
}

/// The server's handler, pointing back at the fake weakly (the fake owns the server).
private final class HandlerBox: HTTPHandler, Sendable {
    let fake = Locked<WeakFake?>(nil)

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let fake = fake.withLock({ $0?.fake }) else { return FakeMastodon.error(503, "gone") }
        return try await fake.respond(request)
    }
}

private struct WeakFake: Sendable {
    weak var fake: FakeMastodon?
    init(_ fake: FakeMastodon) { self.fake = fake }
}
