@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

@_spi(FeedService) @testable import FeedlineMastodon

/// The sandbox's requests of filtered notifications, answered: an accept lets the one
/// notification the scenario knows in — the mention of the request's last status, in its place
/// by date — a dismissal lets nothing in, and a request without a last status brings none.
@Suite struct SandboxNotificationRequestTests {
    /// Every notification group the service serves, newest first, following the cursors.
    static func notifications(_ service: SandboxService) async throws -> [NotificationGroup] {
        var all: [NotificationGroup] = []
        var cursor: PageCursor?
        for _ in 0..<50 {
            let page = try await service.notifications(of: [], after: cursor)
            all += page.items
            guard let next = page.next else { break }
            cursor = next
        }
        return all
    }

    @Test("an accept lets the last status's mention in, by date; a dismissal and a request without a last status let nothing in")
    func acceptLetsTheMentionIn() async throws {
        let fixture = try FixtureLoader.load(from: PackagePaths.fixtures("timeline"))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock())
        let before = try await Self.notifications(service)
        #expect(!before.contains { $0.post?.id == "117655410000000201" })
        try await service.answerNotificationRequest("2", .dismiss)
        try await service.answerNotificationRequest("1", .accept)
        #expect(try await Self.notifications(service).count == before.count, "nothing let in")
        try await service.answerNotificationRequest("3", .accept)
        let after = try await Self.notifications(service)
        #expect(after.count == before.count + 1)
        let mention = try #require(after.first { $0.post?.id == "117655410000000201" })
        #expect(mention.kind == .mention && mention.accounts.map(\.handle) == ["wren@marshland.example"])
        #expect(after.map(\.latestAt) == after.map(\.latestAt).sorted(by: >), "in its place by date")
        #expect(try await service.notificationRequests(after: nil).items.isEmpty)
    }
}
