@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// A user stream a test drives: every open makes a connection whose signals the test sends, and
/// every discovery takes the next answer the test queued. A call the test did not allow — opening
/// without a token, asking where the stream lives with no answer queued — fails the test.
final class ScriptedUserStream: Sendable {
    private struct State {
        var opened: [StreamLifecycleState.Endpoint] = []
        var connections: [AsyncStream<EventStreamSignal>.Continuation] = []
        var closed: Set<Int> = []
        var answers: [Result<URL?, MastodonHTTPError>] = []
        var discoveries = 0
        var waiters: [(condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the waiters whose condition now holds.
        mutating func ready() -> [CheckedContinuation<Void, Never>] {
            let current = self
            let (ready, waiting) = (waiters.filter { $0.condition(current) }, waiters.filter { !$0.condition(current) })
            waiters = waiting
            return ready.map(\.continuation)
        }
    }

    /// What the client says when the stream refuses the token.
    static let unauthorizedMessage = "The server did not accept the access token. Run `feedline login example.social` to sign in again."

    let signedIn: Bool
    private let state = Locked(State())

    init(signedIn: Bool = true) {
        self.signedIn = signedIn
    }

    var client: UserStreamClient {
        UserStreamClient(
            signedIn: signedIn,
            open: { [self] endpoint in open(endpoint) },
            discover: { [self] in try discover() },
            unauthorizedMessage: Self.unauthorizedMessage
        )
    }

    /// The endpoints opened, in order.
    var opened: [StreamLifecycleState.Endpoint] { state.withLock { $0.opened } }
    /// How many times the server was asked where its stream lives.
    var discoveries: Int { state.withLock { $0.discoveries } }

    /// Whether connection `index` (from 0) was closed by the reader.
    func isClosed(_ index: Int) -> Bool { state.withLock { $0.closed.contains(index) } }

    /// Queues the answer to the next discovery.
    func answerDiscovery(_ answer: Result<URL?, MastodonHTTPError>) {
        state.withLock { $0.answers.append(answer) }
    }

    /// Sends `signals` on connection `index`, in order.
    func send(_ signals: EventStreamSignal..., on index: Int) {
        let connection = state.withLock { $0.connections[index] }
        for signal in signals { connection.yield(signal) }
        if case .ended? = signals.last { connection.finish() }
    }

    /// Ends connection `index` without an end signal, as a stream that just stops.
    func finish(_ index: Int) {
        state.withLock { $0.connections[index] }.finish()
    }

    /// Returns once `count` connections have been opened.
    func waitForOpens(_ count: Int) async {
        await wait { $0.connections.count >= count }
    }

    /// Returns once connection `index` has been closed by the reader.
    func waitForClose(_ index: Int) async {
        await wait { $0.closed.contains(index) }
    }

    /// Returns once `count` discoveries have been asked for.
    func waitForDiscoveries(_ count: Int) async {
        await wait { $0.discoveries >= count }
    }

    private func wait(_ condition: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if condition(state) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func open(_ endpoint: StreamLifecycleState.Endpoint) -> AsyncStream<EventStreamSignal> {
        if !signedIn { Issue.record("opened the user stream without a token") }
        let (stream, continuation) = AsyncStream.makeStream(of: EventStreamSignal.self)
        let ready = state.withLock { state in
            let index = state.connections.count
            state.opened.append(endpoint)
            state.connections.append(continuation)
            continuation.onTermination = { [self] termination in
                guard case .cancelled = termination else { return }
                let ready = self.state.withLock { state in
                    state.closed.insert(index)
                    return state.ready()
                }
                ready.forEach { $0.resume() }
            }
            return state.ready()
        }
        ready.forEach { $0.resume() }
        return stream
    }

    private func discover() throws -> URL? {
        let (answer, ready) = state.withLock { state in
            state.discoveries += 1
            let answer = state.answers.isEmpty ? nil : state.answers.removeFirst()
            return (answer, state.ready())
        }
        ready.forEach { $0.resume() }
        guard let answer else {
            Issue.record("asked where the stream lives with no answer queued")
            return nil
        }
        return try answer.get()
    }
}

/// A server for the session under live updates: home and #swift serve `posts`, and the calls
/// for newer items are answered from them (nothing newer than the first page); a hashtag's
/// header is answered too. Other calls fail the test, and fail at once.
func catchUpServer(posts: [Post], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
    GatedServer(
        posts: posts, feeds: [.home, .tag("swift")], answering: [.page, .newer, .notifications, .newerNotifications, .tag], sourceLocation: sourceLocation
    )
}

extension GatedServer {
    /// The calls for newer items so far, in order: `newer(home)`, `newerNotifications`.
    var catchUps: [String] {
        calls.compactMap { call in
            switch call.kind {
            case .newer: "newer(\(call.key))"
            case .newerNotifications: "newerNotifications"
            default: nil
            }
        }
    }
}
