@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Puts a hashtag feed `name` of 100 distinct posts (`name-0` … `name-99`, five pages of 20) on
/// `server`, and a reply to `name-<replied>` when given. Each round of the test puts its own feed
/// there and takes it away after, so the server stays small while the client sees 100k posts.
private func putFeed(_ name: String, on server: GatedServer, replyTo replied: Int? = nil) {
    let posts = (0..<100).map { makePost("\(name)-\($0)", favourites: 1) }
    server.update { model in
        model.add(posts)
        model.timelines.feeds[.tag(name)] = posts.map(\.id)
        if let replied {
            var reply = makePost("\(name)-\(replied)-reply", minutesAgo: -1)
            reply.inReplyToID = PostID("\(name)-\(replied)")
            model.add([reply])
        }
    }
}

/// Takes the feed `name` and its posts (and reply) away from `server`.
private func takeFeed(_ name: String, from server: GatedServer) {
    server.update { model in
        for id in model.timelines.feeds[.tag(name)] ?? [] {
            model.remove(PostID("\(id.rawValue)-reply"))
            model.remove(id)
        }
        model.timelines.feeds[.tag(name)] = nil
    }
}

@MainActor
@Suite("Post store memory", .timeLimit(.minutes(30)))
struct StoreMemoryTests {
    @Test("opening and closing 1,000 feeds and details over 100k distinct posts keeps the store bounded")
    func boundedOver100kPosts() async throws {
        let capacity = 300
        let service = GatedServer(answering: [.page, .post, .context, .interaction, .tag])
        putFeed("root", on: service)
        let session = FeedSession(service: service, clock: .fixed(testNow), root: .tag("root"), cacheCapacity: capacity)
        session.root.appeared()
        await session.settle()
        var largest = 0
        // FEEDLINE_MEMORY_ROUNDS sets the count (CI's ThreadSanitizer pass runs fewer; the plain pass all).
        let rounds = ProcessInfo.processInfo.environment["FEEDLINE_MEMORY_ROUNDS"].flatMap(Int.init) ?? 1_000
        for round in 0..<rounds {
            putFeed("t\(round)", on: service, replyTo: round % 100)
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
            takeFeed("t\(round)", from: service)
        }
        #expect(largest <= 20 + 102 + capacity)
        // Toggled posts that settled were forgotten like the rest; the root's posts are still there.
        #expect(session.store.count <= 20 + capacity)
        #expect(session.store.post("root-0") != nil)
        #expect(session.store.post("t0-0") == nil)
    }

    @Test("a post nothing shows but with a request in flight is kept until the request settles")
    func keptWhileBusy() async throws {
        let service = GatedServer(posts: makePosts(3))
        service.serve([makePost("x1")], on: .tag("x"))
        service.hold(.page, .interaction)
        service.answer(.tag)  // the hashtag list's header
        let session = FeedSession(service: service, clock: .fixed(testNow), cacheCapacity: 0)
        session.root.appeared()
        await service.waitForHeld(1)
        service.answer(at: 0)
        await session.settle()
        session.navigator.push(.list(.feed(.tag("x"))))
        await service.waitForHeld(1)
        #expect(service.waiting.map(\.description) == ["page(tag:x, after: nil)"])
        service.answer(at: 0)
        await quiesce(session, service)
        #expect(session.navigator.top.list?.toggle(.favourite, row: .post("x1")) == true)
        await service.waitForHeld(1)
        session.navigator.pop()
        // Nothing shows x1 any more, but its favourite is on its way: the store keeps it.
        #expect(session.store.post("x1") != nil)
        #expect(service.waiting.map(\.description) == ["interaction(favourite true x1)"])
        service.answer(at: 0)
        await session.settle()
        #expect(session.store.post("x1") == nil)
        #expect(session.store.count == 3)
    }
}
