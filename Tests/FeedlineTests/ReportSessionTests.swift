@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Reports: one state per account on every screen at once — the account's rows and the posts
/// the report attaches are marked while it waits, settled when the server files it, unmarked
/// with the server's sentence on refusal, and kept (and sent again) when the server cannot be
/// reached.
@MainActor
@Suite("Reports")
struct ReportSessionTests {
    static let spam = Author(id: "9", displayName: "Spam", handle: "deals@promo.example")

    static var posts: [Post] {
        [makePost("a1", minutesAgo: 1, author: alice), makePost("s1", minutesAgo: 2, author: spam), makePost("s2", minutesAgo: 3, author: spam)]
    }

    /// A server of `posts` on home and local, where the spammer favourited `a1` (an account
    /// screen), whose reports wait until the test answers (or fails) them.
    static func server() -> GatedServer {
        var model = ServerModel(posts)
        for feed in [Feed.home, .local] { model.timelines.feeds[feed] = posts.map(\.id) }
        model.relationships.profiles[AccountID(spam.id)] = Profile(author: spam)
        model.relationships.reacted[PostID("a1")] = [.favourite: [AccountID(spam.id)]]
        model.rules = [InstanceRule(id: "4", text: "No spam.")]
        let server = GatedServer(model, answering: [.page, .accounts, .relationships, .instanceRules])
        server.hold(.report)
        return server
    }

    /// Home, local and the accounts who favourited `a1`, loaded.
    func session(_ server: GatedServer, clock: ManualClock = ManualClock()) async throws -> (FeedSession, [FeedListViewModel]) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.root.appeared()
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.accounts(.favouritedBy(PostID("a1")))))
        for list in session.navigator.screens.compactMap(\.list) { list.appeared() }
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        try #require(lists.count == 3)
        try #require(lists[2].rows[id: .account(AccountID(Self.spam.id))] != nil)
        return (session, lists)
    }

    /// What `list` shows of the report on `post`'s row.
    static func postMark(_ list: FeedListViewModel, _ post: String) -> ToggleDisplay? {
        list.rows[id: .post(PostID(post))]?.post?.interaction.reported
    }

    static func accountMark(_ list: FeedListViewModel) -> ToggleDisplay? {
        list.rows[id: .account(AccountID(spam.id))]?.account?.reported
    }

    static var report: AccountReport {
        AccountReport(account: AccountID(spam.id), posts: [PostID("s1")], comment: "Ads", category: .spam)
    }

    @Test("a report marks the account's rows and the reported post on every screen at once, pending; the answer settles every mark")
    func marksEveryScreen() async throws {
        let server = Self.server()
        let (session, lists) = try await session(server)
        #expect(session.report(Self.report, handle: Self.spam.handle) == nil)
        let pending = ToggleDisplay(isOn: true, pending: true)
        for list in lists[0...1] {
            #expect(Self.postMark(list, "s1") == pending)
            #expect(Self.postMark(list, "s2") == nil, "a post the report does not attach is not marked")
        }
        #expect(Self.accountMark(lists[2]) == pending)
        #expect(session.reportMark(of: AccountID(Self.spam.id)) == pending)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        let filed = ToggleDisplay(isOn: true)
        for list in lists[0...1] { #expect(Self.postMark(list, "s1") == filed) }
        #expect(Self.accountMark(lists[2]) == filed)
        #expect(server.model.reports == [Self.report])
        // A screen opened later shows it too.
        session.navigator.push(.list(.accounts(.favouritedBy(PostID("a1")))))
        let later = try #require(session.navigator.top.list)
        later.appeared()
        await session.settle()
        #expect(Self.accountMark(later) == filed)
        // Reporting again says so and sends nothing.
        #expect(session.report(Self.report, handle: Self.spam.handle) == "You already reported @deals@promo.example this session.")
        #expect(server.calls(.report).count == 1)
    }

    @Test("a refusal takes every mark back with the server's sentence; retry does not send it again, reporting again does")
    func refusalRollsBack() async throws {
        let server = Self.server()
        let (session, lists) = try await session(server)
        #expect(session.report(Self.report, handle: Self.spam.handle) == nil)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: FeedFailure(message: "Validation failed: Comment is too long.", isTransient: false))
        await session.settle()
        for list in lists[0...1] { #expect(Self.postMark(list, "s1") == nil) }
        #expect(Self.accountMark(lists[2]) == nil)
        let shown = try #require(session.reportMark(of: AccountID(Self.spam.id)))
        #expect(!shown.isOn)
        #expect(shown.failure == "Could not report @deals@promo.example: Validation failed: Comment is too long.")
        #expect(!session.hasFailures)
        #expect(!session.retry())
        #expect(session.report(Self.report, handle: Self.spam.handle) == nil)
        #expect(Self.accountMark(lists[2])?.pending == true)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.calls(.report).count == 2)
        #expect(server.model.reports.count == 1)
    }

    @Test("a lost connection keeps the marks and sends the report again after the backoff")
    func lostConnectionQueues() async throws {
        let server = Self.server()
        let clock = ManualClock()
        let (session, lists) = try await session(server, clock: clock)
        #expect(session.report(Self.report, handle: Self.spam.handle) == nil)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: FeedFailure(message: "The server is unavailable.", isTransient: true))
        await session.settle()
        #expect(Self.accountMark(lists[2])?.pending == true, "still marked while it waits to be sent again")
        #expect(Self.postMark(lists[0], "s1")?.pending == true)
        #expect(session.hasFailures)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.accountMark(lists[2]) == ToggleDisplay(isOn: true))
        #expect(server.calls(.report).count == 2)
        #expect(server.model.reports == [Self.report])
    }

    @Test("rules go only with a violation, which names at least one; nothing is sent otherwise")
    func rulesNeedViolation() async throws {
        let server = Self.server()
        let (session, _) = try await session(server)
        var report = Self.report
        report.rules = ["4"]
        #expect(session.report(report, handle: Self.spam.handle)?.hasPrefix("Rules are named only in a report of a broken rule") == true)
        report.category = .violation
        report.rules = []
        #expect(session.report(report, handle: Self.spam.handle)?.hasPrefix("A report of a broken rule names the rules broken") == true)
        #expect(session.reportMark(of: AccountID(Self.spam.id)) == nil)
        #expect(server.calls(.report).isEmpty)
        #expect(try await session.instanceRules().get() == [InstanceRule(id: "4", text: "No spam.")])
    }
}
