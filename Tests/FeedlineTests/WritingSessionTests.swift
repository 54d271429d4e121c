import Feedline
import FeedlineTestSupport
import Foundation
import Synchronization
import Testing

/// A server of a few fixed posts that takes posts and deletes: what the session-level writing
/// tests need, and nothing else.
final class WritingServer: FeedService {
    struct Refusal: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { "This action is not allowed." }
    }

    private let posts: Mutex<[Post]>
    private let refuseDeletes: Bool
    let me = alice

    init(posts: [Post], refuseDeletes: Bool = false) {
        self.posts = Mutex(posts)
        self.refuseDeletes = refuseDeletes
    }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        let all = posts.withLock { $0 }
        switch feed {
        case .account(let id): return Page(posts: all.filter { $0.author.id == id.rawValue }, next: nil)
        default: return Page(posts: all, next: nil)
        }
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        NewerPage(posts: [], hasMore: false)
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> { Page(items: [], next: nil) }
    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        NewerPage(items: [], hasMore: false)
    }

    func post(_ id: PostID) async throws -> Post {
        guard let post = posts.withLock({ $0.first { $0.id == id } }) else { throw Refusal() }
        return post.content
    }

    func context(of id: PostID) async throws -> PostContext {
        let all = posts.withLock { $0 }.filter { $0.reblog == nil }
        return PostContext(ancestors: [], descendants: all.filter { $0.inReplyToID == id })
    }

    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post { throw Refusal() }
    func account(named handle: String) async throws -> Author { me }
    func composeSettings() async throws -> ComposeSettings { ComposeSettings(account: me) }

    func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        let post = Post(
            id: PostID("n\(posts.withLock { $0.count })"), author: me, text: draft.text, createdAt: testNow, inReplyToID: draft.inReplyTo,
            visibility: draft.visibility
        )
        posts.withLock { $0.insert(post, at: 0) }
        return post
    }

    func delete(_ id: PostID) async throws -> Post {
        if refuseDeletes { throw Refusal() }
        return try posts.withLock { posts in
            guard let index = posts.firstIndex(where: { $0.id == id }) else { throw Refusal() }
            posts.removeAll { $0.id == id || $0.reblog?.id == id }
            return posts.indices.contains(index) ? posts[index] : makePost(id.rawValue)
        }
    }
}

@MainActor
@Suite("Writing on the stack", .timeLimit(.minutes(10)))
struct WritingSessionTests {
    private func ids(_ rows: some Sequence<ListRow>) -> [String] { ListStateStreamTests.ids(rows) }

    /// Home shows p1, w1 (Bob's boost of o1), o1, p2; the stack: home › thread o1 › @alice ›
    /// post o1 › thread o1 › post o1 (depth 6).
    private func deepStack(_ server: WritingServer) async throws -> FeedSession {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        session.navigator.push(.thread("o1"))
        session.navigator.push(.feed(.account(AccountID(alice.id))))
        session.navigator.open("o1")
        session.navigator.push(.thread("o1"))
        session.navigator.open("o1")
        for screen in session.navigator.screens { if case .list(let list) = screen { list.appeared() } }
        await session.settle()
        #expect(session.navigator.depth == 6)
        return session
    }

    static func posts() -> [Post] {
        let original = makePost("o1", minutesAgo: 10)
        return [makePost("p1", minutesAgo: 1), makePost("w1", minutesAgo: 2, author: bob, reblog: original), original, makePost("p2", minutesAgo: 20)]
    }

    @Test("a delete made at depth 6 takes the post and its boosts off every list beneath at once, and marks both details deleted")
    func deleteAtDepth() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts()))
        let lists = session.navigator.screens.compactMap(\.list)
        #expect(lists.allSatisfy { !$0.rows(showing: "o1").isEmpty })
        var outcome: Result<Post, FeedFailure>?
        session.delete(post: "o1") { outcome = $0 }
        // At once, before the server answered.
        #expect(ids(session.root.rows) == ["p1", "p2"])
        #expect(lists.allSatisfy { $0.rows(showing: "o1").isEmpty })
        let details = session.navigator.screens.compactMap(\.detail)
        #expect(details.allSatisfy { $0.current.deleted })
        await session.settle()
        #expect(try outcome?.get() != nil)
        #expect(ids(session.root.rows) == ["p1", "p2"])
    }

    @Test("a delete the server refuses puts every row back where it was and the details load the post again")
    func refusedDeleteRollsBack() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts(), refuseDeletes: true))
        let lists = session.navigator.screens.compactMap(\.list)
        let before = lists.map { ids($0.rows) }
        var outcome: Result<Post, FeedFailure>?
        session.delete(post: "o1") { outcome = $0 }
        #expect(ids(session.root.rows) == ["p1", "p2"])
        await session.settle()
        #expect(outcome.map { if case .failure(let failure) = $0 { failure.message } else { "" } } == "This action is not allowed.")
        #expect(lists.map { ids($0.rows) } == before)
        let details = session.navigator.screens.compactMap(\.detail)
        #expect(details.allSatisfy { !$0.current.deleted && $0.current.post?.id == "o1" })
        #expect(lists.allSatisfy { $0.state.checkInvariants().isEmpty })
    }

    @Test("one's own post shows at once on top of home and of one's profile, and under its parent in an open thread")
    func ownPostEverywhere() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts()))
        let draft = session.drafts.startReply(to: try #require(session.store.post("o1")))
        session.drafts.update(draft) { $0.text += "a reply" }
        #expect(session.drafts.send(draft).isEmpty)
        await session.settle()
        let sent = try #require(session.store.post("n4"))
        #expect(sent.inReplyToID == "o1")
        #expect(ids(session.root.rows).first == "n4")
        let profile = try #require(session.navigator.screens[2].list)
        #expect(ids(profile.rows).first == "n4")
        for index in [1, 4] {
            let thread = try #require(session.navigator.screens[index].list)
            #expect(ids(thread.rows).contains("n4"), "thread at \(index): \(ids(thread.rows))")
        }
        #expect(session.drafts.all.isEmpty)
    }
}
