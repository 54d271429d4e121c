@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Synchronization
import Testing

/// A `FeedService` whose calls wait until the test answers them, in any order. Every call is
/// logged. It is told which kinds of call the test expects: those wait for the test, and any
/// other call fails the test and fails at once, never left waiting.
final class ControlledService: PartialService {
    enum Call: Hashable, Sendable, CustomStringConvertible {
        case page(PageCursor?, feed: Feed = .home)
        case newer(than: PostID, olderThan: PostID?, feed: Feed = .home)
        case notifications(PageCursor?)
        case newerNotifications(than: ItemID, olderThan: ItemID?)
        case post(PostID)
        case context(PostID)
        case favourite(Bool, PostID)
        case reblog(Bool, PostID)
        case bookmark(Bool, PostID)
        case pin(Bool, PostID)
        case muteThread(Bool, PostID)
        case account(String)

        var description: String {
            switch self {
            case .page(let cursor, let feed): "page(\(cursor?.rawValue ?? "nil")\(feed == .home ? "" : ", \(feed)"))"
            case .newer(let lower, let upper, let feed): "newer(\(lower), \(upper?.rawValue ?? "nil")\(feed == .home ? "" : ", \(feed)"))"
            case .notifications(let cursor): "notifications(\(cursor?.rawValue ?? "nil"))"
            case .newerNotifications(let lower, let upper): "newerNotifications(\(lower), \(upper?.rawValue ?? "nil"))"
            case .post(let id): "post(\(id))"
            case .context(let id): "context(\(id))"
            case .favourite(let value, let id): "favourite(\(value), \(id))"
            case .reblog(let value, let id): "reblog(\(value), \(id))"
            case .bookmark(let value, let id): "bookmark(\(value), \(id))"
            case .pin(let value, let id): "pin(\(value), \(id))"
            case .muteThread(let value, let id): "muteThread(\(value), \(id))"
            case .account(let handle): "account(\(handle))"
            }
        }

        /// Its kind, as a test expects it.
        var kind: FeedCalls {
            switch self {
            case .page: .pages
            case .newer: .newer
            case .notifications: .notifications
            case .newerNotifications: .newerNotifications
            case .post: .posts
            case .context: .contexts
            case .favourite, .reblog, .bookmark, .pin, .muteThread: .interactions
            case .account: .accounts
            }
        }

        /// What an interaction call asks for; `nil` for other calls.
        var interaction: (kind: InteractionKind, value: Bool, id: PostID)? {
            switch self {
            case .favourite(let value, let id): (.favourite, value, id)
            case .reblog(let value, let id): (.reblog, value, id)
            case .bookmark(let value, let id): (.bookmark, value, id)
            case .pin(let value, let id): (.pin, value, id)
            case .muteThread(let value, let id): (.muteThread, value, id)
            default: nil
            }
        }
    }

    enum Response: Sendable {
        case page(Page<Post>)
        case newer(NewerPage<Post>)
        case notifications(Page<NotificationGroup>)
        case newerNotifications(NewerPage<NotificationGroup>)
        case post(Post)
        case context(PostContext)
        case account(Author)
    }

    /// A failure for lack of a connection (transient, the default) or a refusal.
    struct Failure: FeedServiceError, Equatable {
        var message: String
        var isTransient = true
        var errorDescription: String? { message }
    }

    private struct Pending {
        let id: Int
        let call: Call
        let continuation: CheckedContinuation<Response, any Error>
    }

    private struct State {
        var nextID = 0
        var pending: [Pending] = []
        var log: [Call] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Whether a call the test did not expect came (the test has failed).
        var gotUnexpected = false
    }

    private let state = Locked(State())
    private let expectations: CallExpectations

    /// A service whose `expecting` calls wait for the test; any other call fails the test.
    init(expecting: FeedCalls, sourceLocation: SourceLocation = #_sourceLocation) {
        expectations = CallExpectations("ControlledService", expecting: expecting, sourceLocation: sourceLocation)
    }

    /// Every call made so far, in order.
    var log: [Call] { state.withLock { $0.log } }
    /// Calls waiting for an answer, oldest first.
    var pending: [Call] { state.withLock { $0.pending.map(\.call) } }

    /// Returns once at least `count` calls are waiting, or at once after a call the test did not
    /// expect (which has failed the test).
    func waitForPending(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.pending.count >= count || state.gotUnexpected { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Answers the oldest pending `call` with `response`. Returns false when no such call waits.
    @discardableResult
    func answer(_ call: Call, with response: Response) -> Bool {
        guard let pending = take(call) else { return false }
        pending.continuation.resume(returning: response)
        return true
    }

    /// Fails the oldest pending `call` with `message`: for lack of a connection, or refused.
    @discardableResult
    func fail(_ call: Call, message: String = "The server is unavailable.", transient: Bool = true) -> Bool {
        guard let pending = take(call) else { return false }
        pending.continuation.resume(throwing: Failure(message: message, isTransient: transient))
        return true
    }

    /// Answers the pending call at `index` (in `pending` order) with `result`.
    func settle(at index: Int, with result: Result<Response, Failure>) {
        let taken: Pending? = state.withLock { state in
            guard state.pending.indices.contains(index) else { return nil }
            return state.pending.remove(at: index)
        }
        guard let taken else { return }
        switch result {
        case .success(let response): taken.continuation.resume(returning: response)
        case .failure(let failure): taken.continuation.resume(throwing: failure)
        }
    }

    private func take(_ call: Call) -> Pending? {
        state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.call == call }) else { return nil }
            return state.pending.remove(at: index)
        }
    }

    private func suspend(_ call: Call) async throws -> Response {
        do {
            try expectations.check(call.kind, call.description)
        } catch {
            // The test has failed: whoever waits for calls goes on to the end rather than hang.
            let waiters = state.withLock { state in
                state.log.append(call)
                state.gotUnexpected = true
                defer { state.waiters = [] }
                return state.waiters.map(\.continuation)
            }
            for waiter in waiters { waiter.resume() }
            throw error
        }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.nextID += 1
                state.pending.append(Pending(id: state.nextID, call: call, continuation: continuation))
                state.log.append(call)
                let count = state.pending.count
                let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
                state.waiters.removeAll { $0.count <= count }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
    }

    // MARK: - FeedService

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        guard case .page(let page) = try await suspend(.page(cursor, feed: feed)) else { throw Failure(message: "wrong response") }
        return page
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        guard case .newer(let page) = try await suspend(.newer(than: lower, olderThan: upper, feed: feed)) else { throw Failure(message: "wrong response") }
        return page
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        guard case .notifications(let page) = try await suspend(.notifications(cursor)) else { throw Failure(message: "wrong response") }
        return page
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        guard case .newerNotifications(let page) = try await suspend(.newerNotifications(than: lower, olderThan: upper)) else {
            throw Failure(message: "wrong response")
        }
        return page
    }

    func post(_ id: PostID) async throws -> Post {
        guard case .post(let post) = try await suspend(.post(id)) else { throw Failure(message: "wrong response") }
        return post
    }

    func context(of id: PostID) async throws -> PostContext {
        guard case .context(let context) = try await suspend(.context(id)) else { throw Failure(message: "wrong response") }
        return context
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        let call: Call = switch kind {
        case .favourite: .favourite(value, postID)
        case .reblog: .reblog(value, postID)
        case .bookmark: .bookmark(value, postID)
        case .pin: .pin(value, postID)
        case .muteThread: .muteThread(value, postID)
        }
        guard case .post(let post) = try await suspend(call) else { throw Failure(message: "wrong response") }
        return post
    }

    func account(named handle: String) async throws -> Author {
        guard case .account(let author) = try await suspend(.account(handle)) else { throw Failure(message: "wrong response") }
        return author
    }
}
