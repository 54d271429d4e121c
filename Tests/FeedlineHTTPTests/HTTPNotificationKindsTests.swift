@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// A notifications screen filtered by kind asks Mastodon for those kinds with `types[]`, on
/// either endpoint, on every page (the `Link` the server sends keeps them) and on newer pages.
@Suite("HTTP notifications of some kinds")
struct HTTPNotificationKindsTests {
    @Test("types[] goes with every page and newer page; the groups are of those kinds, and each such notification is in one", arguments: [FakeMastodon.GroupedNotifications.supported, .missing])
    func kinds(_ endpoint: FakeMastodon.GroupedNotifications) async throws {
        try await withFixtureServer(grouped: endpoint) { fake, server in
            let service = try makeService(server, pageSize: 5)
            let kinds: Set<NotificationGroup.Kind> = [.follow, .mention]
            let wanted = fake.notifications.filter { ["follow", "mention"].contains($0.type) }
            #expect(!wanted.isEmpty && wanted.count < fake.notifications.count, "the fixtures hold these kinds and others")
            let pages = try await walkNotifications(service, of: kinds)
            let groups = pages.flatMap(\.items)
            #expect(groups.allSatisfy { kinds.contains($0.kind) })
            #expect(groups.map(\.count).reduce(0, +) >= wanted.count)
            for notification in wanted {
                #expect(groups.contains { $0.kind.apiName == notification.type && $0.accounts.contains { $0.id == notification.account.id } })
            }
            let top = try #require(groups.first)
            _ = try await service.newerNotifications(of: kinds, than: top.newestID, olderThan: nil)
            let requests = fake.requests.filter { [HTTPNotificationsTests.grouped, HTTPNotificationsTests.plain].contains($0.path) }
            #expect(requests.count == pages.count + 1 + (endpoint == .supported ? 0 : 1))
            for request in requests {
                #expect(request.queryItems.filter { $0.hasPrefix("types[]=") }.sorted() == ["types[]=follow", "types[]=mention"], "\(request.queryItems)")
            }
        }
    }

    @Test("the whole list sends no types[]")
    func everyKind() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            _ = try await service.notifications(of: [], after: nil)
            #expect(fake.requests.first?.queryItems == ["limit=20"])
        }
    }
}
