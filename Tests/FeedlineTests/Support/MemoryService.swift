@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Synchronization
import Testing

/// An in-memory server that answers at once: a timeline newest first, pages by position, and
/// interactions by the shared ``ServerModel``. It serves only the kinds of call the test says it
/// expects; any other call fails the test. Faults are injected per call.
final class MemoryService: PartialService {
    /// A failure for lack of a connection (transient, the default) or a refusal.
    struct Failure: FeedServiceError, Equatable {
        var message: String
        var isTransient = true
        var errorDescription: String? { message }
    }

    private struct State {
        var server: ServerModel<Post>
        /// The timeline's entry ids, newest first.
        var timeline: [PostID]
        var pageSize: Int
        /// Interaction calls starting with this wait until ``releaseHeld()``.
        var holding: String?
        var held: [CheckedContinuation<Void, Never>] = []
        /// Calls to fail, by description prefix: how many more, and whether as refusals.
        var failures: [String: (count: Int, refused: Bool)] = [:]
        var calls: [String] = []

        /// The timeline's entries from `range`, as the server shows them now.
        func entries(_ range: Range<Int>) -> [Post] {
            timeline[range].compactMap { server.entry($0) }
        }
    }

    private let state: Locked<State>
    private let expectations: CallExpectations

    /// A server whose timeline is `posts` (newest first), answering `expecting` calls only.
    init(posts: [Post], pageSize: Int = 20, expecting: FeedCalls, sourceLocation: SourceLocation = #_sourceLocation) {
        state = Locked(State(server: ServerModel(posts), timeline: posts.map(\.id), pageSize: pageSize))
        expectations = CallExpectations("MemoryService", expecting: expecting, sourceLocation: sourceLocation)
    }

    /// Every call so far, e.g. `page(nil)`, `favourite(true, p1)`.
    var calls: [String] { state.withLock { $0.calls } }

    /// The server's copy of the original `id` names.
    func serverPost(_ id: PostID) -> Post? {
        state.withLock { $0.server.original(of: id) }
    }

    /// Makes the next `count` calls whose description starts with `prefix` fail: for lack of a
    /// connection ("The server is unavailable.", transient), or `refused` ("Not allowed.").
    func failNext(_ prefix: String, times count: Int = 1, refused: Bool = false) {
        state.withLock { state in state.failures[prefix] = ((state.failures[prefix]?.count ?? 0) + count, refused) }
    }

    /// Makes interaction calls whose description starts with `prefix` wait until ``releaseHeld()``.
    func holdNext(_ prefix: String) {
        state.withLock { $0.holding = prefix }
    }

    /// Lets every held call go on, and holds no more.
    func releaseHeld() {
        let held = state.withLock { state in
            defer { state.held = []; state.holding = nil }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Waits while `call` is held.
    private func waitIfHeld(_ call: String) async {
        await withCheckedContinuation { continuation in
            let hold = state.withLock { state in
                guard let prefix = state.holding, call.hasPrefix(prefix) else { return false }
                state.held.append(continuation)
                return true
            }
            if !hold { continuation.resume() }
        }
    }

    /// Edits the text of the post `id` on the server, telling nobody (as when a stream missed it).
    func edit(_ id: PostID, text: String) {
        update(id) { $0.text = text }
    }

    /// Changes the post `id` on the server, telling nobody.
    func update(_ id: PostID, _ change: (inout Post) -> Void) {
        state.withLock { _ = $0.server.update(id, change) }
    }

    /// Puts `posts` (newest first) on top of the timeline, as if just written.
    func arrive(_ posts: [Post]) {
        state.withLock { state in
            state.server.add(posts)
            state.timeline.insert(contentsOf: posts.map(\.id), at: 0)
        }
    }

    /// Logs `call`, fails the test unless `kind` is expected, and throws an injected failure.
    private func record(_ kind: FeedCalls, _ call: String) throws {
        state.withLock { $0.calls.append(call) }
        try expectations.check(kind, call)
        try state.withLock { state in
            if let key = state.failures.keys.sorted().first(where: { call.hasPrefix($0) && (state.failures[$0]?.count ?? 0) > 0 }),
                let failure = state.failures[key]
            {
                state.failures[key] = (failure.count - 1, failure.refused)
                throw failure.refused ? Failure(message: "Not allowed.", isTransient: false) : Failure(message: "The server is unavailable.")
            }
        }
    }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        try record(.pages, "page(\(cursor?.rawValue ?? "nil"))")
        return state.withLock { state in
            let start = cursor.flatMap { cursor in state.timeline.firstIndex { $0.rawValue == cursor.rawValue }.map { $0 + 1 } } ?? 0
            let end = min(state.timeline.count, start + state.pageSize)
            let posts = state.entries(start..<end)
            return Page(posts: posts, next: end < state.timeline.count ? posts.last.map { PageCursor($0.id.rawValue) } : nil)
        }
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        try record(.newer, "newer(\(lower), \(upper?.rawValue ?? "nil"))")
        return state.withLock { state in
            let lowerIndex = state.timeline.firstIndex(of: lower) ?? state.timeline.count
            let upperIndex = upper.flatMap { upper in state.timeline.firstIndex(of: upper) }.map { $0 + 1 } ?? 0
            guard upperIndex < lowerIndex else { return NewerPage(posts: [], hasMore: false) }
            let end = min(lowerIndex, upperIndex + state.pageSize)
            return NewerPage(posts: state.entries(upperIndex..<end), hasMore: end < lowerIndex)
        }
    }

    func post(_ id: PostID) async throws -> Post {
        try record(.posts, "post(\(id))")
        guard let post = serverPost(id) else { throw RecordNotFound() }
        return post
    }

    func context(of id: PostID) async throws -> PostContext {
        try record(.contexts, "context(\(id))")
        return PostContext()
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        let call = "\(kind)(\(value), \(postID))"
        try record(.interactions, call)
        await waitIfHeld(call)
        return try state.withLock { state in try state.server.set(kind, to: value, on: postID) }
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        try record(.notifications, "notifications(\(cursor?.rawValue ?? "nil"))")
        return Page(items: [], next: nil)
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        try record(.newerNotifications, "newerNotifications(\(lower), \(upper?.rawValue ?? "nil"))")
        return NewerPage(items: [], hasMore: false)
    }

    func account(named handle: String) async throws -> Author {
        try record(.accounts, "account(\(handle))")
        let author = state.withLock { state in state.entries(0..<state.timeline.count).first { $0.author.handle == handle }?.author }
        guard let author else { throw RecordNotFound() }
        return author
    }
}
