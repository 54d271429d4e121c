@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Your filters made, changed and deleted from the session, on every open screen at once: a
/// hide filter takes the posts it matches off every list it applies to before the server
/// answers, a warn filter puts its warning on them, a deleted or changed one brings them back
/// where they were; a refusal rolls it all back with the server's sentence, a lost connection
/// keeps it and sends it again; the filters screen shows a pending filter as pending.
@MainActor
@Suite("Filters on every screen", .timeLimit(.minutes(10)))
struct FilterSessionTests {
    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, text: "Morning by the pond"),
            makePost("f1", minutesAgo: 2, author: bob, text: "A Frog on the lily pad"),
            makePost("w1", minutesAgo: 3, author: bob, reblog: makePost("f2", minutesAgo: 30, text: "frog chorus tonight")),
            makePost("a2", minutesAgo: 4, text: "Frogspawn season soon"),
            makePost("a3", minutesAgo: 5, text: "Toads, not frogs"),
        ]
    }

    static let all = ["a1", "f1", "w1", "a2", "a3"]

    static let frogs = PostFilter(
        title: "Frogs", contexts: [.home, .public], action: .hide, keywords: [PostFilter.Keyword(keyword: "frog", wholeWord: true)]
    )

    /// A session showing home (the root), the public timeline and the filters screen, its
    /// filter writes held; and its post lists.
    func session(filters: [PostFilter] = [], clock: ManualClock = ManualClock()) async throws -> (FeedSession, GatedServer, [FeedListViewModel], FeedListViewModel) {
        var model = ServerModel(Self.posts)
        for feed in [Feed.home, .public] { model.timelines.feeds[feed] = Self.posts.map(\.id) }
        model.filters = ServerFilters(filters)
        let server = GatedServer(model, answering: [.page, .filters])
        server.hold(.createFilter, .updateFilter, .deleteFilter)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.root.appeared()
        session.navigator.push(.list(.feed(.public)))
        session.navigator.push(.list(.filters))
        await session.settle()
        let screen = try #require(session.navigator.top.list)
        return (session, server, session.navigator.screens.compactMap(\.list).filter { $0.source != .filters }, screen)
    }

    /// Answers the next held call as asked, once it is held, and lets the session settle.
    private func answerNext(_ server: GatedServer, _ session: FeedSession) async {
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
    }

    static func ids(_ list: FeedListViewModel) -> [String] { DomainBlockSessionTests.ids(list) }

    /// The filters screen's rows: title and whether pending.
    static func shown(_ screen: FeedListViewModel) -> [String] {
        screen.rows.compactMap { row in
            guard case .filter(let filter, let state) = row else { return nil }
            return filter.title + (state.pending ? " (pending)" : "") + (state.failure.map { " — \($0)" } ?? "")
        }
    }

    @Test("a new hide filter takes matching rows off both open lists at once (whole word: Frogspawn and frogs stay), pending on the filters screen until the server makes it")
    func createHides() async throws {
        let (session, server, lists, screen) = try await session()
        #expect(lists.count == 2)
        for list in lists { #expect(Self.ids(list) == Self.all) }
        let key = try session.createFilter(Self.frogs)
        for list in lists { #expect(Self.ids(list) == ["a1", "a2", "a3"]) }
        #expect(Self.shown(screen) == ["Frogs (pending)"])
        #expect(screen.rows.first?.id == .filter(key))
        await answerNext(server, session)
        #expect(Self.shown(screen) == ["Frogs"])
        #expect(screen.rows.first?.id == .filter("f1"), "the server's filter, by its id")
        for list in lists { #expect(Self.ids(list) == ["a1", "a2", "a3"]) }
        #expect(server.calls(.createFilter).count == 1)
    }

    @Test("deleting the filter made here brings its rows back where they were, on every list, before the server answers")
    func deleteBringsBack() async throws {
        let (session, server, lists, screen) = try await session()
        try session.createFilter(Self.frogs)
        await answerNext(server, session)
        try session.deleteFilter("f1")
        for list in lists { #expect(Self.ids(list) == Self.all) }
        #expect(Self.shown(screen).isEmpty)
        await answerNext(server, session)
        for list in lists { #expect(Self.ids(list) == Self.all) }
        #expect(server.update { $0.filters.filters }.isEmpty)
    }

    @Test("a refused new filter comes off the filters screen and its rows come back, with the server's sentence")
    func refusedCreate() async throws {
        let (session, server, lists, screen) = try await session()
        var heard: [Outcome] = []
        let listening = session.observeOutcomes { heard.append($0) }
        let key = try session.createFilter(Self.frogs)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: ServerRefusal("Validation failed: Keywords keyword is too long"))
        await session.settle()
        for list in lists { #expect(Self.ids(list) == Self.all) }
        #expect(Self.shown(screen).isEmpty)
        #expect(heard == [.refused(.filter(key, title: "Frogs", was: nil), sentence: "Validation failed: Keywords keyword is too long")])
        _ = listening
    }

    @Test("a new filter the server could not be reached for stays on every screen, pending, and is sent again after the backoff")
    func queuedCreate() async throws {
        let clock = ManualClock()
        let (session, server, lists, screen) = try await session(clock: clock)
        try session.createFilter(Self.frogs)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: FeedFailure(message: "The server is unavailable.", isTransient: true))
        await session.settle()
        #expect(session.hasFailures)
        #expect(session.filters.unsent == ["create the filter Frogs"])
        #expect(Self.shown(screen) == ["Frogs (pending)"])
        for list in lists { #expect(Self.ids(list) == ["a1", "a2", "a3"], "still hidden while it waits") }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await answerNext(server, session)
        #expect(Self.shown(screen) == ["Frogs"])
        #expect(server.calls(.createFilter).count == 2)
        #expect(!session.hasFailures)
    }

    @Test("changing a server filter from warn to hide takes its rows; a refusal puts them back with the warning and says why on its row")
    func editAndRollBack() async throws {
        var warn = Self.frogs
        warn.id = "7"
        warn.action = .warn
        warn.keywords = [PostFilter.Keyword(id: "70", keyword: "frog", wholeWord: true)]
        let (session, server, lists, screen) = try await session(filters: [warn])
        // The server marked nothing (its posts do not carry the filter): a change made here
        // matches by the keywords.
        var hide = warn
        hide.action = .hide
        try session.updateFilter("7", to: hide)
        for list in lists { #expect(Self.ids(list) == ["a1", "a2", "a3"]) }
        #expect(Self.shown(screen) == ["Frogs (pending)"])
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: ServerRefusal("Forbidden"))
        await session.settle()
        for list in lists {
            #expect(Self.ids(list) == Self.all)
        }
        #expect(Self.shown(screen) == ["Frogs — Could not save the filter Frogs: Forbidden"])
        #expect(session.filter("7")?.action == .warn)
    }

    @Test("a filter changed to warn puts its rows back with the warning; one for other places leaves these lists alone")
    func changeToWarn() async throws {
        let (session, server, lists, _) = try await session()
        try session.createFilter(Self.frogs)
        await answerNext(server, session)
        var warn = try #require(session.filter("f1"))
        warn.action = .warn
        try session.updateFilter("f1", to: warn)
        for list in lists {
            #expect(Self.ids(list) == Self.all)
            #expect(list.rows.compactMap { $0.post?.warning?.title } == ["Frogs", "Frogs"])
        }
        await answerNext(server, session)
        var elsewhere = try #require(session.filter("f1"))
        elsewhere.contexts = [.thread]
        try session.updateFilter("f1", to: elsewhere)
        for list in lists { #expect(list.rows.allSatisfy { $0.post?.warning == nil }) }
    }

    @Test("a page loaded while a new hide filter waits keeps its posts off; when the server makes the filter, no list loads again")
    func madeWhilePagesCame() async throws {
        let (session, server, lists, _) = try await session()
        try session.createFilter(Self.frogs)
        // The server cannot be reached: the filter waits, shown under its local key, while home
        // loads again and its page's frogs are kept off under that key.
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        lists[0].reload()
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "a2", "a3"])
        let pages = server.calls(.page).count
        try #require(session.retry())
        await answerNext(server, session)
        #expect(server.calls(.page).count == pages, "the made filter hides what the local one hid: nothing to load again")
        #expect(Self.ids(lists[0]) == ["a1", "a2", "a3"])
        try session.deleteFilter("f1")
        await answerNext(server, session)
        #expect(Self.ids(lists[0]) == Self.all, "deleted, the posts the page never showed come back with a load")
    }

    @Test("a page loaded after a new hide filter keeps its posts off, though the server did not mark them; a delete loads them again")
    func laterPages() async throws {
        let (session, server, lists, _) = try await session()
        try session.createFilter(Self.frogs)
        await answerNext(server, session)
        lists[0].reload()
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "a2", "a3"])
        try session.deleteFilter("f1")
        await answerNext(server, session)
        #expect(Self.ids(lists[0]) == Self.all, "posts a page never showed come back with a load")
    }

    @Test("a filter that cannot be made is refused at once, nothing sent")
    func problems() async throws {
        let (session, server, lists, _) = try await session()
        var blank = Self.frogs
        blank.title = "  "
        #expect(throws: FilterProblem.emptyTitle.failure) { try session.createFilter(blank) }
        var none = Self.frogs
        none.keywords = []
        #expect(throws: FilterProblem.noKeywords.failure) { try session.createFilter(none) }
        #expect(throws: FilterProblem.unknown("9").failure) { try session.deleteFilter("9") }
        await session.settle()
        #expect(server.calls(.createFilter).isEmpty)
        for list in lists { #expect(Self.ids(list) == Self.all) }
    }
}
