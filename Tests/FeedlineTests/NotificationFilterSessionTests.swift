@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// A notifications screen filtered by kind: it asks the service for those kinds only, and a
/// streamed notification reaches it only when of one of them, while the plain screen takes all.
@MainActor
@Suite("Notifications filtered by kind", .timeLimit(.minutes(10)))
struct NotificationFilterSessionTests {
    static let ana = Author(id: "a", displayName: "Ana", handle: "ana")

    static func group(_ id: String, _ kind: NotificationGroup.Kind, newest: String) -> NotificationGroup {
        NotificationGroup(id: id, kind: kind, accounts: [ana], count: 1, post: kind == .follow ? nil : makePost("p1"), latestAt: testNow, newestID: ItemID(newest))
    }

    private func session() async -> (FeedSession, GatedServer) {
        let groups = [Self.group("m1", .mention, newest: "n4"), Self.group("f1", .follow, newest: "n3"), Self.group("m2", .mention, newest: "n2")]
        let service = GatedServer(posts: makePosts(5), notifications: groups, answering: [.page, .notifications, .newerNotifications])
        let session = FeedSession(service: service, clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return (session, service)
    }

    @Test("a filtered screen asks for its kinds and shows only them; the route names the filter")
    func loads() async {
        let (session, service) = await session()
        session.navigator.push(.list(.notificationsOf([.mention])))
        await session.settle()
        guard case .list(let mentions) = session.navigator.top else {
            Issue.record("expected a list on top")
            return
        }
        #expect(service.asked.contains("notifications(of: mentions, after: nil)"))
        #expect(mentions.rows.compactMap { $0.notification?.group.id } == ["m1", "m2"])
        #expect(session.navigator.top.route.description == "list(notifications:mentions)")
    }

    @Test("a streamed notification reaches every notifications screen of its kind, and no other")
    func streamed() async {
        let (session, _) = await session()
        session.navigator.push(.list(.notifications))
        session.navigator.push(.list(.notificationsOf([.mention])))
        session.navigator.push(.list(.notificationsOf([.follow, .favourite])))
        await session.settle()
        let lists = session.navigator.screens.compactMap(\.list).filter { $0.source.notificationKinds != nil }
        guard lists.count == 3 else {
            Issue.record("expected three notifications screens")
            return
        }
        let (plain, mentions, follows) = (lists[0], lists[1], lists[2])
        session.apply(.notified(Self.group("m3", .mention, newest: "n5")))
        #expect(plain.status.waiting == 1)
        #expect(mentions.status.waiting == 1)
        #expect(follows.status.waiting == 0, "a mention is no follow or favourite")
        session.apply(.notified(Self.group("f2", .follow, newest: "n6")))
        #expect(plain.status.waiting == 2)
        #expect(mentions.status.waiting == 1, "a follow is no mention")
        #expect(follows.status.waiting == 1)
        await session.settle()
    }
}
