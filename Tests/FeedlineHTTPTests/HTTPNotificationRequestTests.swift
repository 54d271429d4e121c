@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

/// Issue 36's filtered notifications over HTTP, on Mastodon 4.3's real endpoint and payload
/// shapes (`FakeMastodon+NotificationRequests.swift`): the requests are read with
/// `GET /api/v1/notifications/requests` (the count a string, `last_status` a status or `null`,
/// paged by `Link`), answered with `POST …/:id/accept` or `…/dismiss`; a refusal is the server's
/// sentence, and a server before 4.3 says it has none.
@Suite("HTTP filtered notifications")
struct HTTPNotificationRequestTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)
    static let wren = Mastodon.Account(id: "900", username: "wren", acct: "wren@marshland.example", displayName: "Wren Ashby")
    static let deals = Mastodon.Account(id: "901", username: "deals", acct: "deals@coupons.example", displayName: "Best Deals")
    static let moss = Mastodon.Account(id: "902", username: "moss", acct: "moss@quietbog.example", displayName: "Moss")

    static func requests() -> [FakeMastodon.FilteredRequest] {
        let mention = Mastodon.Status(
            id: "117655410000000201", uri: "https://marshland.example/users/wren/statuses/117655410000000201", createdAt: now.addingTimeInterval(-60),
            account: wren, content: "<p>Is the north gate pond open on Saturday?</p>"
        )
        return [
            FakeMastodon.FilteredRequest(id: "30", createdAt: now.addingTimeInterval(-600), updatedAt: now.addingTimeInterval(-60), account: wren, notificationsCount: 4, lastStatus: mention),
            FakeMastodon.FilteredRequest(id: "20", createdAt: now.addingTimeInterval(-900), updatedAt: now.addingTimeInterval(-120), account: deals, notificationsCount: 2, lastStatus: nil),
            FakeMastodon.FilteredRequest(id: "10", createdAt: now.addingTimeInterval(-1200), updatedAt: now.addingTimeInterval(-180), account: moss, notificationsCount: 1, lastStatus: nil),
        ]
    }

    @Test("GET reads each NotificationRequest (the count a string, last_status a status or null), following the Link header")
    func read() async throws {
        try await withFakeServer { fake, server in
            fake.filteredRequests = Self.requests()
            let service = try makeService(server, pageSize: 2)
            let first = try await service.notificationRequests(after: nil)
            #expect(first.items.map(\.id) == ["30", "20"])
            let wren = try #require(first.items.first)
            #expect(wren.account.handle == "wren@marshland.example" && wren.account.displayName == "Wren Ashby")
            #expect(wren.notificationsCount == 4)
            #expect(wren.lastPost?.text == "Is the north gate pond open on Saturday?")
            #expect(wren.updatedAt == Self.now.addingTimeInterval(-60))
            #expect(first.items.last?.lastPost == nil)
            let next = try #require(first.next)
            let second = try await service.notificationRequests(after: next)
            #expect(second.items.map(\.id) == ["10"] && second.next == nil)
            #expect(fake.requests.map(\.path) == ["/api/v1/notifications/requests", "/api/v1/notifications/requests"])
            #expect(fake.requests.last?.query["max_id"] == "20")
            #expect(fake.requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("accept and dismiss POST to the request's own path; a gone one is the server's 404 sentence; a server before 4.3 says it has none")
    func answer() async throws {
        try await withFakeServer { fake, server in
            fake.filteredRequests = Self.requests()
            let service = try makeService(server)
            try await service.answerNotificationRequest("30", .accept)
            try await service.answerNotificationRequest("20", .dismiss)
            #expect(fake.requests.map { "\($0.method) \($0.path)" } == [
                "POST /api/v1/notifications/requests/30/accept", "POST /api/v1/notifications/requests/20/dismiss",
            ])
            #expect(fake.filteredRequests.map(\.id) == ["10"])
            do {
                try await service.answerNotificationRequest("30", .dismiss)
                Issue.record("a gone request was answered")
            } catch {
                let failure = FeedFailure(error)
                #expect(failure.message.contains("Record not found") && !failure.isTransient)
            }
            fake.groupedNotifications = .missing
            do {
                _ = try await service.notificationRequests(after: nil)
                Issue.record("a 4.2 server listed filtered notifications")
            } catch {
                #expect(FeedFailure(error).message == MastodonHTTPService.noNotificationRequests + ".")
            }
        }
    }

    @Test("through the session: gone from the screen at once; an accept has the notifications load again; a refusal brings the row back with its sentence")
    @MainActor
    func session() async throws {
        try await withFakeServer { fake, server in
            fake.filteredRequests = Self.requests()
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            session.navigator.push(.list(.notifications))
            session.navigator.push(.list(.notificationRequests))
            await session.settle()
            let screen = try #require(session.navigator.screens.compactMap(\.list).first { $0.source == .notificationRequests })
            @MainActor func shown() -> [String] { screen.rows.compactMap { $0.notificationRequest?.id } }
            #expect(shown() == ["30", "20", "10"])

            try session.answerNotificationRequest("30", .accept)
            #expect(shown() == ["20", "10"], "gone before the server answers")
            let asked = fake.requests.count
            await session.settle()
            let after = fake.requests.dropFirst(asked).map { "\($0.method) \($0.path)" }
            #expect(after.first == "POST /api/v1/notifications/requests/30/accept")
            #expect(after.dropFirst().contains("GET /api/v2/notifications"), "the notifications screen loads again once the accept is confirmed")

            fake.enqueue(FakeMastodon.Canned(method: "POST", pathPrefix: "/api/v1/notifications/requests/20/dismiss", status: 422, body: #"{"error":"Not today"}"#))
            try session.answerNotificationRequest("20", .dismiss)
            #expect(shown() == ["10"])
            await session.settle()
            #expect(shown() == ["20", "10"], "back where it was")
            #expect(session.notificationRequest("20")?.state.failure?.contains("Not today") == true)
            #expect(fake.filteredRequests.map(\.id) == ["20", "10"])
        }
    }

    @Test("answering all POSTs each request's own path, once each; a refused one comes back alone with the server's sentence")
    @MainActor
    func answerAll() async throws {
        try await withFakeServer { fake, server in
            fake.filteredRequests = Self.requests()
            let session = FeedSession(service: try makeService(server), clock: .fixed(Self.now), retryClock: ManualClock())
            session.navigator.push(.list(.notificationRequests))
            await session.settle()
            let screen = try #require(session.navigator.screens.compactMap(\.list).first { $0.source == .notificationRequests })
            @MainActor func shown() -> [String] { screen.rows.compactMap { $0.notificationRequest?.id } }
            #expect(shown() == ["30", "20", "10"])
            fake.enqueue(FakeMastodon.Canned(method: "POST", pathPrefix: "/api/v1/notifications/requests/20/dismiss", status: 404, body: #"{"error":"Record not found"}"#))
            let asked = fake.requests.count
            #expect(try session.answerAllNotificationRequests(.dismiss) == ["30", "20", "10"])
            #expect(shown() == [], "gone before the server answers")
            await session.settle()
            let posts = fake.requests.dropFirst(asked).filter { $0.method == "POST" }.map(\.path)
            #expect(posts.sorted() == ["/api/v1/notifications/requests/10/dismiss", "/api/v1/notifications/requests/20/dismiss", "/api/v1/notifications/requests/30/dismiss"])
            #expect(shown() == ["20"])
            #expect(session.notificationRequest("20")?.state.failure == "Could not dismiss it: Record not found.")
            #expect(fake.filteredRequests.map(\.id) == ["20"])
        }
    }
}
