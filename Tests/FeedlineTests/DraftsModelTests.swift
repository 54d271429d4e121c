@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation

import Testing

/// A server of posts only: each `publish` draws its fate from a seeded generator — made and
/// answered, made with the answer lost, not made for lack of a connection, rate limited,
/// refused, or made (or not) while the client is killed — and honours idempotency keys.
private final class PostingServer: EmptyReads {
    enum Fate: CaseIterable { case answered, answerLost, down, rateLimited, refused, killedAfterCommit, killedBeforeCommit }

    struct Failure: FeedServiceError {
        var message: String
        var isTransient: Bool
        var retryAfter: Duration?
        var errorDescription: String? { message }
    }

    struct State {
        var generator: SeededGenerator
        /// Every post made: its id, its text now, and the text it was made with.
        var posts: [(id: PostID, text: String, made: String)] = []
        var deleted: Set<PostID> = []
        var keys: [String: PostID] = [:]
        var killed = false
        var calls = 0
    }

    let me = Author(id: "me", displayName: "Me", handle: "me")
    let state: Locked<State>
    let clock: WallClock

    init(seed: UInt64, clock: WallClock) {
        state = Locked(State(generator: SeededGenerator(seed: seed)))
        self.clock = clock
    }

    /// Home: every post not deleted, newest first, in one page.
    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        guard cursor == nil else { return Page(posts: [], next: nil) }
        return Page(posts: current().reversed(), next: nil)
    }

    /// The posts as the server has them now, oldest first.
    func current() -> [Post] {
        let me = me
        let now = clock.now()
        return state.withLock { state in
            state.posts.filter { !state.deleted.contains($0.id) }.map { Post(id: $0.id, author: me, text: $0.text, createdAt: now) }
        }
    }

    func source(of id: PostID) async throws -> PostSource {
        guard let post = current().first(where: { $0.id == id }) else { throw Failure(message: "Record not found", isTransient: false) }
        return PostSource(text: post.text)
    }

    /// Deletes go through, fail for lack of a connection, or are refused.
    func delete(_ id: PostID) async throws -> Post {
        let me = me
        let now = clock.now()
        let result: Result<Post, Failure> = state.withLock { state in
            guard let index = state.posts.firstIndex(where: { $0.id == id }), !state.deleted.contains(id) else {
                return .failure(Failure(message: "Record not found", isTransient: false))
            }
            switch state.generator.next(below: 3) {
            case 0: return .failure(Failure(message: "down", isTransient: true))
            case 1 where state.generator.next(below: 2) == 0: return .failure(Failure(message: "not allowed", isTransient: false))
            default:
                state.deleted.insert(id)
                return .success(Post(id: id, author: me, text: state.posts[index].text, createdAt: now))
            }
        }
        return try result.get()
    }
    func post(_ id: PostID) async throws -> Post { throw Failure(message: "Record not found", isTransient: false) }
    func context(of id: PostID) async throws -> PostContext { PostContext(ancestors: [], descendants: []) }
    func account(named handle: String) async throws -> Author { me }
    func composeSettings() async throws -> ComposeSettings { ComposeSettings(account: me) }

    func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        let now = clock.now()
        let me = me
        let result: Result<Post, any Error> = state.withLock { state in
            state.calls += 1
            if let edited = draft.editing {
                // Edits: made, made with the answer lost, or not made for lack of a connection.
                guard let index = state.posts.firstIndex(where: { $0.id == edited }), !state.deleted.contains(edited) else {
                    return .failure(Failure(message: "Record not found", isTransient: false))
                }
                switch state.generator.next(below: 4) {
                case 0: return .failure(Failure(message: "down", isTransient: true))
                case 1:
                    state.posts[index].text = draft.text
                    return .failure(Failure(message: "timed out", isTransient: true))
                default:
                    state.posts[index].text = draft.text
                    return .success(Post(id: edited, author: me, text: draft.text, createdAt: now, editedAt: now))
                }
            }
            func made() -> Post {
                let id = state.keys[idempotencyKey] ?? {
                    let id = PostID(String(state.posts.count + 1))
                    state.posts.append((id, draft.text, draft.text))
                    state.keys[idempotencyKey] = id
                    return id
                }()
                // The post as the server has it now (edited since, perhaps), as Mastodon answers a known key.
                let text = state.posts.first { $0.id == id }?.text ?? draft.text
                return Post(id: id, author: me, text: text, createdAt: now)
            }
            // A key whose post was deleted since: Mastodon looks the post up and answers 404,
            // which the client reads as the post made and deleted.
            if let known = state.keys[idempotencyKey], state.deleted.contains(known) {
                return .failure(PublishedPostDeleted())
            }
            // A key the server knows is answered with its post, whatever else happens.
            if state.keys[idempotencyKey] != nil, state.generator.next(below: 2) == 0 { return .success(made()) }
            switch Fate.allCases[state.generator.next(below: Fate.allCases.count)] {
            case .answered: return .success(made())
            case .answerLost:
                _ = made()
                return .failure(Failure(message: "timed out", isTransient: true))
            case .down: return .failure(Failure(message: "down", isTransient: true))
            case .rateLimited: return .failure(Failure(message: "rate limited", isTransient: true, retryAfter: .seconds(300)))
            case .refused:
                // A server that made the post for this key answers with it (Mastodon never
                // refuses a known key); refusals are rarer: one draw in two turns into an answer.
                if state.keys[idempotencyKey] != nil || state.generator.next(below: 2) == 0 { return .success(made()) }
                return .failure(Failure(message: "Validation failed", isTransient: false))
            case .killedAfterCommit:
                _ = made()
                state.killed = true
                return .failure(Failure(message: "killed", isTransient: true))
            case .killedBeforeCommit:
                state.killed = true
                return .failure(Failure(message: "killed", isTransient: true))
            }
        }
        return try result.get()
    }

    /// Whether a kill was drawn since the last call (and forgets it).
    func takeKill() -> Bool {
        state.withLock { state in
            defer { state.killed = false }
            return state.killed
        }
    }
}

@MainActor
@Suite("Drafts model check")
struct DraftsModelTests {
    /// One device: a session, what it saved last, and what was saved when each send began.
    @MainActor
    private final class Device {
        let server: PostingServer
        let retryClock = ManualClock()
        var session: FeedSession
        var saved: [Submission] = []
        var savedAtSend: [Submission] = []
        var subscription: Subscription?

        init(server: PostingServer) {
            self.server = server
            session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
            session.root.appeared()
            follow()
        }

        func follow() {
            subscription = session.drafts.observe { [unowned self] submissions in
                saved = submissions
                if submissions.contains(where: { if case .sending = $0.phase { true } else { false } }) { savedAtSend = submissions }
            }
        }

        /// The process dies: the next one starts from what was saved when the fatal send began.
        func restart(from snapshot: [Submission]) {
            session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
            session.root.appeared()
            follow()
            session.drafts.restore(snapshot)
        }

        /// What a user does with refused drafts: sends them again as they are — except one whose
        /// post was made and deleted meanwhile (``PublishedPostDeleted``), or an edit of a post
        /// deleted since ("Record not found"), which they throw away.
        func resendRefused() {
            for submission in session.drafts.all where submission.isEditable {
                if [PublishedPostDeleted.sentence, "Record not found"].contains(submission.refusal) {
                    session.drafts.discard(submission.id)
                } else {
                    session.drafts.send(submission.id)
                }
            }
        }

        /// One of one's posts home shows (confirmed), picked by `draw`.
        func shownPost(_ draw: Int) -> Post? {
            let shown = session.root.rows.compactMap(\.post).filter { !$0.isSending }
            return shown.isEmpty ? nil : shown[draw % shown.count].post
        }
    }

    @Test("5,000 schedules of posts, edits and deletes with lost answers, failures and restarts: exactly one post per submission, no draft lost, and home shows the server's posts as they are")
    func exactlyOnePostPerSubmission() async throws {
        let seed = testSeed(0xD4AF_75)
        print("DraftsModelTests seed \(seed) (replay with FEEDLINE_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        for schedule in 0..<5_000 {
            let server = PostingServer(seed: generator.next(), clock: .fixed(testNow))
            let device = Device(server: server)
            var texts: [String] = []
            for step in 0..<10 {
                // An edit asked this step: its draft is written and sent once the source came.
                var edit: (post: PostID, text: String)?
                switch generator.next(below: 7) {
                case 5:
                    if let post = device.shownPost(generator.next(below: 64)) {
                        edit = (post.content.id, "edit \(schedule)-\(step)")
                        device.session.drafts.startEdit(of: post)
                    }
                case 6:
                    if let post = device.shownPost(generator.next(below: 64)) { device.session.delete(post: post.id) }
                case 0, 1:
                    let text = "post \(schedule)-\(step)"
                    texts.append(text)
                    let id = device.session.drafts.startPost()
                    device.session.drafts.update(id) { $0.text = text }
                    device.session.drafts.send(id)
                case 2: device.session.drafts.retry()
                case 3: device.retryClock.advance(by: .seconds(400))
                default:
                    // Refused drafts are sent again as they are (a user who fixed nothing).
                    device.resendRefused()
                }
                await device.session.settle()
                if let edit, let draft = device.session.drafts.all.first(where: { $0.draft.editing == edit.post && $0.isEditable }) {
                    device.session.drafts.update(draft.id) { $0.text = edit.text }
                    device.session.drafts.send(draft.id)
                    await device.session.settle()
                }
                if server.takeKill() { device.restart(from: device.savedAtSend) }
            }
            // Settle: the connection comes back for good.
            var rounds = 0
            while device.session.drafts.all.contains(where: { $0.isInFlight || $0.refusal != nil }), rounds < 200 {
                rounds += 1
                device.resendRefused()
                device.session.drafts.retry()
                device.retryClock.advance(by: .seconds(400))
                await device.session.settle()
                if server.takeKill() { device.restart(from: device.savedAtSend) }
            }
            let posts = server.state.withLock { $0.posts }.map { (id: $0.id, text: $0.made) }
            let context = "schedule \(schedule), seed \(seed)"
            try #require(device.session.drafts.all.isEmpty, "every submission settled: \(device.session.drafts.all) — \(context)")
            for text in texts {
                try #require(posts.filter { $0.text == text }.count == 1, "\(text) posted \(posts.filter { $0.text == text }.count) times — \(context)")
            }
            try #require(posts.count == texts.count, "\(posts.count) posts for \(texts.count) submissions — \(context)")
            // Home shows no post on its way any more, each post once, and each as the server has it.
            let rows = device.session.root.rows.compactMap(\.post)
            let onServer = Dictionary(uniqueKeysWithValues: device.server.current().map { ($0.id, $0.text) })
            let sending = rows.contains { $0.isSending }
            try #require(!sending, "a row still sending — \(context)")
            try #require(Set(rows.map(\.post.id)).count == rows.count, "a post shown twice: \(rows.map(\.post.id)) — \(context)")
            for row in rows {
                let now = onServer[row.post.id]
                try #require(now == row.content.text, "\(row.post.id) shows \(row.content.text), the server has \(now ?? "nothing") — \(context)")
            }
            try #require(device.session.root.state.checkInvariants().isEmpty, "\(device.session.root.state.checkInvariants()) — \(context)")
        }
    }
}
