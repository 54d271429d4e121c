@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FlyingFox
import FlyingSocks
import Foundation
import Testing

/// A Mastodon-API server on 127.0.0.1 for accounts and relationships, with Mastodon's rules:
///
/// - `GET /api/v1/accounts/lookup?acct=`, `GET /api/v1/accounts/:id`: the accounts it
///   ``knows``; 404 `Record not found` for any other.
/// - `GET /api/v2/search?q=@user@host&type=accounts&resolve=true`: a ``remote`` account the
///   server has not seen is fetched (with `resolve=true` and a user only) and known from then on.
/// - `GET /api/v1/accounts/relationships?id[]=…`: one relationship per known id, in the order
///   asked; unknown ids are left out.
/// - `POST /api/v1/accounts/:id/follow|unfollow|mute|unmute|block|unblock`: changes the
///   relationship as Mastodon does (a follow of a locked account is a request; `reblogs` and
///   `notify` change only when sent; a follow of an account you block is 403) and answers it.
///
/// It records each request with its ordered query and its body (which ``FakeMastodon`` keeps
/// neither of), answers queued ``HTTPWritingServer/Answer``s for a `METHOD path` before the
/// model, and fails the test on a request it does not serve. Every API call but the lookup,
/// the account and a non-resolving search needs the bearer ``secretToken``.
final class FakeAccountsServer: Sendable {
    /// A request as the server saw it.
    struct Recorded: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        /// Every query item as `name=value` (decoded), in order.
        var query: [String]
        var authorization: String?
        var contentType: String?
        var body: Data

        /// The body's top-level JSON object, `nil` when it is not one.
        func json() -> [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

        /// The body as text ("" for none).
        var bodyText: String { String(decoding: body, as: UTF8.self) }

        /// `METHOD path`, then `?query` when there is one.
        var description: String { "\(method) \(path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")) }

        func value(_ name: String) -> String? {
            query.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
    }

    private struct State: Sendable {
        var known: [Mastodon.Account]
        var remote: [Mastodon.Account]
        var relationships: [String: Mastodon.Relationship] = [:]
        var requests: [Recorded] = []
        var queued: [String: [HTTPWritingServer.Answer]] = [:]
    }

    private let state: Locked<State>
    private let sourceLocation: SourceLocation
    private let listener: LoopbackListener

    /// A server that knows `accounts` and can resolve `remote` ones; `relationships` are the
    /// signed-in user's with some of them (the rest start with nothing set).
    init(
        accounts: [Mastodon.Account], remote: [Mastodon.Account] = [], relationships: [Mastodon.Relationship] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var initial = State(known: accounts, remote: remote)
        for relationship in relationships { initial.relationships[relationship.id] = relationship }
        state = Locked(initial)
        self.sourceLocation = sourceLocation
        let box = AccountsHandlerBox()
        listener = try LoopbackListener(handler: box)
        box.server.withLock { $0 = WeakAccountsServer(self) }
    }

    func start() async throws -> URL { try await listener.start() }
    func stop() async { await listener.stop() }

    // MARK: - Test controls

    /// Answers the next request for `METHOD path` with `answer` (after those queued before it),
    /// instead of the model.
    func enqueue(_ method: String, _ path: String, _ answer: HTTPWritingServer.Answer) {
        state.withLock { $0.queued["\(method) \(path)", default: []].append(answer) }
    }

    var requests: [Recorded] { state.withLock { $0.requests } }

    /// The relationship the server keeps with account `id` (nothing set when none).
    func relationship(_ id: String) -> Mastodon.Relationship {
        state.withLock { $0.relationships[id] ?? Mastodon.Relationship(id: id) }
    }

    // MARK: - Serving

    fileprivate func respond(_ request: HTTPRequest) async throws -> HTTPResponse {
        let recorded = Recorded(
            method: request.method.rawValue,
            path: request.path,
            query: request.query.map { "\($0.name)=\($0.value)" },
            authorization: request.headers[.authorization],
            contentType: request.headers[HTTPHeader("Content-Type")],
            body: try await request.bodyData
        )
        let queued = state.withLock { state -> HTTPWritingServer.Answer? in
            state.requests.append(recorded)
            let route = "\(recorded.method) \(recorded.path)"
            guard var queue = state.queued[route], !queue.isEmpty else { return nil }
            let next = queue.removeFirst()
            state.queued[route] = queue
            return next
        }
        if let queued { return FakeMastodon.response(queued.status, [:], Data(queued.body.utf8)) }
        let signedIn = recorded.authorization == "Bearer \(secretToken)"
        if recorded.authorization != nil, !signedIn { return FakeMastodon.error(401, "The access token is invalid") }
        return route(recorded, signedIn: signedIn)
    }

    private func route(_ request: Recorded, signedIn: Bool) -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        switch (request.method, parts.count) {
        case ("GET", 4) where parts == ["api", "v1", "accounts", "lookup"]:
            return lookup(request)
        case ("GET", 4) where parts == ["api", "v1", "accounts", "relationships"]:
            return signedIn ? relationships(request) : Self.signInWanted
        case ("GET", 3) where parts == ["api", "v2", "search"]:
            return search(request, signedIn: signedIn)
        case ("GET", 4) where parts[0...2] == ["api", "v1", "accounts"]:
            return state.withLock { state in
                state.known.first { $0.id == parts[3] }.map { FakeMastodon.json($0) } ?? FakeMastodon.error(404, "Record not found")
            }
        case ("POST", 5) where parts[0...2] == ["api", "v1", "accounts"]:
            return signedIn ? change(parts[3], parts[4], request) : Self.signInWanted
        default:
            Issue.record("FakeAccountsServer got \(request), which it does not serve", sourceLocation: sourceLocation)
            return FakeMastodon.error(404, "Record not found")
        }
    }

    private static var signInWanted: HTTPResponse { FakeMastodon.error(401, "The access token is invalid") }

    private func lookup(_ request: Recorded) -> HTTPResponse {
        let acct = (request.value("acct") ?? "").lowercased()
        return state.withLock { state in
            state.known.first { $0.acct.lowercased() == acct }.map { FakeMastodon.json($0) } ?? FakeMastodon.error(404, "Record not found")
        }
    }

    /// Mastodon's `/api/v2/search` for accounts: an exact handle, resolved from its server
    /// when asked to (and signed in); nothing else is matched.
    private func search(_ request: Recorded, signedIn: Bool) -> HTTPResponse {
        var query = request.value("q") ?? ""
        while query.hasPrefix("@") { query.removeFirst() }
        let resolve = request.value("resolve") == "true"
        if resolve, !signedIn {
            return FakeMastodon.error(401, "Search queries that resolve remote resources are not supported without authentication")
        }
        let found = state.withLock { state -> Mastodon.Account? in
            if let known = state.known.first(where: { $0.acct.lowercased() == query.lowercased() }) { return known }
            guard resolve, let index = state.remote.firstIndex(where: { $0.acct.lowercased() == query.lowercased() }) else { return nil }
            let fetched = state.remote.remove(at: index)
            state.known.append(fetched)
            return fetched
        }
        let accounts = String(decoding: (try? Mastodon.makeEncoder().encode(found.map { [$0] } ?? [])) ?? Data("[]".utf8), as: UTF8.self)
        return FakeMastodon.response(200, [:], Data("{\"accounts\":\(accounts),\"statuses\":[],\"hashtags\":[]}".utf8))
    }

    private func relationships(_ request: Recorded) -> HTTPResponse {
        let ids = request.query.filter { $0.hasPrefix("id[]=") }.map { String($0.dropFirst(5)) }
        let answer = state.withLock { state in
            ids.filter { id in state.known.contains { $0.id == id } }.map { state.relationships[$0] ?? Mastodon.Relationship(id: $0) }
        }
        return FakeMastodon.json(answer)
    }

    /// A follow, mute or block (or its undo) of account `id`, as Mastodon's services make them.
    private func change(_ id: String, _ action: String, _ request: Recorded) -> HTTPResponse {
        let body = request.json() ?? [:]
        return state.withLock { state in
            guard let account = state.known.first(where: { $0.id == id }) else { return FakeMastodon.error(404, "Record not found") }
            var relation = state.relationships[id] ?? Mastodon.Relationship(id: id)
            switch action {
            case "follow":
                if relation.blocking || relation.blockedBy { return FakeMastodon.error(403, "This action is not allowed") }
                let isNew = !relation.following && !relation.requested
                if isNew {
                    if account.locked { relation.requested = true } else { relation.following = true }
                    relation.showingReblogs = true
                    relation.notifying = false
                }
                if let reblogs = body["reblogs"] as? Bool { relation.showingReblogs = reblogs }
                if let notify = body["notify"] as? Bool { relation.notifying = notify }
            case "unfollow":
                relation.following = false
                relation.requested = false
                relation.showingReblogs = false
                relation.notifying = false
            case "mute":
                relation.muting = true
                relation.mutingNotifications = body["notifications"] as? Bool ?? true
            case "unmute":
                relation.muting = false
                relation.mutingNotifications = false
            case "block":
                relation.blocking = true
                relation.following = false
                relation.requested = false
                relation.followedBy = false
                relation.showingReblogs = false
                relation.notifying = false
            case "unblock":
                relation.blocking = false
            default:
                Issue.record("FakeAccountsServer got \(request), which it does not serve", sourceLocation: sourceLocation)
                return FakeMastodon.error(404, "Record not found")
            }
            state.relationships[id] = relation
            return FakeMastodon.json(relation)
        }
    }
}

/// Runs `body` against a fresh ``FakeAccountsServer``, stopping it afterwards.
func withAccountsServer<Result>(
    accounts: [Mastodon.Account],
    remote: [Mastodon.Account] = [],
    relationships: [Mastodon.Relationship] = [],
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (FakeAccountsServer, MastodonServer) async throws -> Result
) async throws -> Result {
    let fake = try FakeAccountsServer(accounts: accounts, remote: remote, relationships: relationships, sourceLocation: sourceLocation)
    let url = try await fake.start()
    do {
        let result = try await body(fake, try MastodonServer(url: url))
        await fake.stop()
        return result
    } catch {
        await fake.stop()
        throw error
    }
}

/// The server's handler, pointing back at the fake weakly (the fake owns the server).
private final class AccountsHandlerBox: HTTPHandler, Sendable {
    let server = Locked<WeakAccountsServer?>(nil)

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let fake = server.withLock({ $0?.server }) else { return FakeMastodon.error(503, "gone") }
        return try await fake.respond(request)
    }
}

private struct WeakAccountsServer: Sendable {
    weak var server: FakeAccountsServer?
    init(_ server: FakeAccountsServer) { self.server = server }
}
