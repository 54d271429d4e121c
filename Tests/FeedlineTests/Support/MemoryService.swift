import Feedline
import Foundation
import Synchronization

/// An in-memory server that answers at once: a timeline newest first, pages by position,
/// favourite / reblog that change its state. Faults are injected per call kind.
final class MemoryService: FeedService {
    /// A failure for lack of a connection (transient, the default) or a refusal.
    struct Failure: FeedServiceError, Equatable {
        var message: String
        var isTransient = true
        var errorDescription: String? { message }
    }

    private struct State {
        var timeline: [Post]
        var pageSize: Int
        /// Interaction calls starting with this wait until ``releaseHeld()``.
        var holding: String?
        var held: [CheckedContinuation<Void, Never>] = []
        /// Calls to fail, by description prefix: how many more, and whether as refusals.
        var failures: [String: (count: Int, refused: Bool)] = [:]
        var calls: [String] = []
    }

    private let state: Locked<State>

    init(posts: [Post], pageSize: Int = 20) {
        state = Locked(State(timeline: posts, pageSize: pageSize))
    }

    /// Every call so far, e.g. `page(nil)`, `favourite(true, p1)`.
    var calls: [String] { state.withLock { $0.calls } }

    /// The server's copy of the original post `id`.
    func serverPost(_ id: PostID) -> Post? {
        state.withLock { state in state.timeline.first { $0.id == id }?.content ?? state.timeline.compactMap(\.reblog).first { $0.id == id } }
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
        _ = try? mutate(id, change)
    }

    /// Puts `posts` (newest first) on top of the timeline, as if just written.
    func arrive(_ posts: [Post]) {
        state.withLock { $0.timeline.insert(contentsOf: posts, at: 0) }
    }

    private func record(_ call: String) throws {
        try state.withLock { state in
            state.calls.append(call)
            if let key = state.failures.keys.sorted().first(where: { call.hasPrefix($0) && (state.failures[$0]?.count ?? 0) > 0 }),
                let failure = state.failures[key]
            {
                state.failures[key] = (failure.count - 1, failure.refused)
                throw failure.refused ? Failure(message: "Not allowed.", isTransient: false) : Failure(message: "The server is unavailable.")
            }
        }
    }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        try record("page(\(cursor?.rawValue ?? "nil"))")
        return state.withLock { state in
            let start = cursor.flatMap { cursor in state.timeline.firstIndex { $0.id.rawValue == cursor.rawValue }.map { $0 + 1 } } ?? 0
            let end = min(state.timeline.count, start + state.pageSize)
            let posts = Array(state.timeline[start..<end]).map { self.withInteraction($0, in: state) }
            return Page(posts: posts, next: end < state.timeline.count ? posts.last.map { PageCursor($0.id.rawValue) } : nil)
        }
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        try record("newer(\(lower), \(upper?.rawValue ?? "nil"))")
        return state.withLock { state in
            let lowerIndex = state.timeline.firstIndex { $0.id == lower } ?? state.timeline.count
            let upperIndex = upper.flatMap { upper in state.timeline.firstIndex { $0.id == upper } }.map { $0 + 1 } ?? 0
            guard upperIndex < lowerIndex else { return NewerPage(posts: [], hasMore: false) }
            let end = min(lowerIndex, upperIndex + state.pageSize)
            let posts = Array(state.timeline[upperIndex..<end]).map { self.withInteraction($0, in: state) }
            return NewerPage(posts: posts, hasMore: end < lowerIndex)
        }
    }

    func post(_ id: PostID) async throws -> Post {
        try record("post(\(id))")
        guard let post = serverPost(id) else { throw Failure(message: "Record not found") }
        return post
    }

    func context(of id: PostID) async throws -> PostContext {
        try record("context(\(id))")
        return PostContext()
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        try record("\(kind)(\(value), \(postID))")
        await waitIfHeld("\(kind)(\(value), \(postID))")
        return try mutate(postID) { post in
            switch kind {
            case .favourite:
                if post.favourited != value { post.favouritesCount += value ? 1 : -1 }
                post.favourited = value
            case .reblog:
                if post.reblogged != value { post.reblogsCount += value ? 1 : -1 }
                post.reblogged = value
            case .bookmark:
                post.bookmarked = value
            }
        }
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        try record("notifications(\(cursor?.rawValue ?? "nil"))")
        return Page(items: [], next: nil)
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        try record("newerNotifications(\(lower), \(upper?.rawValue ?? "nil"))")
        return NewerPage(items: [], hasMore: false)
    }

    func account(named handle: String) async throws -> Author {
        try record("account(\(handle))")
        guard let author = state.withLock({ $0.timeline.first { $0.author.handle == handle }?.author }) else {
            throw Failure(message: "Record not found")
        }
        return author
    }

    private func mutate(_ id: PostID, _ change: (inout Post) -> Void) throws -> Post {
        try state.withLock { state in
            var found: Post?
            for index in state.timeline.indices {
                if state.timeline[index].id == id {
                    change(&state.timeline[index])
                    found = state.timeline[index]
                } else if var original = state.timeline[index].reblog, original.id == id {
                    change(&original)
                    state.timeline[index].reblog = original
                    found = original
                }
            }
            guard let found else { throw Failure(message: "Record not found") }
            return found
        }
    }

    /// Keeps every copy of an original consistent with the first one found.
    private func withInteraction(_ post: Post, in state: State) -> Post { post }
}
