@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Dismissing a notification group asks Mastodon 4.3 by its group key, an older server for each
/// of its notifications; clearing asks for all at once. What was dismissed is gone from the next page.
@Suite("HTTP notifications dismissed and cleared")
struct HTTPNotificationDismissTests {
    @Test("dismiss posts the group key on /api/v2, each notification's id on /api/v1; the group is gone after", arguments: [FakeMastodon.GroupedNotifications.supported, .missing])
    func dismiss(_ endpoint: FakeMastodon.GroupedNotifications) async throws {
        try await withFixtureServer(grouped: endpoint) { fake, server in
            let service = try makeService(server, pageSize: 40)
            let groups = try await service.notifications(of: [], after: nil).items
            let group = try #require(groups.max { $0.count < $1.count })
            #expect(group.count > 1, "the fixtures hold a group of several")
            let members = zip(fake.notifications, NotificationGroup.groupKeys(fake.notifications)).filter { $0.1 == group.id }.map(\.0.id)
            let before = fake.notifications.count
            try await service.dismissNotificationGroup(group.id)
            let posts = fake.requests.filter { $0.method == "POST" }.map(\.path)
            if endpoint == .supported {
                #expect(posts == ["/api/v2/notifications/\(group.id)/dismiss"])
            } else {
                #expect(Set(posts) == Set(members.map { "/api/v1/notifications/\($0)/dismiss" }))
                #expect(posts.count == members.count)
            }
            let after = try await service.notifications(of: [], after: nil).items
            #expect(!after.contains { $0.id == group.id })
            // On /api/v1 a page counts notifications, not groups: the server's count says what left.
            #expect(fake.notifications.count == before - members.count)
        }
    }

    @Test("clear posts /api/v1/notifications/clear; no notification is left")
    func clear() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 40)
            #expect(try await !service.notifications(of: [], after: nil).items.isEmpty)
            try await service.clearNotifications()
            #expect(fake.requests.filter { $0.method == "POST" }.map(\.path) == ["/api/v1/notifications/clear"])
            #expect(try await service.notifications(of: [], after: nil).items.isEmpty)
        }
    }
}
