@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Quote posts: the quoted post is a post of the store like any other — one shared state on its
/// own rows and inside every quote of it, on every screen —, filtered by the quoting row's
/// context, one level deep, and a quote that is not shown says why.
@MainActor
@Suite("Quote posts")
struct QuoteSessionTests {
    static let quoted = makePost("o1", minutesAgo: 30, author: bob, text: "Say no early and kindly.", favourites: 5)

    static func quoting(_ id: String, _ quoted: Post = Self.quoted, state: QuoteState = .accepted, minutesAgo: Double = 1) -> Post {
        var post = makePost(id, minutesAgo: minutesAgo, text: "Couldn't agree more.")
        post.quote = Quote(state: state, post: state == .accepted ? quoted : nil)
        if state != .accepted { post.quote?.postID = quoted.id }
        return post
    }

    static func row(_ list: FeedListViewModel, _ id: PostID) -> PostRow? {
        list.rows[id: .post(id)]?.post
    }

    /// A server of posts, some quoting others (the quoted posts are the server's too), that
    /// answers interactions at once.
    static func server(feeds: [Feed: [Post]], sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel<Post>()
        for (feed, posts) in feeds {
            model.add(posts)
            model.timelines.feeds[feed] = posts.map(\.id)
        }
        for post in feeds.values.joined() {
            if let quoted = post.content.quote?.post, model.entry(quoted.id) == nil { model.add([quoted]) }
        }
        return GatedServer(model, me: alice, answering: [.page, .newer, .post, .context, .interaction, .profile], sourceLocation: sourceLocation)
    }

    func session(_ server: GatedServer, push feeds: [Feed] = [.local]) async -> FeedSession {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        for feed in feeds { session.navigator.push(.list(.feed(feed))) }
        await session.settle()
        return session
    }

    @Test("a favourite made inside a quote is the quoted post's own: its own rows, every quote of it and a detail follow on every screen — and the reverse")
    func favouriteFromTheQuote() async throws {
        let server = Self.server(feeds: [
            .home: [Self.quoting("q1"), makePost("p1", minutesAgo: 2)],
            .local: [Self.quoted, Self.quoting("q2", minutesAgo: 3)],
        ])
        let session = await session(server)
        let home = session.root
        let local = try #require(session.navigator.top.list)
        let row = try #require(Self.row(home, "q1"))
        #expect(row.quotedID == "o1")
        #expect(row.quote?.quoted?.post.text == "Say no early and kindly.")
        session.navigator.push(.post("q1"))
        await session.settle()
        let detail = try #require(session.navigator.top.detail)
        #expect(detail.current.quote?.quoted?.interaction.favouritesCount == 5)

        // From the quote (by the quoted post's id, as a front does with `quotedID`).
        #expect(session.set(.favourite, true, post: row.quotedID ?? ""))
        // At once, before the server answers, everywhere.
        #expect(Self.row(home, "q1")?.quote?.interaction?.favourited == true)
        #expect(Self.row(local, "o1")?.interaction.favourited == true)
        #expect(Self.row(local, "q2")?.quote?.interaction?.favourited == true)
        #expect(detail.current.quote?.quoted?.interaction.favourited == true)
        #expect(Self.row(home, "q1")?.interaction.favourited == false, "the quoting post's own state is its own")
        await session.settle()
        #expect(server.calls(.interaction).map(\.key) == ["o1"])
        #expect(Self.row(home, "q1")?.quote?.quoted?.interaction.favouritesCount == 6)
        #expect(Self.row(local, "o1")?.interaction.favouritesCount == 6)

        // The reverse: from the quoted post's own row, the quotes follow.
        #expect(local.set(.favourite, false, row: .post("o1")))
        #expect(Self.row(home, "q1")?.quote?.interaction?.favourited == false)
        #expect(Self.row(local, "q2")?.quote?.interaction?.favourited == false)
        #expect(detail.current.quote?.quoted?.interaction.favourited == false)
        await session.settle()
        #expect(Self.row(local, "q2")?.quote?.quoted?.interaction.favouritesCount == 5)
    }

    @Test("a refused favourite made inside a quote rolls back inside every quote and on the post's own rows, with the reason")
    func refusedFavouriteRollsBackInQuotes() async throws {
        let server = Self.server(feeds: [.home: [Self.quoting("q1")], .local: [Self.quoted]])
        let session = await session(server)
        let local = try #require(session.navigator.top.list)
        server.fail(.interaction, with: ServerRefusal("Forbidden."))
        session.toggle(.favourite, post: "o1")
        await session.settle()
        let quoted = try #require(Self.row(session.root, "q1")?.quote?.quoted)
        #expect(!quoted.interaction.favourited)
        #expect(quoted.interaction.failure != nil)
        #expect(Self.row(local, "o1")?.interaction.failure == quoted.interaction.failure)
    }

    @Test("the quoting row's filter context filters the quoted post: hidden or warned where the quoting post is shown, shown elsewhere; a reveal reaches every quote")
    func quotingContextFilters() async throws {
        var filtered = Self.quoted
        filtered.filters = [
            PostFilter(title: "Work", contexts: [.home], action: .warn),
            PostFilter(title: "Spoilers", contexts: [.public], action: .hide),
        ]
        let server = Self.server(feeds: [
            .home: [Self.quoting("q1", filtered)],
            .public: [Self.quoting("q2", filtered, minutesAgo: 2)],
            .account("1"): [Self.quoting("q3", filtered, minutesAgo: 3)],
        ])
        let session = await session(server, push: [.public, .account("1")])
        let lists = session.navigator.screens.compactMap(\.list)
        guard case .warned(let warned, _, let filter)? = Self.row(lists[0], "q1")?.quote else {
            Issue.record("home: the quote is warned about")
            return
        }
        #expect(filter.title == "Work" && warned.id == "o1")
        #expect(Self.row(lists[0], "q1")?.warning == nil, "the quoting post itself is not filtered")
        #expect(Self.row(lists[1], "q2")?.quote == .filtered(PostFilter(title: "Spoilers", contexts: [.public], action: .hide)))
        #expect(Self.row(lists[1], "q2") != nil, "a hidden quote leaves the quoting row")
        guard case .shown? = Self.row(lists[2], "q3")?.quote else {
            Issue.record("a profile has no filter here: the quote shows")
            return
        }
        #expect(!lists[2].reveal(row: .post("q3")), "nothing to reveal where the quote is shown")
        #expect(lists[0].reveal(row: .post("q1")), "show on the quoting row reveals the quoted post its quote warns about")
        guard case .shown? = Self.row(lists[0], "q1")?.quote else {
            Issue.record("revealed: the quote shows in home")
            return
        }
        #expect(Self.row(lists[1], "q2")?.quote?.quoted == nil, "a hide filter is not revealed")
    }

    @Test("a quote that is not shown says why — pending, refused, withdrawn, deleted, unknown states — and its row stays")
    func statesSayWhy() async throws {
        let states: [QuoteState] = [.pending, .rejected, .revoked, .deleted, .unauthorized, .blockedAccount, .blockedDomain, .mutedAccount]
        let posts = states.enumerated().map { index, state in Self.quoting("s\(index)", state: state, minutesAgo: Double(index + 1)) }
        let server = Self.server(feeds: [.home: posts])
        let session = await session(server, push: [])
        for (index, state) in states.enumerated() {
            let row = try #require(Self.row(session.root, PostID("s\(index)")))
            #expect(row.quote == .unavailable(state))
            #expect(row.quotedID == nil)
            #expect(state.notShownReason?.isEmpty == false)
        }
        #expect(QuoteState(serverName: "frobnicated") == .unauthorized, "an unknown state counts as unauthorised")
        #expect(QuoteState(serverName: "blocked_domain") == .blockedDomain)
        #expect(QuoteState.accepted.notShownReason == nil)
    }

    @Test("quotes are one level deep: the quoted post's own quote is a placeholder (its state and id, never its post)")
    func oneLevelDeep() throws {
        let innermost = makePost("i1", minutesAgo: 90, text: "innermost")
        let middle = Self.quoting("m1", innermost, minutesAgo: 60)
        let outer = Self.quoting("q1", middle)
        let quoted = try #require(outer.quote?.post)
        #expect(quoted.id == "m1")
        #expect(quoted.quote == Quote(state: .accepted, postID: "i1"))
        #expect(quoted.quote?.post == nil)
        // However it is set.
        var post = makePost("x")
        post.quote = Quote(state: .accepted, post: middle)
        #expect(post.quote?.post?.quote?.post == nil)
    }

    @Test("a quoted post deleted: every quote of it says so, the quoting rows stay, and a fresher copy of a quoting post does not bring it back")
    func quotedPostDeleted() async throws {
        let server = Self.server(feeds: [.home: [Self.quoting("q1")], .local: [Self.quoted, Self.quoting("q2", minutesAgo: 3)]])
        let session = await session(server)
        let local = try #require(session.navigator.top.list)
        session.store.deleted("o1")
        #expect(Self.row(session.root, "q1")?.quote == .unavailable(.deleted))
        #expect(Self.row(local, "q2")?.quote == .unavailable(.deleted))
        #expect(Self.row(local, "o1") == nil, "its own row leaves")
        #expect(Self.row(session.root, "q1") != nil)
        // A list opened later knows too.
        session.navigator.push(.list(.feed(.home)))
        await session.settle()
        #expect(Self.row(try #require(session.navigator.top.list), "q1")?.quote == .unavailable(.deleted))
        // A fresher copy of the quoting post still names the deleted post as accepted.
        session.root.refresh()
        await session.settle()
        #expect(Self.row(session.root, "q1")?.quote == .unavailable(.deleted))
    }

    @Test("a quote approved after its row was shown: a fresher copy of the quoting post makes the row hear of the quoted post from then on")
    func approvedLater() async throws {
        let server = Self.server(feeds: [.home: [Self.quoting("q1", state: .pending)], .local: [Self.quoted]])
        let session = await session(server)
        #expect(Self.row(session.root, "q1")?.quote == .unavailable(.pending))
        // The server's copy of q1 from now on: its quote approved.
        server.update { $0.add([Self.quoting("q1")]) }
        session.navigator.push(.post("q1"))
        session.navigator.top.detail?.appeared()
        await session.settle()
        guard case .shown(let quoted, _)? = Self.row(session.root, "q1")?.quote else {
            Issue.record("the approved quote shows")
            return
        }
        #expect(quoted.id == "o1")
        #expect(Self.row(session.root, "q1")?.quoted != nil, "the store's copy, not the one the quoting post carried")
        #expect(session.set(.favourite, true, post: "o1"))
        #expect(Self.row(session.root, "q1")?.quote?.interaction?.favourited == true, "the row hears of the quoted post now")
        #expect(session.navigator.top.detail?.current.quote?.quoted?.interaction.favourited == true)
        await session.settle()
    }

    @Test("your own delete of a quoted post: quotes stay as they are while it is on its way, stay if the server refuses it, and say deleted once it confirms")
    func pendingDeleteOfAQuotedPost() async throws {
        let server = Self.server(feeds: [.home: [Self.quoting("q1")], .local: [Self.quoted]])
        let session = await session(server)
        session.store.deleting("o1")
        #expect(Self.row(session.root, "q1")?.quote?.quoted != nil, "not deleted yet")
        session.navigator.push(.list(.feed(.home)))
        await session.settle()
        let later = try #require(session.navigator.top.list)
        #expect(Self.row(later, "q1")?.quote?.quoted != nil, "a list opened meanwhile shows it too")
        session.store.undelete("o1")
        #expect(Self.row(session.root, "q1")?.quote?.quoted != nil)
        session.store.deleting("o1")
        session.store.deleteConfirmed("o1")
        #expect(Self.row(session.root, "q1")?.quote == .unavailable(.deleted))
        #expect(Self.row(later, "q1")?.quote == .unavailable(.deleted))
    }

    @Test("the quoted post is a post of the store from the page that brought it: a detail of it opens without a load")
    func quotedPostIsInTheStore() async throws {
        let server = Self.server(feeds: [.home: [Self.quoting("q1")]])
        let session = await session(server, push: [])
        #expect(session.store.current("o1")?.post.text == "Say no early and kindly.")
        session.navigator.push(.post("o1"))
        #expect(session.navigator.top.detail?.current.post?.id == "o1")
    }
}
