@_spi(FeedService) import Feedline
import Foundation
import Synchronization

/// A service that answers at once: the first page is the whole initial timeline (n posts), each
/// later page 20 new posts. It stamps the moment a page leaves it — the page "arriving".
final class InstantService: PartialService {
    struct Unsupported: Error {}

    let initial: [Post]
    let pages: [Page<Post>]
    let arrived = Mutex<ContinuousClock.Instant?>(nil)

    init(initial: [Post], pages: [Page<Post>]) {
        self.initial = initial
        self.pages = pages
    }

    func page(of feed: Feed, after cursor: PageCursor?) async throws -> Page<Post> {
        let page: Page<Post>
        if let cursor, let index = Int(cursor.rawValue.dropFirst()) {
            page = pages[index - 1]
        } else {
            page = Page(posts: initial, next: PageCursor("c1"))
        }
        arrived.withLock { $0 = .now }
        return page
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
    func set(_ kind: InteractionKind, to value: Bool, postID: PostID) async throws -> Post {
        guard let post = (initial.first { $0.id == postID }) else { throw Unsupported() }
        var copy = post
        switch kind {
        case .favourite:
            copy.favourited = value
            copy.favouritesCount += value ? 1 : 0
        case .reblog:
            copy.reblogged = value
            copy.reblogsCount += value ? 1 : 0
        case .bookmark:
            copy.bookmarked = value
        case .pin:
            copy.pinned = value
        case .muteThread:
            copy.muted = value
        }
        return copy
    }
    func account(named handle: String) async throws -> Author { throw Unsupported() }
}

/// What the benchmark's subscriber saw last: when, how many rows, how many inserted.
final class Published: Sendable {
    let last = Mutex<(at: ContinuousClock.Instant, rows: Int, inserted: Int)?>(nil)
}

/// A timeline view model showing n rows, fed pages by ``InstantService``.
@MainActor
final class TimelineFixture {
    let n: Int
    let service: InstantService
    let session: FeedSession
    let model: FeedListViewModel
    let published = Published()
    private var token: Subscription?
    private(set) var pagesLoaded = 0

    init(n: Int, pages: Int) async {
        self.n = n
        service = InstantService(initial: Posts.make(n, from: 0), pages: Posts.pages(pages, after: n))
        session = FeedSession(service: service, clock: .fixed(Posts.now))
        model = session.root
        let published = published
        token = model.snapshot.subscribe { snapshot in
            published.last.withLock { $0 = (.now, snapshot.rows.count, snapshot.changes.insertions.count) }
        }
        model.appeared()
        await session.settle()
        expect(model.rows.count == n, "timeline fixture: \(model.rows.count) rows, expected \(n)")
    }

    /// Milliseconds from the next page leaving the service to the view model publishing it, and
    /// the process's CPU milliseconds from asking for the page to everything settled.
    func loadPage() async -> (e2e: Double, cpu: Double) {
        let before = model.rows.count
        let cpuBefore = processCPUMilliseconds()
        model.loadMore()
        await session.settle()
        let cpu = processCPUMilliseconds() - cpuBefore
        pagesLoaded += 1
        let arrived = service.arrived.withLock { $0 }!
        let seen = published.last.withLock { $0 }!
        expect(seen.rows == before + 20 && seen.inserted == 20, "timeline@\(n): published \(seen.rows) rows, \(seen.inserted) new")
        expect(model.rows.count == n + pagesLoaded * 20, "timeline@\(n): \(model.rows.count) rows")
        return ((seen.at - arrived).milliseconds, cpu)
    }
}

/// CPU time the process has used, every thread's, in milliseconds (`CLOCK_PROCESS_CPUTIME_ID`).
func processCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
}

enum TimelineBench {
    @MainActor
    static func run(_ options: Options) async -> [Result] {
        progress("timeline end to end")
        let warmup = 2
        let rounds = options.rounds(15, quick: 5)
        let small = await TimelineFixture(n: 1_000, pages: warmup + rounds)
        let large = await TimelineFixture(n: 100_000, pages: warmup + rounds)
        var samples: [[Double]] = [[], []]
        var cpu: [[Double]] = [[], []]
        for round in 0..<(warmup + rounds) {
            let fixtures = round.isMultiple(of: 2) ? [(0, small), (1, large)] : [(1, large), (0, small)]
            for (index, fixture) in fixtures {
                let page = await fixture.loadPage()
                if round >= warmup {
                    samples[index].append(page.e2e)
                    cpu[index].append(page.cpu)
                }
            }
        }
        return [
            Result(name: "timeline.e2e@1k", oursMilliseconds: median(samples[0]), peer: nil, peerMilliseconds: nil,
                   note: "page leaves the service → view model publishes rows + changeset"),
            Result(name: "timeline.e2e@100k", oursMilliseconds: median(samples[1]), peer: "timeline.e2e@1k",
                   peerMilliseconds: median(samples[0]), note: "target < 2 ms per page (indicative on this machine)"),
            Result(name: "timeline.cpu@1k", oursMilliseconds: median(cpu[0]), peer: nil, peerMilliseconds: nil,
                   note: "the process's CPU time for one page, every thread, from loadMore to settled: the work, without the wake-ups the e2e figure waits for"),
            Result(name: "timeline.cpu@100k", oursMilliseconds: median(cpu[1]), peer: "timeline.cpu@1k", peerMilliseconds: median(cpu[0]), note: nil),
        ]
    }
}
