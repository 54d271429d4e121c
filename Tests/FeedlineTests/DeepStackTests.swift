@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// The navigator at depth 1,000: every kind of screen pushed, loaded and toggled on, then popped,
/// in loops; nothing of a popped screen stays alive, and the store holds only what the bottom
/// screen shows.
@MainActor
@Suite("Deep stack", .timeLimit(.minutes(10)))
struct DeepStackTests {
    static let routes: [Route] = [
        .list(.feed(.tag("t"))), .post("p3"), .list(.thread("p5")), .list(.notifications), .list(.feed(.account("a1"))), .post("p3"), .list(.feed(.home)),
    ]

    @Test("pushing to depth 1,000 and popping back, twice, leaves nothing alive and the store as it was")
    func depthThousand() async {
        let posts = makePosts(40)
        // Every feed the routes open lists the same posts.
        let service = GatedServer(
            posts: posts, feeds: [.home, .tag("t"), .account("a1")], pageSize: 10, answering: [.page, .post, .context, .notifications, .interaction, .tag, .profile]
        )
        let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: 16)
        session.root.appeared()
        await session.settle()
        let shownAtRoot = Set(session.root.rows.compactMap(\.shownPost).map(\.originalID))
        let holdersBefore = posts.map { session.store.holderCount($0.id) }

        for loop in 0..<2 {
            var alive: [() -> AnyObject?] = []
            for depth in 1..<1_000 {
                session.navigator.push(Self.routes[depth % Self.routes.count])
                switch session.navigator.top {
                case .list(let list):
                    weak let weakList = list
                    alive.append { weakList }
                    if let row = list.rows.first(where: { $0.shownPost != nil }) { _ = list.toggle(.bookmark, row: row.id) }
                case .post(let detail):
                    weak let weakDetail = detail
                    alive.append { weakDetail }
                    _ = detail.toggle(.favourite)
                }
                if depth.isMultiple(of: 50) { await session.settle() }
            }
            await session.settle()
            #expect(session.navigator.depth == 1_000)
            #expect(session.navigator.routes.value.count == 1_000)
            // Pop one by one in the first loop, all at once in the second.
            if loop == 0 {
                while session.navigator.pop() {}
            } else {
                session.navigator.popToRoot()
            }
            await session.settle()
            #expect(session.navigator.depth == 1)
            #expect(alive.count == 999)
            #expect(alive.allSatisfy { $0() == nil }, "loop \(loop): \(alive.filter { $0() != nil }.count) popped view models alive")
            for (index, post) in posts.enumerated() {
                let expected = shownAtRoot.contains(post.id) ? holdersBefore[index] : 0
                #expect(session.store.holderCount(post.id) == expected, "loop \(loop): \(post.id) held \(session.store.holderCount(post.id)) times")
            }
            #expect(session.store.count <= shownAtRoot.count + 16, "loop \(loop): the store kept \(session.store.count) posts")
        }
        #expect(session.activity.running == 0)
    }
}
