@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Testing

/// Server filters (Mastodon v2 `filtered`) in lists and details: `hide` keeps a post out of the
/// lists of its contexts, `warn` and `blur` show a warning until the post is revealed — on every
/// row and detail at once — and a page a filter empties asks for the next one, once.
@MainActor
@Suite("Server filters", .timeLimit(.minutes(10)))
struct FilterTests {
    static let spoilers = PostFilter(title: "Spoilers", contexts: [.home, .thread], action: .warn)
    static let hidden = PostFilter(title: "Work talk", contexts: [.home], action: .hide)
    static let food = PostFilter(title: "Food photos", contexts: [.home], action: .blur)

    /// `posts` with `filter` on the ones named.
    static func filtered(_ posts: [Post], _ filter: PostFilter, _ ids: Set<String>) -> [Post] {
        posts.map { post in
            var post = post
            if ids.contains(post.id.rawValue) { post.filters = [filter] }
            return post
        }
    }

    private func makeSession(_ service: any FeedService) -> FeedSession {
        FeedSession(service: service, clock: .fixed(testNow), prefetchDistance: 0)
    }

    @Test("the strongest filter of the post's context applies; none outside its contexts or where the feed has none")
    func filterChoice() {
        var post = makePost("p1")
        post.filters = [Self.food, Self.spoilers, PostFilter(title: "Elsewhere", contexts: [.public], action: .hide)]
        #expect(post.filter(in: .home) == Self.spoilers)
        #expect(post.filter(in: .public)?.title == "Elsewhere")
        #expect(post.isHidden(in: .public) && !post.isHidden(in: .home))
        #expect(post.filter(in: .notifications) == nil)
        #expect(post.filter(in: nil) == nil)
        #expect(Feed.bookmarks.filterContext == nil && Feed.tag("x").filterContext == .public && Feed.account("1").filterContext == .account)
        // A boost is filtered by what it shows.
        let boost = makePost("b1", reblog: post)
        #expect(boost.filter(in: .home) == Self.spoilers)
    }

    @Test("hidden posts never become rows; warned ones show the filter until revealed")
    func hideAndWarn() async {
        let posts = Self.filtered(Self.filtered(makePosts(6), Self.hidden, ["p2", "p5"]), Self.spoilers, ["p3"])
        let service = GatedServer(posts: posts, pageSize: 6, answering: [.page])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.rows.map(\.id) == ["p1", "p3", "p4", "p6"].map { .post(PostID($0)) })
        #expect(home.rows[1].post?.warning == Self.spoilers)
        #expect(home.rows[0].post?.warning == nil)
        #expect(!home.reveal(row: .post("p1")), "nothing to reveal")
        #expect(!home.reveal(row: .post("nope")))
    }

    @Test("a reveal reaches every row and detail of the post, on every screen, and only that post")
    func revealIsShared() async {
        let posts = Self.filtered(makePosts(4), Self.spoilers, ["p2"])
        let boost = makePost("b9", minutesAgo: 0.5, reblog: posts[1])
        let service = GatedServer(posts: [boost] + posts, pageSize: 10, answering: [.page, .post, .context])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.rows.compactMap { $0.post?.warning }.count == 2, "the boost and the post both warn")
        session.navigator.push(.post("p2"))
        await session.settle()
        let detail = session.navigator.top.detail
        #expect(detail?.current.warning == Self.spoilers)
        // Revealing through the boost's row reveals the original everywhere.
        #expect(home.reveal(row: .post("b9")))
        await session.settle()
        #expect(home.rows.allSatisfy { $0.post?.warning == nil })
        #expect(detail?.current.warning == nil)
        #expect(detail?.current.interaction?.revealed == true)
        #expect(detail?.reveal() == false, "already revealed")
        #expect(session.store.interaction("p3")?.revealed == false)
    }

    @Test("a detail reveals its post for the rows too; blur warns only about media")
    func detailReveals() async {
        var photo = makePost("p1")
        photo.media = [Media(kind: .image, description: "noodles")]
        photo.filters = [Self.food]
        let service = GatedServer(posts: [photo] + makePosts(2, from: 2), pageSize: 10, answering: [.page, .post, .context])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.rows.first?.post?.warning?.action == .blur)
        session.navigator.push(.post("p1"))
        await session.settle()
        // A detail is in the thread context: this filter is for home only.
        #expect(session.navigator.top.detail?.current.warning == nil)
        #expect(session.navigator.top.detail?.reveal() == false)
        session.navigator.pop()
        session.navigator.push(.post("p1"))
        var spoiler = makePost("p1")
        spoiler.filters = [Self.spoilers]
        // The server's copy says so too (the detail asks for a fresh copy as it opens).
        service.edit("p1") { $0.filters = [Self.spoilers] }
        session.store.ingest([spoiler], fetchedAt: session.store.beginFetch())
        await session.settle()
        #expect(session.navigator.top.detail?.current.warning == Self.spoilers)
        #expect(session.navigator.top.detail?.reveal() == true)
        await session.settle()
        #expect(home.rows.first?.post?.warning == nil)
    }

    @Test("a page whose posts are all hidden asks for the next page by itself, once per such page, to the end")
    func emptiedPages() async {
        // Pages of 3: the 2nd and 3rd are all hidden, the 4th shows; the 5th is hidden and the last.
        let posts = Self.filtered(makePosts(15), Self.hidden, Set((4...9).map { "p\($0)" } + (13...15).map { "p\($0)" }))
        let service = GatedServer(posts: posts, pageSize: 3, answering: [.page])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        #expect(home.rows.map(\.id) == ["p1", "p2", "p3"].map { .post(PostID($0)) })
        #expect(service.asked == ["page(home, after: nil)"])
        home.loadMore()
        await session.settle()
        // p4-p6 hidden → p7-p9 hidden → p10-p12 shown: one request per emptied page, then it stops.
        #expect(service.asked == ["page(home, after: nil)", "page(home, after: p3)", "page(home, after: p6)", "page(home, after: p9)"])
        #expect(home.rows.count == 6)
        #expect(!home.status.reachedEnd)
        home.loadMore()
        await session.settle()
        // The last page is all hidden and has no next: nothing more is asked.
        #expect(service.calls.count == 5)
        #expect(home.status.reachedEnd)
        #expect(home.rows.count == 6)
    }

    @Test("a refresh whose page ends on a hidden post leaves a gap below that post; filling it shows the rest once")
    func refreshGapBound() async {
        let service = GatedServer(posts: makePosts(3, from: 10), pageSize: 4, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        // Seven new posts, the 2nd and the 4th (the oldest of the refresh's page of 4) hidden.
        service.arrive(Self.filtered(makePosts(7, prefix: "n"), Self.hidden, ["n2", "n4"]))
        home.refresh()
        await session.settle()
        #expect(home.rows.map(\.id.description) == ["post:n1", "post:n3", "gap:p10", "post:p10", "post:p11", "post:p12"])
        #expect(home.rows[2].gap?.above == "n4", "the gap ends below the hidden n4, not at n3")
        home.openGap(home.rows[2].id)
        await session.settle()
        #expect(home.rows.map(\.id.description) == ["post:n1", "post:n3", "post:n5", "post:n6", "post:n7", "post:p10", "post:p11", "post:p12"])
        #expect(service.asked.last == "newer(home, than: p10, olderThan: n4)")
    }

    @Test("a refresh whose newest page is all hidden goes on below it, once per page, without a gap on top")
    func refreshOfHiddenPages() async {
        let service = GatedServer(posts: makePosts(3, from: 10), pageSize: 3, answering: [.page, .newer])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        // Eight new posts; the newest three and the next three hidden, the two oldest shown.
        service.arrive(Self.filtered(makePosts(8, prefix: "n"), Self.hidden, Set((1...6).map { "n\($0)" })))
        home.refresh()
        await session.settle()
        #expect(home.rows.map(\.id.description) == ["post:n7", "post:n8", "post:p10", "post:p11", "post:p12"])
        // One request per page of three: the newest, then below each hidden page's oldest post.
        #expect(Array(service.asked.suffix(3)) == ["newer(home, than: p10, olderThan: nil)", "newer(home, than: p10, olderThan: n3)", "newer(home, than: p10, olderThan: n6)"])
        #expect(home.status.lastRefresh == 2)
        // A refresh that finds only hidden posts (two new, then the six hidden before) says so,
        // after one request per page of them.
        service.arrive(Self.filtered(makePosts(2, prefix: "m"), Self.hidden, ["m1", "m2"]))
        home.refresh()
        await session.settle()
        #expect(Array(service.asked.suffix(3)) == ["newer(home, than: n7, olderThan: nil)", "newer(home, than: n7, olderThan: n1)", "newer(home, than: n7, olderThan: n4)"])
        #expect(home.rows.first?.id == .post("n7"))
        #expect(home.status.lastRefresh == 0)
    }

    @Test("a streamed post a filter hides does not wait; a warned one waits with its warning")
    func streamedFiltered() async {
        let service = GatedServer(posts: makePosts(3, from: 10), pageSize: 4, answering: [.page])
        let session = makeSession(service)
        let home = session.root
        home.appeared()
        await session.settle()
        let posts = Self.filtered(Self.filtered(makePosts(2, prefix: "s"), Self.hidden, ["s1"]), Self.spoilers, ["s2"])
        for post in posts.reversed() { session.apply(.posted(post, in: .home)) }
        #expect(home.status.waiting == 1)
        home.showWaiting()
        await session.settle()
        #expect(home.rows.first?.id == .post("s2"))
        #expect(home.rows.first?.post?.warning == Self.spoilers)
    }
}
