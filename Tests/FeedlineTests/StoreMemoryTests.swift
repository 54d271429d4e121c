@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Serves `pages` pages of 20 distinct posts for every hashtag feed: `TAG-0` … `TAG-99`.
private final class GeneratedService: PartialService {
    let pages: Int
    private let expectations: CallExpectations

    init(pages: Int, expecting: FeedCalls, sourceLocation: SourceLocation = #_sourceLocation) {
        self.pages = pages
        expectations = CallExpectations("GeneratedService", expecting: expecting, sourceLocation: sourceLocation)
    }

    private func post(_ id: String) -> Post { makePost(id, favourites: 1) }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        try expectations.check(.pages, "page(\(feed), \(cursor?.rawValue ?? "nil"))")
        guard case .tag(let name) = feed else { return Page(posts: [], next: nil) }
        let index = cursor.flatMap { Int($0.rawValue) } ?? 0
        let posts = (index * 20..<(index + 1) * 20).map { post("\(name)-\($0)") }
        return Page(posts: posts, next: index + 1 < pages ? PageCursor(String(index + 1)) : nil)
    }

    func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> {
        try expectations.check(.newer, "newer(\(feed), \(lower), \(upper?.rawValue ?? "nil"))")
        return NewerPage(posts: [], hasMore: false)
    }

    func notifications(after cursor: PageCursor?) async throws -> Page<NotificationGroup> {
        try expectations.check(.notifications, "notifications(\(cursor?.rawValue ?? "nil"))")
        return Page(items: [], next: nil)
    }

    func newerNotifications(than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
        try expectations.check(.newerNotifications, "newerNotifications(\(lower), \(upper?.rawValue ?? "nil"))")
        return NewerPage(items: [], hasMore: false)
    }

    func post(_ id: PostID) async throws -> Post {
        try expectations.check(.posts, "post(\(id))")
        return post(id.rawValue)
    }

    func context(of id: PostID) async throws -> PostContext {
        try expectations.check(.contexts, "context(\(id))")
        return PostContext(descendants: [post(id.rawValue + "-reply")])
    }

    /// A generated server remembers nothing: the rule applies to a fresh copy.
    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        try expectations.check(.interactions, "\(kind)(\(value), \(postID))")
        var server = ServerModel([post(postID.rawValue)])
        return try server.set(kind, to: value, on: postID)
    }

    func account(named handle: String) async throws -> Author {
        try expectations.check(.accounts, "account(\(handle))")
        throw RecordNotFound()
    }
}

@MainActor
@Suite("Post store memory", .timeLimit(.minutes(30)))
struct StoreMemoryTests {
    @Test("opening and closing 1,000 feeds and details over 100k distinct posts keeps the store bounded")
    func boundedOver100kPosts() async throws {
        let capacity = 300
        let service = GeneratedService(pages: 5, expecting: [.pages, .posts, .contexts, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow), root: .tag("root"), cacheCapacity: capacity)
        session.root.appeared()
        await session.settle()
        var largest = 0
        for round in 0..<1_000 {
            session.navigator.push(.list(.feed(.tag("t\(round)"))))
            await session.settle()
            for _ in 0..<4 {
                session.navigator.top.list?.loadMore()
                await session.settle()
            }
            #expect(session.navigator.top.list?.rows.count == 100)
            let opened = PostID("t\(round)-\(round % 100)")
            if round.isMultiple(of: 3) { session.navigator.top.list?.toggle(.favourite, row: .post(opened)) }
            session.navigator.open(opened)
            await session.settle()
            // On screen now: the root's rows, this feed's 100 rows, the detail and its reply.
            let onScreen = session.root.rows.count + 100 + 2
            largest = max(largest, session.store.count)
            #expect(session.store.count <= onScreen + capacity, "round \(round): \(session.store.count) posts known")
            session.navigator.popToRoot()
            await session.settle()
            #expect(session.store.count <= session.root.rows.count + capacity, "round \(round) after popping")
        }
        #expect(largest <= 20 + 102 + capacity)
        // Toggled posts that settled were forgotten like the rest; the root's posts are still there.
        #expect(session.store.count <= 20 + capacity)
        #expect(session.store.post("root-0") != nil)
        #expect(session.store.post("t0-0") == nil)
    }

    @Test("a post nothing shows but with a request in flight is kept until the request settles")
    func keptWhileBusy() async throws {
        let service = ControlledService(expecting: [.pages, .interactions])
        let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: 0)
        session.root.appeared()
        await service.waitForPending(1)
        service.answer(.page(nil), with: .page(Page(posts: makePosts(3), next: nil)))
        await session.settle()
        session.navigator.push(.list(.feed(.tag("x"))))
        await service.waitForPending(1)
        service.answer(.page(nil, feed: .tag("x")), with: .page(Page(posts: [makePost("x1")], next: nil)))
        await quiesce(session, service)
        #expect(session.navigator.top.list?.toggle(.favourite, row: .post("x1")) == true)
        await service.waitForPending(1)
        session.navigator.pop()
        // Nothing shows x1 any more, but its favourite is on its way: the store keeps it.
        #expect(session.store.post("x1") != nil)
        service.answer(.favourite(true, "x1"), with: .post(makePost("x1", favourited: true, favourites: 1)))
        await session.settle()
        #expect(session.store.post("x1") == nil)
        #expect(session.store.count == 3)
    }
}
