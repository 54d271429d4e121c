@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's filtered notifications (Mastodon 4.3's notification requests) through the session:
/// accepting or dismissing one takes it off every filtered screen at once; a refusal brings it
/// back with the server's sentence; a lost connection queues it and a retry sends it again; an
/// accept the server confirmed has every notifications screen load its first page, where the
/// account's notifications now are.
@MainActor
@Suite("Filtered notifications across the session", .timeLimit(.minutes(10)))
struct NotificationRequestSessionTests {
    static let ana = Author(id: "a", displayName: "Ana", handle: "ana@pond.example")
    static let bo = Author(id: "b", displayName: "Bo", handle: "bo")
    static let cy = Author(id: "c", displayName: "Cy", handle: "cy@far.example")

    static func request(_ id: String, _ account: Author, count: Int, minutesAgo: Double) -> NotificationRequest {
        let at = testNow.addingTimeInterval(-60 * minutesAgo)
        return NotificationRequest(id: id, account: account, notificationsCount: count, lastPost: makePost("last-\(id)", author: account), createdAt: at, updatedAt: at)
    }

    static func group(_ id: String, from account: Author, newest: String) -> NotificationGroup {
        NotificationGroup(id: id, kind: .mention, accounts: [account], count: 1, post: makePost("p-\(id)", author: account), latestAt: testNow, newestID: ItemID(newest))
    }

    /// A server with one notification and three requests (r1 newest), served two a page.
    static func server(sourceLocation: SourceLocation = #_sourceLocation) -> GatedServer {
        var model = ServerModel([makePost("h1", minutesAgo: 1, author: bo)])
        model.timelines.feeds[.home] = ["h1"]
        model.timelines.notifications = [group("g1", from: bo, newest: "n1")]
        model.notificationRequests = [request("r1", ana, count: 3, minutesAgo: 1), request("r2", bo, count: 1, minutesAgo: 2), request("r3", cy, count: 2, minutesAgo: 3)]
        return GatedServer(model, answering: [.page, .notifications, .newerNotifications, .notificationRequests], sourceLocation: sourceLocation)
    }

    /// A session showing the notifications, then two filtered screens with a timeline between.
    static func session(_ server: GatedServer) async -> (FeedSession, notifications: FeedListViewModel, FeedListViewModel, FeedListViewModel) {
        let session = FeedSession(service: server, clock: .fixed(testNow), retryClock: ManualClock())
        session.navigator.push(.list(.notifications))
        session.navigator.push(.list(.notificationRequests))
        session.navigator.push(.list(.feed(.local)))
        session.navigator.push(.list(.notificationRequests))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list)
        let filtered = lists.filter { $0.source == .notificationRequests }
        let notifications = lists.first { $0.source == .notifications }
        return (session, notifications ?? session.root, filtered[0], filtered[1])
    }

    /// The rows of a filtered screen: request id, `…` while its answer waits, `!` with a refusal.
    static func shown(_ list: FeedListViewModel) -> [String] {
        list.rows.compactMap { row -> String? in
            guard case .notificationRequest(let request, let state) = row else { return nil }
            return request.id + (state.pending ? "…" : "") + (state.failure == nil ? "" : "!")
        }
    }

    @Test("every page is shown, newest first, with the account, the count and the last post")
    func screen() async throws {
        let server = Self.server()
        let (session, _, first, second) = await Self.session(server)
        #expect(Self.shown(first) == ["r1", "r2", "r3"], "both pages, followed to the end")
        #expect(Self.shown(second) == Self.shown(first))
        let request = try #require(first.rows.first?.notificationRequest)
        #expect(request.account == Self.ana && request.notificationsCount == 3 && request.lastPost?.id == "last-r1")
        #expect(session.notificationRequestList.map(\.id) == ["r1", "r2", "r3"])
    }

    @Test("an accept leaves every filtered screen at once; confirmed, the notifications screen loads its first page and shows the account's")
    func acceptReloadsNotifications() async throws {
        let server = Self.server()
        let (session, notifications, first, second) = await Self.session(server)
        let log = OutcomeLog(session)
        #expect(notifications.rows.compactMap { $0.notification?.id } == ["g1"])
        server.hold(.answerNotificationRequest)
        try session.answerNotificationRequest("r1", .accept)
        #expect(Self.shown(first) == ["r2", "r3"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(session.isNotificationRequestPending("r1"))
        await server.waitForHeld(1)
        let pagesBefore = server.calls(.notifications).count
        // The server lets Ana's notifications through as it accepts.
        server.update { $0.timelines.notifications.insert(Self.group("g2", from: Self.ana, newest: "n2"), at: 0) }
        #expect(server.answerHeld(at: 0))
        await session.settle()
        #expect(server.calls(.notifications).count == pagesBefore + 1, "the notifications screen asked for its first page once")
        #expect(notifications.rows.compactMap { $0.notification?.id } == ["g2", "g1"])
        #expect(Self.shown(first) == ["r2", "r3"])
        #expect(server.calls(.answerNotificationRequest).map(\.description) == ["answerNotificationRequest(r1, accept)"])
        #expect(server.model.notificationRequests.map(\.id) == ["r2", "r3"])
        #expect(log.heard == [.done(.notificationRequest("r1", accept: true))])
    }

    @Test("a refused dismissal comes back on every filtered screen with the server's sentence, and reloads nothing")
    func refusedDismissal() async throws {
        let server = Self.server()
        let (session, _, first, second) = await Self.session(server)
        let log = OutcomeLog(session)
        server.hold(.answerNotificationRequest)
        try session.answerNotificationRequest("r2", .dismiss)
        #expect(Self.shown(first) == ["r1", "r3"])
        #expect(Self.shown(second) == Self.shown(first))
        await server.waitForHeld(1)
        let pagesBefore = server.calls(.notifications).count
        #expect(server.failHeld(at: 0, with: ServerRefusal("This action is not allowed")))
        await session.settle()
        #expect(Self.shown(first) == ["r1", "r2!", "r3"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(session.notificationRequest("r2")?.state.failure == "Could not dismiss it: This action is not allowed")
        #expect(server.calls(.notifications).count == pagesBefore)
        #expect(log.heard == [.refused(.notificationRequest("r2", accept: false), sentence: "This action is not allowed")])
        #expect(server.model.notificationRequests.count == 3)
    }

    @Test("unreachable, an accept stays off the screens, queued; a retry sends it again and the notifications reload")
    func queuedThenRetried() async throws {
        let server = Self.server()
        let (session, _, first, second) = await Self.session(server)
        let log = OutcomeLog(session)
        server.fail(.answerNotificationRequest, with: ServerUnreachable())
        try session.answerNotificationRequest("r3", .accept)
        await session.settle()
        #expect(Self.shown(first) == ["r1", "r2"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(session.hasFailures)
        #expect(session.notificationRequests.unsent == ["accept the filtered notifications of @cy@far.example"])
        let pagesBefore = server.calls(.notifications).count
        server.answer(.answerNotificationRequest)
        #expect(session.retry())
        await session.settle()
        #expect(!session.hasFailures)
        #expect(Self.shown(first) == ["r1", "r2"])
        #expect(server.model.notificationRequests.map(\.id) == ["r1", "r2"])
        #expect(server.calls(.answerNotificationRequest).count == 2)
        #expect(server.calls(.notifications).count == pagesBefore + 1)
        #expect(log.heard == [
            .queued(.notificationRequest("r3", accept: true), reason: "The server could not be reached.", resendAfter: .seconds(2)),
            .done(.notificationRequest("r3", accept: true)),
        ])
        #expect(throws: FeedFailure(message: "There is no filtered notification request r3.", isTransient: false)) {
            try session.answerNotificationRequest("r3", .dismiss)
        }
    }

    @Test("answering all takes every shown request off every filtered screen at once; each is its own request, a refused one comes back alone")
    func answerAll() async throws {
        let server = Self.server()
        let (session, _, first, second) = await Self.session(server)
        let log = OutcomeLog(session)
        server.hold(.answerNotificationRequest)
        try session.answerNotificationRequest("r2", .dismiss)
        await server.waitForHeld(1)
        // r2 is being answered: all of the others are accepted, r2 is left to its own answer.
        #expect(try session.answerAllNotificationRequests(.accept) == ["r1", "r3"])
        #expect(Self.shown(first) == [] && Self.shown(second) == [])
        #expect(throws: FeedFailure(message: "There are no filtered notifications to dismiss.", isTransient: false), "nothing shown is left to answer") {
            try session.answerAllNotificationRequests(.dismiss)
        }
        await server.waitForHeld(3)
        let asked = Set(server.calls(.answerNotificationRequest).map(\.description))
        #expect(asked == ["answerNotificationRequest(r2, dismiss)", "answerNotificationRequest(r1, accept)", "answerNotificationRequest(r3, accept)"])
        // The server refuses r3's accept and takes the others, in any order.
        let refused = try #require(server.held.calls.firstIndex { $0.description == "answerNotificationRequest(r3, accept)" })
        #expect(server.failHeld(at: refused, with: ServerRefusal("Record not found")))
        while server.answerHeld(at: 0) {}
        await session.settle()
        #expect(Self.shown(first) == ["r3!"])
        #expect(Self.shown(second) == Self.shown(first))
        #expect(server.model.notificationRequests.map(\.id) == ["r3"])
        #expect(Set(log.heard) == [
            .done(.notificationRequest("r2", accept: false)), .done(.notificationRequest("r1", accept: true)),
            .refused(.notificationRequest("r3", accept: true), sentence: "Record not found"),
        ])
    }
}
