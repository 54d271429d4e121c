import Feedline
import FeedlineTestSupport
import Foundation

import Testing

/// A server of a few fixed posts that takes posts and deletes: what the session-level writing
/// tests need, and nothing else.
final class WritingServer: FeedService {
    struct Refusal: FeedServiceError {
        var isTransient: Bool { false }
        var errorDescription: String? { "This action is not allowed." }
    }

    private let posts: Locked<[Post]>
    private let refuseDeletes: Bool
    /// Refuse edits (a 422) and votes as "already voted", answering with this poll.
    let refuseEdits: Bool
    let votedPoll: Poll?
    let me = alice

    init(posts: [Post], refuseDeletes: Bool = false, refuseEdits: Bool = false, votedPoll: Poll? = nil) {
        self.posts = Locked(posts)
        self.refuseDeletes = refuseDeletes
        self.refuseEdits = refuseEdits
        self.votedPoll = votedPoll
    }

    func source(of id: PostID) async throws -> PostSource {
        guard let post = posts.withLock({ $0.first { $0.id == id } }) else { throw Refusal() }
        return PostSource(text: post.text + " (as typed)", contentWarning: post.contentWarning)
    }

    func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll {
        if let votedPoll {
            posts.withLock { posts in
                if let index = posts.firstIndex(where: { $0.id == postID }) { posts[index].poll = votedPoll }
            }
            throw Refusal()
        }
        guard var poll = posts.withLock({ $0.first { $0.id == postID } })?.poll else { throw Refusal() }
        for choice in choices { poll.options[choice].votes = (poll.options[choice].votes ?? 0) + 1 }
        poll.votesCount += choices.count
        poll.voted = true
        poll.ownVotes = choices
        return poll
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
        if let id = draft.editing {
            if refuseEdits { throw Refusal() }
            return try posts.withLock { posts in
                guard let index = posts.firstIndex(where: { $0.id == id }) else { throw Refusal() }
                posts[index].text = draft.text
                posts[index].editedAt = testNow
                return posts[index]
            }
        }
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

    @Test("an edit shows at once on the post's own row, its boost row and its detail; the server's copy then replaces it")
    func editEverywhere() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts()))
        var started: Result<DraftID, FeedFailure>?
        session.drafts.startEdit(of: try #require(session.store.post("w1"))) { started = $0 }
        await session.settle()
        let id = try #require(try started?.get())
        #expect(session.drafts[id]?.draft.text == "post o1 (as typed)")
        #expect(session.drafts[id]?.draft.editing == "o1")
        session.drafts.update(id) { $0.text = "edited o1" }
        #expect(session.drafts.send(id).isEmpty)
        // At once: every row of o1 (its own, the boost w1) and both details.
        let home = session.root.rows
        #expect(home.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.text == "edited o1" && $0.content.editedAt != nil })
        #expect(session.navigator.screens.compactMap(\.detail).allSatisfy { $0.current.post?.text == "edited o1" })
        await session.settle()
        #expect(session.store.post("o1")?.text == "edited o1")
        #expect(!session.store.isEditing("o1"))
    }

    @Test("an edit the server refuses puts the post back as it was everywhere, and keeps the draft with the reason")
    func refusedEditRollsBack() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts(), refuseEdits: true))
        var started: Result<DraftID, FeedFailure>?
        session.drafts.startEdit(of: try #require(session.store.post("o1"))) { started = $0 }
        await session.settle()
        let id = try #require(try started?.get())
        session.drafts.update(id) { $0.text = "edited o1" }
        session.drafts.send(id)
        #expect(session.store.post("o1")?.text == "edited o1")
        await session.settle()
        #expect(session.store.post("o1")?.text == "post o1")
        #expect(session.root.rows.compactMap(\.post).filter { $0.originalID == "o1" }.allSatisfy { $0.content.text == "post o1" })
        #expect(session.drafts[id]?.refusal == "This action is not allowed.")
        #expect(session.drafts[id]?.isEditable == true)
    }

    @Test("one edit of a post on its way at a time: a second one is held back with a sentence")
    func oneEditInFlight() async throws {
        let session = try await deepStack(WritingServer(posts: Self.posts()))
        let post = try #require(session.store.post("o1"))
        var first: DraftID?
        session.drafts.startEdit(of: post) { first = try? $0.get() }
        await session.settle()
        let id = try #require(first)
        session.drafts.send(id)
        // A second edit started meanwhile is the same draft; a separate one is refused while the first flies.
        var again: DraftID?
        session.drafts.startEdit(of: post) { again = try? $0.get() }
        #expect(again == id)
        await session.settle()
        #expect(session.drafts.all.isEmpty)
    }

    static func pollPost(voted: Bool = false) -> Post {
        var post = makePost("q1", minutesAgo: 3, author: bob)
        post.poll = Poll(
            options: [.init(title: "yes", votes: 1), .init(title: "no", votes: 2)], votesCount: 3, expired: false,
            expiresAt: testNow.addingTimeInterval(3_600), id: "poll1", voted: voted
        )
        return post
    }

    @Test("a vote shows at once on every row and detail of the poll, and the server's poll replaces it")
    func voteEverywhere() async throws {
        let session = FeedSession(service: WritingServer(posts: [Self.pollPost()]), clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        session.navigator.open("q1")
        await session.settle()
        var outcome: FeedFailure??
        #expect(session.vote(post: "q1", choices: [1]) { outcome = .some($0) } == nil)
        #expect(session.root.rows.first?.post?.content.poll?.options[1].votes == 3)
        #expect(session.navigator.top.detail?.current.post?.poll?.ownVotes == [1])
        #expect(session.vote(post: "q1", choices: [0]) { _ in } == .inFlight)
        await session.settle()
        #expect(outcome == .some(nil))
        #expect(session.store.post("q1")?.poll?.voted == true)
        #expect(session.vote(post: "q1", choices: [0]) { _ in } == .votedAlready)
        #expect(session.vote(post: "q1", choices: [5]) { _ in } == .votedAlready)
    }

    @Test("a vote the server refuses (voted elsewhere) adopts the server's poll; bad choices are refused before sending")
    func refusedVoteAdoptsTheServersPoll() async throws {
        var serverPoll = try #require(Self.pollPost().poll)
        serverPoll.voted = true
        serverPoll.ownVotes = [0]
        serverPoll.options[0].votes = 2
        serverPoll.votesCount = 4
        let session = FeedSession(
            service: WritingServer(posts: [Self.pollPost()], votedPoll: serverPoll), clock: .fixed(testNow), retryClock: ManualClock()
        )
        session.root.appeared()
        await session.settle()
        #expect(session.vote(post: "q1", choices: [0, 1]) { _ in } == .oneChoiceOnly)
        #expect(session.vote(post: "q1", choices: [2]) { _ in } == .badChoice(2))
        var outcome: FeedFailure??
        session.vote(post: "q1", choices: [1]) { outcome = .some($0) }
        await session.settle()
        #expect(outcome??.message == "This action is not allowed.")
        #expect(session.store.post("q1")?.poll == serverPoll)
        #expect(session.root.rows.first?.post?.content.poll == serverPoll)
    }

    @Test("a redraft deletes the post everywhere and makes a draft of its source, keeping its reply target")
    func redraft() async throws {
        var reply = makePost("r1", minutesAgo: 4)
        reply.inReplyToID = "o1"
        reply.visibility = .private
        let session = FeedSession(service: WritingServer(posts: Self.posts() + [reply]), clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        await session.settle()
        var made: Result<DraftID, FeedFailure>?
        session.redraft(post: "r1") { made = $0 }
        await session.settle()
        let id = try #require(try made?.get())
        let draft = try #require(session.drafts[id]?.draft)
        #expect(draft.text == "post r1 (as typed)")
        #expect(draft.inReplyTo == "o1" && draft.visibility == .private && draft.editing == nil)
        #expect(!ids(session.root.rows).contains("r1"))
    }
}
