@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A small server whose every call waits until the test answers it, in any order, and whose
/// answers are computed at that moment from its own state — the reference the navigation model
/// check compares the view models with.
///
/// Sixteen original posts by four authors (threads: p2 → p1, p3 → p2, p6 → p5, p9 → p5), three
/// tags, two boost entries in home, four notification groups, held in a ``ServerModel``:
/// favourite, boost and bookmark change it when their call is answered. Every `set` call records
/// a violation when another `set` of the same original and kind is still waiting: the view models
/// promise at most one request per post and kind in flight. It serves only the kinds of call
/// the test expects; any other call fails the test.
final class ModelServer: PartialService {
    /// "The server is unavailable." is a failure for lack of a connection (transient); every
    /// other one ("Record not found", a wrong answer) is a refusal, as on Mastodon.
    struct Failure: FeedServiceError, Equatable {
        var message: String
        var errorDescription: String? { message }
        var isTransient: Bool { message == "The server is unavailable." }
    }

    private enum Answer: Sendable {
        case page(Page<Post>)
        case newer(NewerPage<Post>)
        case notifications(Page<NotificationGroup>)
        case newerNotifications(NewerPage<NotificationGroup>)
        case post(Post)
        case context(PostContext)
        case account(Author)
    }

    private struct Pending: Sendable {
        let description: String
        /// The effect that made the call (``CurrentEffect``).
        let effect: Int?
        /// The original and kind of a `set` call.
        let interaction: (PostID, InteractionKind)?
        let answer: @Sendable () throws -> Answer
        let continuation: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        var server: ServerModel<Post>
        var pending: [Pending] = []
        var violations: [String] = []
        var calls = 0
    }

    static let authors = (0..<4).map { Author(id: "a\($0)", displayName: "Author \($0)", handle: "author\($0)@model.example") }
    static let originals: [PostID] = (1...16).map { PostID("p\($0)") }
    static let replyTo: [PostID: PostID] = ["p2": "p1", "p3": "p2", "p6": "p5", "p9": "p5"]
    /// Boost entries: id → (original, booster).
    static let boosts: [PostID: (PostID, Int)] = ["b3": ("p3", 1), "b7": ("p7", 2)]
    static let tags = ["t0", "t1", "t2"]
    static let pageSize = 4
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    private let state: Locked<State>
    private let expectations: CallExpectations

    /// The server with its first state, answering `expecting` calls only.
    init(expecting: FeedCalls, sourceLocation: SourceLocation = #_sourceLocation) {
        let originals = Self.originals.enumerated().map { index, id in
            Self.render(id, ServerInteractions(
                favourited: index % 5 == 0, favourites: 10 + index + (index % 5 == 0 ? 1 : 0),
                reblogged: index % 7 == 0, reblogs: 3 + (index % 7 == 0 ? 1 : 0), bookmarked: index % 4 == 1
            ))
        }
        let boosts = Self.boosts.map { id, boost in
            Post(
                id: id, author: Self.authors[boost.1], text: "", createdAt: Self.epoch.addingTimeInterval(Double(20 + Self.number(boost.0)) * 60),
                reblog: originals.first { $0.id == boost.0 }
            )
        }
        state = Locked(State(server: ServerModel(originals + boosts)))
        expectations = CallExpectations("ModelServer", expecting: expecting, sourceLocation: sourceLocation)
    }

    // MARK: - The test's side

    /// Calls waiting for an answer.
    var pendingCount: Int { state.withLock { $0.pending.count } }
    /// The effects waiting for an answer: one effect may wait for two calls at once.
    var waitingEffects: Int {
        state.withLock { state in
            Set(state.pending.compactMap(\.effect)).count + state.pending.count { $0.effect == nil }
        }
    }
    /// Descriptions of the waiting calls, oldest first.
    var pendingCalls: [String] { state.withLock { $0.pending.map(\.description) } }
    /// Broken promises seen so far (two requests in flight for one post and kind).
    var violations: [String] { state.withLock { $0.violations } }
    /// Calls made so far.
    var calls: Int { state.withLock { $0.calls } }

    /// The server's state of the original `id`.
    func flags(_ id: PostID) -> ServerInteractions? { state.withLock { $0.server.interactions(of: id) } }

    /// Answers the waiting call at `index` (it fails with "The server is unavailable." when
    /// `failing`); the answer is computed now, from the server's state now.
    func answer(at index: Int, failing: Bool) {
        let taken: Pending? = state.withLock { state in
            guard state.pending.indices.contains(index) else { return nil }
            return state.pending.remove(at: index)
        }
        guard let taken else { return }
        if failing {
            taken.continuation.resume(throwing: Failure(message: "The server is unavailable."))
            return
        }
        do {
            taken.continuation.resume(returning: try taken.answer())
        } catch {
            taken.continuation.resume(throwing: error)
        }
    }

    // MARK: - Content

    static func original(of id: PostID) -> PostID { boosts[id]?.0 ?? id }

    private static func number(_ id: PostID) -> Int { Int(id.rawValue.dropFirst()) ?? 0 }

    /// The original `id` as the server first has it.
    private static func render(_ id: PostID, _ flags: ServerInteractions) -> Post {
        let number = number(id)
        return Post(
            id: id, author: authors[number % authors.count], text: "post \(number)",
            createdAt: epoch.addingTimeInterval(Double(number) * 60),
            repliesCount: replyTo.values.filter { $0 == id }.count,
            reblogsCount: flags.reblogs, favouritesCount: flags.favourites,
            favourited: flags.favourited, reblogged: flags.reblogged, bookmarked: flags.bookmarked,
            tags: [tags[number % tags.count]], inReplyToID: replyTo[id]
        )
    }

    /// The entries of `feed` now, newest first.
    private func entries(_ feed: Feed, in state: State) -> [PostID] {
        let newestFirst = Self.originals.reversed()
        switch feed {
        case .home:
            var ids: [PostID] = ["b7", "b3"]
            ids += newestFirst
            return ids
        case .local, .public, .list, .trending: return Array(newestFirst)
        case .tag(let name): return newestFirst.filter { Self.tags[Self.number($0) % Self.tags.count] == name }
        case .account(let account):
            let index = Self.authors.firstIndex { $0.id == account.rawValue || "@" + $0.handle == account.rawValue } ?? -1
            let boosted = Self.boosts.filter { $0.value.1 == index }.keys.sorted { $0.rawValue < $1.rawValue }
            return boosted + newestFirst.filter { Self.number($0) % Self.authors.count == index }
        case .bookmarks: return newestFirst.filter { state.server.interactions(of: $0)?.bookmarked == true }
        case .favourites: return newestFirst.filter { state.server.interactions(of: $0)?.favourited == true }
        }
    }

    private func page<Item>(_ items: [Item], id: (Item) -> String, after cursor: PageCursor?) -> Page<Item> {
        let start = cursor.flatMap { cursor in items.firstIndex { id($0) == cursor.rawValue }.map { $0 + 1 } } ?? 0
        let slice = Array(items[min(start, items.count)..<min(start + Self.pageSize, items.count)])
        let next = start + Self.pageSize < items.count ? slice.last.map { PageCursor(id($0)) } : nil
        return Page(items: slice, next: next)
    }

    private func groups(in state: State) -> [NotificationGroup] {
        func post(_ id: PostID) -> Post? { state.server.entry(id) }
        return [
            NotificationGroup(id: "g1", kind: .favourite, accounts: [Self.authors[1], Self.authors[2]], count: 2, post: post("p1"),
                              latestAt: Self.epoch.addingTimeInterval(9000), newestID: "n9", oldestID: "n8"),
            NotificationGroup(id: "g2", kind: .reblog, accounts: [Self.authors[3]], count: 1, post: post("p2"),
                              latestAt: Self.epoch.addingTimeInterval(8000), newestID: "n7"),
            NotificationGroup(id: "g3", kind: .follow, accounts: [Self.authors[0]], count: 1,
                              latestAt: Self.epoch.addingTimeInterval(7000), newestID: "n6"),
            NotificationGroup(id: "g4", kind: .mention, accounts: [Self.authors[2]], count: 1, post: post("p9"),
                              latestAt: Self.epoch.addingTimeInterval(6000), newestID: "n5"),
            NotificationGroup(id: "g5", kind: .favourite, accounts: [Self.authors[0]], count: 1, post: post("p3"),
                              latestAt: Self.epoch.addingTimeInterval(5000), newestID: "n4"),
        ]
    }

    // MARK: - Waiting

    private func wait(
        _ kind: FeedCalls, _ description: String, interaction: (PostID, InteractionKind)? = nil, _ answer: @escaping @Sendable () throws -> Answer
    ) async throws -> Answer {
        try expectations.check(kind, description)
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                state.calls += 1
                if let (id, kind) = interaction,
                    state.pending.contains(where: { $0.interaction.map { $0.0 == id && $0.1 == kind } ?? false }) {
                    state.violations.append("two \(kind) requests in flight for \(id)")
                }
                state.pending.append(Pending(
                    description: description, effect: CurrentEffect.number, interaction: interaction, answer: answer, continuation: continuation
                ))
            }
        }
    }

    // MARK: - FeedService

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        let answer = try await wait(.pages, "page(\(feed), \(cursor?.rawValue ?? "nil"))") {
            .page(self.state.withLock { state in
                let page = self.page(self.entries(feed, in: state), id: \.rawValue, after: cursor)
                return Page(items: page.items.compactMap { state.server.entry($0) }, next: page.next)
            })
        }
        guard case .page(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        let answer = try await wait(.newer, "newer(\(feed))") { .newer(NewerPage(items: [], hasMore: false)) }
        guard case .newer(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        let answer = try await wait(.notifications, "notifications(\(cursor?.rawValue ?? "nil"))") {
            .notifications(self.state.withLock { state in self.page(self.groups(in: state), id: \.oldestID.rawValue, after: cursor) })
        }
        guard case .notifications(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        let answer = try await wait(.newerNotifications, "newerNotifications") { .newerNotifications(NewerPage(items: [], hasMore: false)) }
        guard case .newerNotifications(let page) = answer else { throw Failure(message: "wrong answer") }
        return page
    }

    func post(_ id: PostID) async throws -> Post {
        let answer = try await wait(.posts, "post(\(id))") {
            guard let post = self.state.withLock({ $0.server.entry(id) }) else { throw RecordNotFound() }
            return .post(post)
        }
        guard case .post(let post) = answer else { throw Failure(message: "wrong answer") }
        return post
    }

    func context(of id: PostID) async throws -> PostContext {
        let answer = try await wait(.contexts, "context(\(id))") {
            .context(self.state.withLock { state in
                let focus = Self.original(of: id)
                var ancestors: [Post] = []
                var above = Self.replyTo[focus]
                while let parent = above, let post = state.server.entry(parent) {
                    ancestors.insert(post, at: 0)
                    above = Self.replyTo[parent]
                }
                var descendants: [Post] = []
                func replies(to parent: PostID) {
                    for child in Self.originals where Self.replyTo[child] == parent {
                        if let post = state.server.entry(child) { descendants.append(post) }
                        replies(to: child)
                    }
                }
                replies(to: focus)
                return PostContext(ancestors: ancestors, descendants: descendants)
            })
        }
        guard case .context(let context) = answer else { throw Failure(message: "wrong answer") }
        return context
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        let original = Self.original(of: postID)
        let answer = try await wait(.interactions, "\(kind)(\(value), \(postID))", interaction: (original, kind)) {
            .post(try self.state.withLock { state in try state.server.set(kind, to: value, on: postID) })
        }
        guard case .post(let post) = answer else { throw Failure(message: "wrong answer") }
        return post
    }

    func account(named handle: String) async throws -> Author {
        let answer = try await wait(.accounts, "account(\(handle))") {
            let wanted = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
            guard let author = Self.authors.first(where: { $0.handle == wanted }) else { throw RecordNotFound() }
            return .account(author)
        }
        guard case .account(let author) = answer else { throw Failure(message: "wrong answer") }
        return author
    }
}
