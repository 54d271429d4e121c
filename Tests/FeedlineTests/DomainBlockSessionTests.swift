@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

extension GatedServer {
    /// A server of `posts` (on home, local and public) and `notifications`, whose domain blocks
    /// read `blocked` and whose domain block changes wait until the test answers (or fails) them.
    static func domains(posts: [Post], blocked: [String] = [], notifications: [NotificationGroup] = []) -> GatedServer {
        var model = ServerModel(posts)
        for feed in [Feed.home, .local, .public] { model.timelines.feeds[feed] = posts.map(\.id) }
        model.timelines.notifications = notifications
        model.domainBlocks = ServerDomainBlocks(blocked)
        let server = GatedServer(model, answering: [.page, .notifications, .domainBlocks])
        server.hold(.setDomainBlock)
        return server
    }
}

/// Domain blocks: one state per domain on every screen; a block takes every post of the
/// domain's accounts off every list at once, pending until answered; a refusal puts them back.
@MainActor
@Suite("Domain blocks")
struct DomainBlockSessionTests {
    static let spam = Author(id: "9", displayName: "Spam", handle: "deals@promo.example")
    static let spam2 = Author(id: "8", displayName: "More spam", handle: "news@Promo.Example")
    static let local = Author(id: "7", displayName: "Local", handle: "neighbour")

    static var posts: [Post] {
        [
            makePost("a1", minutesAgo: 1, author: alice),
            makePost("s1", minutesAgo: 2, author: spam),
            makePost("w1", minutesAgo: 3, author: alice, reblog: makePost("s2", minutesAgo: 30, author: spam2)),
            makePost("w2", minutesAgo: 4, author: spam, reblog: makePost("a2", minutesAgo: 40, author: alice)),
            makePost("l1", minutesAgo: 5, author: local),
        ]
    }

    static func ids(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row in if case .post(let id) = row.id { id.rawValue } else { nil } }
    }

    /// Returns once `list` shows at least `count` rows (heard from its snapshots, no waiting on a clock).
    static func rows(of list: FeedListViewModel, count: Int) async {
        @MainActor final class Box {
            var subscription: Subscription?
            var continuation: CheckedContinuation<Void, Never>?
        }
        let box = Box()
        await withCheckedContinuation { continuation in
            box.continuation = continuation
            box.subscription = list.snapshot.observe { snapshot in
                guard snapshot.rows.count >= count, let waiting = box.continuation else { return }
                box.continuation = nil
                waiting.resume()
            }
        }
        box.subscription = nil
    }

    func session(_ server: GatedServer) async -> FeedSession {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.root.appeared()
        session.navigator.push(.list(.feed(.local)))
        await session.settle()
        return session
    }

    @Test("a block takes every post of the domain's accounts — their posts, their boosts, boosts of their posts — off every list at once, pending; the answer settles it and later pages keep them off")
    func blockReachesEveryList() async throws {
        let server = GatedServer.domains(posts: Self.posts)
        let session = await session(server)
        let lists = session.navigator.screens.compactMap(\.list)
        #expect(Self.ids(lists[0]) == ["a1", "s1", "w1", "w2", "l1"])
        #expect(session.setDomainBlock("@Promo.Example", true))
        for list in lists { #expect(Self.ids(list) == ["a1", "l1"]) }
        #expect(session.domainBlocks.block("promo.example") == ToggleDisplay(isOn: true, pending: true))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(session.domainBlocks.block("promo.example") == ToggleDisplay(isOn: true, pending: false))
        #expect(server.model.domainBlocks.domains == ["promo.example"])
        lists[0].reset()
        await session.settle()
        #expect(Self.ids(lists[0]) == ["a1", "l1"], "a reload does not bring them back")
        // A list opened later does not show them either.
        session.navigator.push(.list(.feed(.public)))
        await session.settle()
        #expect(Self.ids(try #require(session.navigator.top.list)) == ["a1", "l1"])
    }

    @Test("a refused block puts every row back where it was and says why; retry does not send it again, blocking again does")
    func refusedBlockRestores() async throws {
        let server = GatedServer.domains(posts: Self.posts)
        let session = await session(server)
        let home = session.root
        session.setDomainBlock("promo.example", true)
        await server.waitForHeld(1)
        server.failHeld(at: 0, with: FeedFailure(message: "Forbidden.", isTransient: false))
        await session.settle()
        #expect(Self.ids(home) == ["a1", "s1", "w1", "w2", "l1"])
        let shown = try #require(session.domainBlocks.block("promo.example"))
        #expect(!shown.isOn)
        #expect(shown.failure == "Could not block the domain promo.example: Forbidden.")
        // A refusal is not sent again by retry (the server would refuse it again)…
        #expect(!session.hasFailures)
        #expect(!session.retry())
        #expect(Self.ids(home) == ["a1", "s1", "w1", "w2", "l1"])
        // …blocking again is.
        session.setDomainBlock("promo.example", true)
        #expect(Self.ids(home) == ["a1", "l1"])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(server.calls(.setDomainBlock).map(\.value) == [true, true])
        #expect(!session.hasFailures)
    }

    @Test("a lost connection keeps the block and sends it again after the backoff; changes meanwhile move only the wish: one request in flight")
    func lostConnectionResends() async throws {
        let server = GatedServer.domains(posts: Self.posts)
        let clock = ManualClock()
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: clock)
        session.root.appeared()
        await session.settle()
        session.setDomainBlock("promo.example", true)
        session.setDomainBlock("promo.example", false)
        session.setDomainBlock("promo.example", true)
        await server.waitForHeld(1)
        #expect(session.domainBlocks.requestsInFlight.count == 1)
        server.failHeld(at: 0, with: FeedFailure(message: "The server is unavailable.", isTransient: true))
        await session.settle()
        #expect(session.domainBlocks.block("promo.example")?.pending == true)
        #expect(Self.ids(session.root) == ["a1", "l1"], "still hidden while it waits to be sent again")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(session.domainBlocks.block("promo.example") == ToggleDisplay(isOn: true, pending: false))
        #expect(server.calls(.setDomainBlock).count == 2)
    }

    @Test("an unblock lets later loads show the domain again; the domains list shows each block and follows changes in place")
    func unblockAndList() async throws {
        let server = GatedServer.domains(posts: Self.posts, blocked: ["promo.example", "spam.example"])
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.domainBlocks))
        await session.settle()
        let domains = try #require(session.navigator.top.list)
        #expect(domains.rows.map(\.id) == [.domain("promo.example"), .domain("spam.example")])
        session.root.appeared()
        await session.settle()
        #expect(Self.ids(session.root) == ["a1", "l1"], "a listed block hides like one made here")
        #expect(session.setDomainBlock("promo.example", false))
        #expect(domains.rows[id: .domain("promo.example")]?.domain?.block == ToggleDisplay(isOn: false, pending: true))
        #expect(domains.current.changes.updates.count == 1)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        session.root.reset()
        await session.settle()
        #expect(Self.ids(session.root) == ["a1", "s1", "w1", "w2", "l1"])
    }

    @Test("notifications only from the domain's accounts leave the notifications screen")
    func notificationsLeave() async throws {
        let fromSpam = NotificationGroup(id: "g1", kind: .follow, accounts: [Self.spam], count: 1, latestAt: testNow, newestID: "n1", oldestID: "n1")
        let mixed = NotificationGroup(id: "g2", kind: .follow, accounts: [Self.spam, alice], count: 2, latestAt: testNow, newestID: "n2", oldestID: "n2")
        let server = GatedServer.domains(posts: [], notifications: [fromSpam, mixed])
        let session = FeedSession(service: server, clock: .fixed(testNow), root: .home, retryClock: ManualClock())
        session.navigator.push(.list(.notifications))
        await session.settle()
        let notifications = try #require(session.navigator.top.list)
        #expect(notifications.rows.map(\.id) == [.notification("g1"), .notification("g2")])
        session.setDomainBlock("promo.example", true)
        #expect(notifications.rows.map(\.id) == [.notification("g2")])
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
    }

    @Test("what is no domain is refused, nothing sent; keys ignore case and a leading @")
    func notADomain() async {
        let server = GatedServer.domains(posts: Self.posts)
        let session = await session(server)
        for bad in ["", "neighbour", "a b.c", ".example", "example."] { #expect(!session.setDomainBlock(bad, true), "\(bad)") }
        #expect(session.domainBlocks.block("PROMO.example") == nil)
        await session.settle()
        #expect(server.calls(.setDomainBlock).isEmpty)
    }

    @Test("a block taken back and given again while the unblock runs: when the unblock fails the block stands settled, and a later unblock brings nothing back at once")
    func reblockWhileUnblocking() async throws {
        let server = GatedServer.domains(posts: Self.posts)
        let session = await session(server)
        let home = session.root
        session.setDomainBlock("promo.example", true)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        session.setDomainBlock("promo.example", false)
        await server.waitForHeld(1)
        // The rows come back with a reload while the unblock runs (held: no settle until it is
        // answered); the block again takes them.
        home.reset()
        await Self.rows(of: home, count: 5)
        #expect(Self.ids(home) == ["a1", "s1", "w1", "w2", "l1"])
        session.setDomainBlock("promo.example", true)
        #expect(Self.ids(home) == ["a1", "l1"])
        server.failHeld(at: 0, with: FeedFailure(message: "Forbidden.", isTransient: false))
        await session.settle()
        #expect(session.domainBlocks.block("promo.example") == ToggleDisplay(isOn: true, pending: false))
        #expect(!session.hasFailures, "the failed unblock was no longer wanted")
        session.setDomainBlock("promo.example", false)
        await server.waitForHeld(1)
        server.answerHeld(at: 0)
        await session.settle()
        #expect(Self.ids(home) == ["a1", "l1"], "an unblock the server took brings rows back on the next load, not at once")
    }
}

