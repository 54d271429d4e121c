@_spi(Benchmarks) @_spi(FeedService) import Feedline
import Foundation
import Synchronization

/// One's own post shown on every open list at once: the cost of `Drafts.send` — the submission
/// saved and the post shown as sending on home and on every open copy of one's profile — for
/// 2 and 20 lists of 1,000 rows (O(lists): ratio ≈ 10), and 20 lists of 10,000 rows (not
/// O(lists × rows): ratio ≈ 1). Each sample is one send; the server's answer (which turns each
/// row into the post) is settled untimed between samples.
enum SendBench {
    /// A server that answers at once: every feed is the same page of rows, nothing is newer,
    /// and a post is made with the next id.
    final class SendService: PartialService {
        struct Unsupported: Error {}

        let posts: [Post]
        let made = Mutex(0)
        /// Whether each newer page is 20 posts nobody has seen with more above them (so a gap
        /// row goes below them); otherwise nothing is newer.
        let newerPosts: Bool
        let newerPages = Mutex(0)

        init(posts: [Post], newerPosts: Bool = false) {
            self.posts = posts
            self.newerPosts = newerPosts
        }

        func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
            cursor == nil ? Page(posts: posts, next: nil) : Page(posts: [], next: nil)
        }
        func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
            guard newerPosts else { return NewerPage(posts: [], hasMore: false) }
            let page = newerPages.withLock { pages in
                pages += 1
                return pages
            }
            let posts = (0..<20).map { offset in
                Post(id: PostID("q\(page)-\(19 - offset)"), author: Posts.author, text: "newer post \(offset)", createdAt: Posts.now)
            }
            return NewerPage(posts: posts, hasMore: true)
        }
        func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup> { throw Unsupported() }
        func newerNotifications(of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> { throw Unsupported() }
        func dismissNotificationGroup(_ key: String) async throws { throw Unsupported() }
        func clearNotifications() async throws { throw Unsupported() }
        func post(_ id: PostID) async throws -> Post { throw Unsupported() }
        func context(of id: PostID) async throws -> PostContext { throw Unsupported() }
        func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post { throw Unsupported() }
        func account(named handle: String) async throws -> Author { Posts.author }
        func composeSettings() async throws -> ComposeSettings { ComposeSettings(account: Posts.author) }
        func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
            let number = made.withLock { made in
                made += 1
                return made
            }
            return Post(id: PostID("z\(number)"), author: Posts.author, text: draft.text, createdAt: Posts.now)
        }
    }

    @MainActor
    final class Fixture {
        let session: FeedSession
        let lists: [FeedListViewModel]

        init(lists count: Int, rows: Int) async {
            session = FeedSession(service: SendService(posts: Posts.make(rows, from: 0)), clock: .fixed(Posts.now))
            for _ in 1..<max(1, count) { session.navigator.push(.list(.feed(.account(AccountID(Posts.author.id))))) }
            lists = session.navigator.screens.compactMap(\.list)
            for list in lists { list.appeared() }
            session.drafts.load()
            await session.settle()
        }

        /// Milliseconds of one send, after which every list shows the post as sending on top.
        func send() async -> Double {
            let id = session.drafts.startPost()
            session.drafts.update(id) { $0.text = "a post seen everywhere" }
            let (_, milliseconds) = timed { _ = session.drafts.send(id) }
            for (index, list) in lists.enumerated() {
                expect(list.rows.first?.id == .post(.sending(id)), "send: list \(index) does not show the post on top")
            }
            await session.settle()
            expect(lists.allSatisfy { $0.rows.first?.post?.isSending == false }, "send: a list still shows the post as sending")
            return milliseconds
        }
    }

    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("send → shown on every list")
        let fixtures = [await Fixture(lists: 2, rows: 1_000), await Fixture(lists: 20, rows: 1_000), await Fixture(lists: 20, rows: 10_000)]
        let warmup = 3
        let rounds = options.rounds(31, quick: 5)
        var samples: [[Double]] = [[], [], []]
        for round in 0..<(warmup + rounds) {
            for index in round.isMultiple(of: 2) ? [0, 1, 2] : [2, 1, 0] {
                let milliseconds = await fixtures[index].send()
                if round >= warmup { samples[index].append(milliseconds) }
            }
        }
        return [
            Result(name: "send.2lists@1k", oursMilliseconds: median(samples[0]), peer: nil, peerMilliseconds: nil,
                   note: "Drafts.send: saved, then shown as sending on home and one profile of 1,000 rows each"),
            Result(name: "send.20lists@1k", oursMilliseconds: median(samples[1]), peer: "send.2lists@1k", peerMilliseconds: median(samples[0]),
                   note: "O(lists): ratio ≈ 10 for 10× the lists"),
            Result(name: "send.20lists@10k", oursMilliseconds: median(samples[2]), peer: "send.20lists@1k", peerMilliseconds: median(samples[1]),
                   note: "not O(lists × rows): ratio ≈ 1 for 10× the rows"),
        ]
    }
}
