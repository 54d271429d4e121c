@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Notifications you control: a dismissed group leaves every notifications screen at once (the
/// plain one and those of a kind), a clear empties them all; refused, they come back where they
/// were with the server's sentence; unreachable, the change waits and is sent again.
@MainActor
@Suite("Dismissing and clearing notifications", .timeLimit(.minutes(10)))
struct NotificationDismissalSessionTests {
    static let ana = Author(id: "a", displayName: "Ana", handle: "ana")

    static func group(_ id: String, _ kind: NotificationGroup.Kind, newest: String) -> NotificationGroup {
        NotificationGroup(id: id, kind: kind, accounts: [ana], count: 1, post: kind == .follow ? nil : makePost("p1"), latestAt: testNow, newestID: ItemID(newest))
    }

    /// A session showing the plain notifications screen and the mentions screen over a server
    /// that holds dismissals and clears until the test answers them.
    private func session(retryClock: ManualClock = ManualClock()) async throws -> (FeedSession, GatedServer, plain: FeedListViewModel, mentions: FeedListViewModel) {
        let groups = [Self.group("m1", .mention, newest: "n4"), Self.group("f1", .follow, newest: "n3"), Self.group("m2", .mention, newest: "n2")]
        let server = GatedServer(posts: makePosts(5), notifications: groups, answering: [.page, .notifications, .newerNotifications])
        server.hold(.dismissNotification, .clearNotifications)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
        session.navigator.push(.list(.notifications))
        session.navigator.push(.list(.notificationsOf([.mention])))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list).filter { $0.source.notificationKinds != nil }
        try #require(lists.count == 2)
        return (session, server, lists[0], lists[1])
    }

    /// A session showing `sources` over nine mention groups served two a page, the server
    /// holding clears until the test answers them.
    private func pagedSession(showing sources: [ListSource]) async -> (FeedSession, GatedServer, lists: [FeedListViewModel]) {
        let groups = (1...9).map { Self.group("g\($0)", .mention, newest: "n\(10 - $0)") }
        let server = GatedServer(posts: makePosts(5), notifications: groups, pageSize: 2, answering: [.page, .notifications, .newerNotifications])
        server.hold(.clearNotifications)
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        for source in sources { session.navigator.push(.list(source)) }
        await session.settle()
        return (session, server, session.navigator.screens.compactMap(\.list).filter { $0.source.notificationKinds != nil })
    }

    static func shown(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { $0.notification?.id }
    }

    @Test("a dismissed group leaves every notifications screen at once and stays away once the server took it")
    func dismiss() async throws {
        let (session, server, plain, mentions) = try await session()
        let log = OutcomeLog(session)
        #expect(Self.shown(plain) == ["m1", "f1", "m2"])
        #expect(Self.shown(mentions) == ["m1", "m2"])
        #expect(session.dismissNotification("m1"))
        #expect(!session.dismissNotification("m1"), "dismissed already")
        #expect(Self.shown(plain) == ["f1", "m2"])
        #expect(Self.shown(mentions) == ["m2"])
        await server.waitForHeld(1)
        #expect(server.waiting.map(\.kind) == [.dismissNotification] && server.waiting.map(\.key) == ["m1"])
        server.answer(at: 0)
        await session.settle()
        #expect(log.heard == [.done(.notificationDismissal(group: "m1"))])
        plain.reload()
        mentions.reload()
        await session.settle()
        #expect(Self.shown(plain) == ["f1", "m2"])
        #expect(Self.shown(mentions) == ["m2"])
        #expect(!session.hasFailures)
    }

    @Test("while a clear waits, a notifications screen asks for one page, not every page the clear emptied")
    func clearDoesNotWalkPages() async throws {
        let (session, server, lists) = await pagedSession(showing: [.notifications])
        let plain = try #require(lists.first)
        #expect(Self.shown(plain) == ["g1", "g2"])
        #expect(session.clearNotifications())
        #expect(Self.shown(plain).isEmpty)
        // The server cannot be reached: the clear waits to be sent again, and hides every page.
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(session.notifications.isPending(.all))
        let before = server.calls(.notifications).count
        plain.reload()
        await session.settle()
        #expect(server.calls(.notifications).count == before + 1, "one page, no walk through the others")
        #expect(Self.shown(plain).isEmpty)
    }

    @Test("a confirmed clear has every screen it emptied ask for its first page once: it then says it is empty, not that it is about to load")
    func clearedScreensSayEmpty() async throws {
        let (session, server, lists) = await pagedSession(showing: [.notifications, .notificationsOf([.mention])])
        try #require(lists.count == 2)
        #expect(lists.allSatisfy { !$0.status.reachedEnd })
        #expect(session.clearNotifications())
        await server.waitForHeld(1)
        let before = server.calls(.notifications).count
        server.answer(at: 0)
        await session.settle()
        #expect(server.calls(.notifications).count == before + 2, "one first page per screen the clear emptied")
        for list in lists {
            #expect(Self.shown(list).isEmpty)
            #expect(list.status.reachedEnd && list.status.loading == nil && list.status.failure == nil, "\(list.source)")
        }
    }

    @Test("a refused dismissal comes back where it was on every screen, with the server's sentence")
    func refused() async throws {
        let (session, server, plain, mentions) = try await session()
        let log = OutcomeLog(session)
        #expect(session.dismissNotification("m2"))
        #expect(Self.shown(plain) == ["m1", "f1"])
        await server.waitForHeld(1)
        server.refuse(at: 0)
        await session.settle()
        #expect(Self.shown(plain) == ["m1", "f1", "m2"])
        #expect(Self.shown(mentions) == ["m1", "m2"])
        #expect(log.heard == [.refused(.notificationDismissal(group: "m2"), sentence: "Forbidden.")])
        #expect(session.notifications.refusal(.group("m2")) == "Forbidden.")
        #expect(!session.hasFailures, "a refusal is not sent again")
    }

    @Test("a clear empties every notifications screen; refused, they come back — but a group still being dismissed stays away")
    func clear() async throws {
        let (session, server, plain, mentions) = try await session()
        let log = OutcomeLog(session)
        #expect(session.dismissNotification("f1"))
        #expect(session.clearNotifications())
        #expect(!session.clearNotifications(), "one clear at a time")
        #expect(Self.shown(plain) == [] && Self.shown(mentions) == [])
        await server.waitForHeld(2)
        let clear = try #require(server.waiting.firstIndex { $0.kind == .clearNotifications })
        server.refuse(at: clear)
        // f1's dismissal still waits (settling would wait for it): wait for the clear's answer only.
        await session.notifications.waitForRequests(atMost: 1)
        #expect(Self.shown(plain) == ["m1", "m2"], "f1's own dismissal still waits")
        #expect(Self.shown(mentions) == ["m1", "m2"])
        #expect(log.of { $0 == .notificationsCleared } == [.refused(.notificationsCleared, sentence: "Forbidden.")])
        server.answer(at: 0)
        await session.settle()
        #expect(session.clearNotifications())
        await server.waitForHeld(1)
        server.answer(at: 0)
        await session.settle()
        #expect(log.heard.last == .done(.notificationsCleared))
        plain.reload()
        await session.settle()
        #expect(Self.shown(plain) == [])
        #expect(server.model.timelines.notifications.isEmpty)
    }

    @Test("a dismissal the server could not be reached for stays off the screens and waits; sent again after the backoff, or at once by a retry")
    func queued() async throws {
        let clock = ManualClock()
        let (session, server, plain, mentions) = try await session(retryClock: clock)
        let log = OutcomeLog(session)
        #expect(session.dismissNotification("m1"))
        await server.waitForHeld(1)
        server.lose(at: 0)
        await session.settle()
        #expect(Self.shown(plain) == ["f1", "m2"] && Self.shown(mentions) == ["m2"], "it stays away while it waits")
        #expect(session.hasFailures)
        #expect(session.isNotificationDismissalPending("m1"))
        #expect(log.heard == [.queued(.notificationDismissal(group: "m1"), reason: "The server could not be reached.", resendAfter: .seconds(2))])
        try #require(session.retry())
        // Lost again: the backoff ends and it is sent by itself.
        await server.loseThenAnswerAfterBackoff(session, clock: clock)
        #expect(log.heard.last == .done(.notificationDismissal(group: "m1")))
        #expect(!session.hasFailures)
        #expect(server.calls(.dismissNotification).count == 3)
        #expect(Self.shown(plain) == ["f1", "m2"])
    }

    @Test("a reload begun before a dismissal was answered, and read by the server then, does not bring the group back")
    func racingRefresh() async throws {
        let (session, server, plain, mentions) = try await session()
        server.hold(.notifications)
        plain.reload()
        mentions.reload()
        await server.waitForHeld(2)
        #expect(session.dismissNotification("m1"))
        await server.waitForHeld(3)
        let dismissal = try #require(server.waiting.firstIndex { $0.kind == .dismissNotification })
        server.answer(at: dismissal)
        await session.notifications.waitForRequests(atMost: 0)
        // The pages were read before the dismissal (m1 still in them) and arrive after its answer.
        server.answerHeld(at: 0, asAsked: true)
        server.answerHeld(at: 0, asAsked: true)
        await session.settle()
        #expect(Self.shown(plain) == ["f1", "m2"])
        #expect(Self.shown(mentions) == ["m2"])
        // A new notification in the group, after the answer: it is new, and shows.
        session.apply(.notified(Self.group("m1", .mention, newest: "n9")))
        plain.showWaiting()
        #expect(Self.shown(plain) == ["m1", "f1", "m2"])
    }
}
