import Feedline
import FeedlineMastodon
import FlyingFox
import FlyingSocks
import Foundation
import Testing

/// A Mastodon-API server on 127.0.0.1 for the writing endpoints: it records every request with
/// all its headers and its body (which ``FakeMastodon`` does not keep), and answers each
/// `METHOD path` from a script — queued answers first, one each and in order, then the standing
/// answer for that route. A request with neither fails the test, as ``FakeMastodon`` does.
final class HTTPWritingServer: Sendable {
    /// A request as the server saw it.
    struct Recorded: Sendable, CustomStringConvertible {
        var method: String
        var path: String
        /// Every header, by lowercased name.
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The body's top-level JSON object, `nil` when it is not one.
        func json() -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }

        var route: String { "\(method) \(path)" }
        var description: String { route }
    }

    /// An answer: a status and a body (JSON unless it says otherwise).
    struct Answer: Sendable {
        var status: Int
        var body: String

        static func json(_ value: some Encodable, status: Int = 200) -> Answer {
            let data = (try? Mastodon.makeEncoder().encode(value)) ?? Data()
            return Answer(status: status, body: String(decoding: data, as: UTF8.self))
        }

        /// A Mastodon error body.
        static func error(_ status: Int, _ message: String) -> Answer {
            Answer(status: status, body: "{\"error\":\"\(message)\"}")
        }
    }

    private struct State: Sendable {
        var requests: [Recorded] = []
        var queued: [String: [Answer]] = [:]
        var standing: [String: Answer] = [:]
    }

    private let state = Locked(State())
    private let sourceLocation: SourceLocation
    private let listener: LoopbackListener

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.sourceLocation = sourceLocation
        let box = HTTPWritingHandlerBox()
        listener = try LoopbackListener(handler: box)
        box.server.withLock { $0 = HTTPWritingWeakServer(self) }
    }

    /// Starts listening; returns the server's base address.
    func start() async throws -> URL { try await listener.start() }

    func stop() async { await listener.stop() }

    // MARK: - Script

    /// Answers the next request for `METHOD path` with `answer` (after those queued before it).
    func enqueue(_ method: String, _ path: String, _ answer: Answer) {
        state.withLock { $0.queued["\(method) \(path)", default: []].append(answer) }
    }

    /// Answers every request for `METHOD path` with `answer` once its queued answers are used up.
    func always(_ method: String, _ path: String, _ answer: Answer) {
        state.withLock { $0.standing["\(method) \(path)"] = answer }
    }

    var requests: [Recorded] { state.withLock { $0.requests } }

    /// The requests for `METHOD path`, in order.
    func requests(_ method: String, _ path: String) -> [Recorded] {
        requests.filter { $0.method == method && $0.path == path }
    }

    // MARK: - Serving

    fileprivate func respond(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try await request.bodyData
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        let recorded = Recorded(method: request.method.rawValue, path: request.path, headers: headers, body: body)
        let answer = state.withLock { state -> Answer? in
            state.requests.append(recorded)
            if var queue = state.queued[recorded.route], !queue.isEmpty {
                let next = queue.removeFirst()
                state.queued[recorded.route] = queue
                return next
            }
            return state.standing[recorded.route]
        }
        guard let answer else {
            Issue.record("HTTPWritingServer got \(recorded.route), which the test did not script", sourceLocation: sourceLocation)
            return FakeMastodon.error(404, "Record not found")
        }
        return FakeMastodon.response(answer.status, [:], Data(answer.body.utf8))
    }
}

/// Runs `body` against a fresh ``HTTPWritingServer``, stopping it afterwards.
func withWritingServer<Result>(
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (HTTPWritingServer, MastodonServer) async throws -> Result
) async throws -> Result {
    let fake = try HTTPWritingServer(sourceLocation: sourceLocation)
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
private final class HTTPWritingHandlerBox: HTTPHandler, Sendable {
    let server = Locked<HTTPWritingWeakServer?>(nil)

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let fake = server.withLock({ $0?.server }) else { return FakeMastodon.error(503, "gone") }
        return try await fake.respond(request)
    }
}

private struct HTTPWritingWeakServer: Sendable {
    weak var server: HTTPWritingServer?
    init(_ server: HTTPWritingServer) { self.server = server }
}
