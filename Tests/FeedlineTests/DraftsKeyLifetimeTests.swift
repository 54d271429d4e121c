@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Past an idempotency key's hour, a submission whose answer was lost looks at the account's
/// newest posts before sending again: the server forgot the key, so a blind retry could post twice.
@MainActor
@Suite("Drafts past the key's lifetime")
struct DraftsKeyLifetimeTests {
    /// A server whose first post is made but its answer lost; the account's feed lists what it made.
    final class ForgetfulServer: EmptyReads {
        struct Lost: FeedServiceError {
            var isTransient: Bool { true }
            var errorDescription: String? { "The request timed out; try again." }
        }

        let me = Author(id: "me", displayName: "Me", handle: "me")
        let made = Locked<[Post]>([])
        let publishes = Locked(0)
        let now: @Sendable () -> Date

        init(now: @escaping @Sendable () -> Date) { self.now = now }

        func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
            guard feed == .account(AccountID(me.id)) else { return Page(posts: [], next: nil) }
            return Page(posts: made.withLock { $0.reversed() }, next: nil)
        }
        func account(named handle: String) async throws -> Author { me }
        func composeSettings() async throws -> ComposeSettings { ComposeSettings(account: me) }

        /// Makes the post every time it is asked (it forgot the key: past its hour), and loses the first answer.
        func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
            let count = publishes.withLock { count in
                count += 1
                return count
            }
            let post = Post(id: PostID("p\(count)"), author: me, text: draft.text, createdAt: now())
            made.withLock { $0.append(post) }
            if count == 1 { throw Lost() }
            return post
        }
    }

    @Test("a lost answer retried within the hour goes with its key; past the hour the newest posts are checked, and the post found is the one sent")
    func checksPastTheHour() async throws {
        let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let clock = WallClock { time.withLock { $0 } }
        let server = ForgetfulServer(now: clock.now)
        let session = FeedSession(service: server, clock: clock, retryClock: ManualClock())
        let id = session.drafts.startPost()
        session.drafts.load()
        await session.settle()
        session.drafts.update(id) { $0.text = "made once" }
        session.drafts.send(id)
        await session.settle()
        guard case .queued? = session.drafts[id]?.phase else {
            Issue.record("the lost answer did not queue: \(String(describing: session.drafts[id]?.phase))")
            return
        }
        #expect(session.drafts[id]?.mayHaveCommitted == true)
        // Two hours later (the key expired at the server): retry checks before sending.
        time.withLock { $0 = $0.addingTimeInterval(7_200) }
        session.drafts.retry()
        #expect(session.drafts[id]?.phase == .checking(attempt: 2))
        await session.settle()
        #expect(session.drafts[id] == nil, "found among the newest posts: sent")
        #expect(server.publishes.withLock { $0 } == 1, "not posted a second time")
        #expect(session.store.post("p1")?.text == "made once")
    }
}
