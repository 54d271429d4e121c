@_spi(Benchmarks) @_spi(FeedService) import Feedline
import Foundation
import Synchronization

/// Stream events applied to a session with five lists open: 10,000 events (edits of shown
/// posts, new posts in the lists' feeds, deletes), timed from the first `apply` to the last,
/// with every list's snapshot published to a subscriber as a front would have it. Two sizes —
/// 1,000 and 10,000 rows per list — separate O(rows of the post) from O(rows of the list).
enum StreamBench {
    static let events = 10_000
    /// The most rows that wait above a list (`WaitingRows.limit`): past it, the oldest go.
    static let waitingLimit = 200
    static let feeds: [Feed] = [.home, .local, .public, .tag("a"), .tag("b")]

    /// Each feed's first (and only) page: a window of the pool of posts, each window overlapping
    /// the next by half, so a post shows in one or two lists.
    final class FeedsService: PartialService {
        struct Unsupported: Error {}
        let pages: [Feed: [Post]]

        init(pages: [Feed: [Post]]) { self.pages = pages }

        func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
            Page(posts: cursor == nil ? pages[feed] ?? [] : [], next: nil)
        }

        func newer(in feed: Feed, than lower: PostID, olderThan upper: PostID?) async throws -> NewerPage<Post> { throw Unsupported() }
        func notifications(of kinds: Set<NotificationGroup.Kind>, after cursor: PageCursor?) async throws -> Page<NotificationGroup> { throw Unsupported() }
        func newerNotifications(of kinds: Set<NotificationGroup.Kind>, than lower: ItemID, olderThan upper: ItemID?) async throws -> NewerPage<NotificationGroup> {
            throw Unsupported()
        }
        func dismissNotificationGroup(_ key: String) async throws { throw Unsupported() }
        func clearNotifications() async throws { throw Unsupported() }
        func post(_ id: PostID) async throws -> Post { throw Unsupported() }
        func context(of id: PostID) async throws -> PostContext { throw Unsupported() }
        func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post { throw Unsupported() }
        func account(named handle: String) async throws -> Author { throw Unsupported() }
    }

    /// The events of one run and what they should leave behind.
    struct Script {
        var events: [StreamEvent] = []
        var kinds: [Kind] = []
        /// Per feed: the posts shown (in order) and the ids that should wait above, after the events.
        var shown: [Feed: [PostID]] = [:]
        var waiting: [Feed: Set<PostID>] = [:]
        /// Per feed: the ids waiting, newest first (at most ``StreamBench/waitingLimit``).
        var waitingOrder: [Feed: [PostID]] = [:]
        /// The last text each edited post was given.
        var edited: [PostID: String] = [:]

        enum Kind: Int, CaseIterable { case edited, posted, deleted }
    }

    /// The pool of posts and the page of each feed: `rows` per feed.
    static func pages(rows: Int) -> (pool: [Post], pages: [Feed: [Post]]) {
        let pool = Posts.make(rows * (feeds.count + 1) / 2, from: 0)
        var pages: [Feed: [Post]] = [:]
        for (index, feed) in feeds.enumerated() {
            let start = index * rows / 2
            pages[feed] = Array(pool[start..<(start + rows)])
        }
        return (pool, pages)
    }

    /// 10,000 seeded events: 40 % edits of posts of the pool (most of them shown), 40 % new posts
    /// (a quarter of them in two feeds), 20 % deletes (of shown posts and of posts waiting).
    static func script(pool: [Post], pages: [Feed: [Post]], seed: UInt64) -> Script {
        var random = SeededGenerator(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var script = Script()
        for feed in feeds { script.shown[feed] = pages[feed]?.map(\.id) ?? [] }
        var live = Set(pool.map(\.id))
        var livePool = pool.map(\.id)
        var newPosts: [(post: Post, feeds: [Feed])] = []
        var next = 0
        while script.events.count < events {
            let choice = below(100)
            if choice < 40 {
                let post = pool[below(pool.count)]
                guard live.contains(post.id) else { continue }
                var edit = post
                edit.text = "edited \(script.events.count): \(post.text)"
                edit.editedAt = Posts.now
                script.events.append(.edited(edit))
                script.kinds.append(.edited)
                script.edited[post.id] = edit.text
            } else if choice < 80 {
                next += 1
                let post = Post(id: PostID("n\(next)"), author: Posts.author, text: "new post \(next)", createdAt: Posts.now)
                var into = [feeds[below(feeds.count)]]
                if below(4) == 0 { into.append(feeds[(feeds.firstIndex(of: into[0]).map { $0 + 1 + below(feeds.count - 1) } ?? 0) % feeds.count]) }
                for feed in into where script.events.count < events {
                    script.events.append(.posted(post, in: feed))
                    script.kinds.append(.posted)
                    // A list keeps the newest 200 waiting and lets the oldest go.
                    script.waitingOrder[feed, default: []].insert(post.id, at: 0)
                    if script.waitingOrder[feed]?.count ?? 0 > waitingLimit { script.waitingOrder[feed]?.removeLast() }
                }
                newPosts.append((post, into))
                live.insert(post.id)
            } else {
                let id: PostID
                if below(3) == 0, let waiting = newPosts.randomElement(using: &random) {
                    id = waiting.post.id
                } else {
                    guard !livePool.isEmpty else { continue }
                    id = livePool.remove(at: below(livePool.count))
                }
                guard live.remove(id) != nil else { continue }
                script.events.append(.deleted(id))
                script.kinds.append(.deleted)
                for feed in feeds {
                    script.shown[feed]?.removeAll { $0 == id }
                    script.waitingOrder[feed]?.removeAll { $0 == id }
                }
                script.edited[id] = nil
            }
        }
        for (feed, order) in script.waitingOrder { script.waiting[feed] = Set(order) }
        return script
    }

    /// Snapshots with changes that subscribers received.
    final class Count: Sendable {
        let value = Mutex(0)
    }

    /// A session with the five lists loaded, each with a subscriber counting its snapshots.
    @MainActor
    final class Fixture {
        let session: FeedSession
        let lists: [FeedListViewModel]
        let published = Count()
        private var tokens: [Subscription] = []

        init(pages: [Feed: [Post]]) async {
            let service = FeedsService(pages: pages)
            session = FeedSession(service: service, clock: .fixed(Posts.now), root: feeds[0], executor: BenchmarkHooks.mainQueueExecutor())
            session.root.appeared()
            for feed in feeds.dropFirst() { session.navigator.push(.list(.feed(feed))) }
            await session.settle()
            lists = session.navigator.screens.compactMap(\.list)
            let published = published
            for list in lists {
                tokens.append(list.snapshot.subscribe { snapshot in
                    published.value.withLock { $0 += snapshot.changes.isEmpty ? 0 : 1 }
                })
            }
            for (list, feed) in zip(lists, feeds) {
                expect(list.rows.count == pages[feed]?.count, "stream: \(feed) shows \(list.rows.count) rows")
            }
        }

        /// Applies the events; milliseconds in all and per kind of event.
        func apply(_ script: Script) -> (total: Double, perKind: [Double]) {
            var perKind = [Double](repeating: 0, count: Script.Kind.allCases.count)
            let start = ContinuousClock.now
            var last = start
            for (event, kind) in zip(script.events, script.kinds) {
                session.apply(event)
                let now = ContinuousClock.now
                perKind[kind.rawValue] += (now - last).milliseconds
                last = now
            }
            return ((last - start).milliseconds, perKind)
        }

        /// The lists show what the script says they should.
        func check(_ script: Script, size: Int) {
            for (list, feed) in zip(lists, feeds) {
                let shown = list.rows.map(\.id)
                expect(shown == script.shown[feed]?.map { RowID.post($0) }, "stream@\(size): \(feed) shows other rows than expected")
                let waiting = Set(list.waiting.compactMap(\.post?.id))
                expect(waiting == script.waiting[feed] ?? [], "stream@\(size): \(feed) has \(waiting.count) rows waiting, expected \(script.waiting[feed]?.count ?? 0)")
                for row in list.rows {
                    guard let post = row.post, let text = script.edited[post.id] else { continue }
                    expect(post.text == text, "stream@\(size): \(post.id) shows \"\(post.text)\", not its last edit")
                }
            }
            expect(published.value.withLock { $0 } > 0, "stream@\(size): no snapshot was published")
        }
    }

    /// The naive peer: each list an array of its posts and an array of the posts waiting above,
    /// every event applied by a pass over every list (an edit replaces the post where it is
    /// found, a new post waits on top of its feed's list, a delete filters every list).
    struct NaiveLists {
        var shown: [Feed: [Post]]
        var waiting: [Feed: [Post]] = [:]

        init(pages: [Feed: [Post]]) { shown = pages }

        mutating func apply(_ events: [StreamEvent]) {
            for event in events {
                switch event {
                case .edited(let post):
                    for feed in StreamBench.feeds {
                        if let index = shown[feed]?.firstIndex(where: { $0.id == post.id }) { shown[feed]?[index] = post }
                        if let index = waiting[feed]?.firstIndex(where: { $0.id == post.id }) { waiting[feed]?[index] = post }
                    }
                case .posted(let post, let feed):
                    waiting[feed, default: []].insert(post, at: 0)
                    if waiting[feed]?.count ?? 0 > StreamBench.waitingLimit { waiting[feed]?.removeLast() }
                case .deleted(let id):
                    for feed in StreamBench.feeds {
                        shown[feed]?.removeAll { $0.id == id }
                        waiting[feed]?.removeAll { $0.id == id }
                    }
                default: break
                }
            }
        }

        func check(_ script: Script, size: Int) {
            for feed in StreamBench.feeds {
                expect(shown[feed]?.map(\.id) == script.shown[feed], "naive stream@\(size): \(feed) shows other rows than expected")
                expect(Set(waiting[feed]?.map(\.id) ?? []) == script.waiting[feed] ?? [], "naive stream@\(size): \(feed) waits other rows")
            }
        }
    }

    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("stream events")
        let sizes = [1_000, 10_000]
        let inputs = sizes.map { size in
            let (pool, pages) = pages(rows: size)
            return (pages: pages, script: script(pool: pool, pages: pages, seed: 0x5354_5245 &+ UInt64(size)))
        }
        let warmup = 1
        let rounds = options.rounds(7, quick: 3)
        var totals: [[Double]] = [[], []]
        var naiveTotals: [[Double]] = [[], []]
        var kinds: [[[Double]]] = [[], []]
        for round in 0..<(warmup + rounds) {
            let order = round.isMultiple(of: 2) ? [0, 1] : [1, 0]
            for index in order {
                // Untimed: a fresh session with five lists loaded.
                let fixture = await Fixture(pages: inputs[index].pages)
                let (total, perKind) = fixture.apply(inputs[index].script)
                fixture.check(inputs[index].script, size: sizes[index])
                if round >= warmup {
                    totals[index].append(total)
                    kinds[index].append(perKind)
                }
                await fixture.session.settle()
                var naive = NaiveLists(pages: inputs[index].pages)
                let (_, naiveTotal) = timed { naive.apply(inputs[index].script.events) }
                naive.check(inputs[index].script, size: sizes[index])
                if round >= warmup { naiveTotals[index].append(naiveTotal) }
            }
        }
        func perKind(_ index: Int) -> String {
            let script = inputs[index].script
            return Script.Kind.allCases.map { kind in
                let count = script.kinds.count { $0 == kind }
                let milliseconds = median(kinds[index].map { $0[kind.rawValue] })
                return "\(kind) " + String(format: "%.2f µs ×%d", milliseconds * 1000 / Double(max(count, 1)), count)
            }.joined(separator: ", ")
        }
        let small = median(totals[0])
        let large = median(totals[1])
        return [
            Result(
                name: "stream.10k events@5×1k", oursMilliseconds: small, peer: nil, peerMilliseconds: nil,
                note: String(format: "%.0f events/s (target ≥ 100,000); per event: ", Double(events) / small * 1000) + perKind(0)
            ),
            Result(
                name: "stream.10k events@5×10k", oursMilliseconds: large, peer: "stream.10k events@5×1k", peerMilliseconds: small,
                note: String(format: "%.0f events/s; per event: ", Double(events) / large * 1000) + perKind(1)
                    + "; O(rows of the post): ratio ≈ 1 for 10× the rows"
            ),
            Result(name: "stream.10k events@5×1k vs naive", oursMilliseconds: small, peer: "naive: filter every list", peerMilliseconds: median(naiveTotals[0]),
                   note: "the naive peer: arrays of posts, a pass over every list per edit and delete"),
            Result(name: "stream.10k events@5×10k vs naive", oursMilliseconds: large, peer: "naive: filter every list", peerMilliseconds: median(naiveTotals[1])),
        ]
    }
}
