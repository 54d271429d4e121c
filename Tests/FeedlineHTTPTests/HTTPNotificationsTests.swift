@_spi(FeedService) import Feedline
@_spi(FeedService) import FeedlineMastodon
import Foundation
import Testing

/// Notifications over real HTTP from both kinds of server: Mastodon 4.3 groups them
/// (`GET /api/v2/notifications`); an older one answers that with 404 (JSON, or an HTML page from
/// a proxy), so the service falls back to `GET /api/v1/notifications`, groups on the client, and
/// stays there.
@Suite("HTTP notifications")
struct HTTPNotificationsTests {
    static let grouped = "/api/v2/notifications"
    static let plain = "/api/v1/notifications"
    static let older: [FakeMastodon.GroupedNotifications] = [.missing, .missingPage]

    /// The notification id as a number, for range checks.
    static func number(_ id: ItemID) -> UInt64 { UInt64(id.rawValue) ?? 0 }

    /// The fixtures' newest group: Hugo's, Wen's and Kemi's favourites of your Saturday post.
    static func expectNewestGroup(_ group: NotificationGroup?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(group?.summary == "Hugo Marchetti, 陈文 and 1 other favourited your post", sourceLocation: sourceLocation)
        #expect(group?.kind == .favourite && group?.count == 3, sourceLocation: sourceLocation)
        #expect(group?.accounts.map(\.handle) == ["hugo@kettle.town", "wen@teahouse.cafe", "kemi@fieldnotes.science"], sourceLocation: sourceLocation)
        #expect(group?.post?.id == "117653768537262858", sourceLocation: sourceLocation)
        #expect(group?.newestID == "48102428" && group?.oldestID == "48102319", sourceLocation: sourceLocation)
    }

    @Test("Mastodon 4.3: GET /api/v2/notifications, each group's accounts and post taken from the answer's lists")
    func groupedFirstPage() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            let page = try await service.notifications(of: [], after: nil)
            #expect(page.items.count == 20)
            Self.expectNewestGroup(page.items.first)
            #expect(page.items.dropFirst().first?.summary == "Sam Whitfield followed you")
            // The server's keys, kinds and ids, as it sent them.
            let keyed = fake.notifications
            for group in page.items {
                let members = keyed.filter { $0.groupKey == group.id }
                #expect(!members.isEmpty, "\(group.id) is one of the server's group keys")
                #expect(members.allSatisfy { $0.type == group.kind.apiName })
                #expect(members.first?.status?.id == group.post?.id.rawValue)
                #expect(group.accounts.map(\.id) == members.filter { Self.number(ItemID($0.id)) <= Self.number(group.newestID) }.prefix(8).map(\.account.id))
            }
            let requests = fake.requests
            #expect(requests.map(\.description) == ["GET \(Self.grouped) [(key: \"limit\", value: \"20\")]"])
            #expect(requests.allSatisfy { $0.authorization == "Bearer \(secretToken)" })
        }
    }

    @Test("Mastodon 4.3: paging follows Link to the end, and every notification falls within a group of its key")
    func groupedToTheEnd() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            let pages = try await walkNotifications(service)
            #expect(pages.count > 2)
            #expect(pages.last?.items.isEmpty == true, "Mastodon links a next page until one is empty")
            let groups = pages.flatMap(\.items)
            for notification in fake.notifications {
                let id = Self.number(ItemID(notification.id))
                #expect(
                    groups.contains { $0.id == notification.groupKey && Self.number($0.oldestID) <= id && id <= Self.number($0.newestID) },
                    "notification \(notification.id) (\(notification.groupKey ?? "?")) is in no group"
                )
            }
            let requests = fake.requests
            #expect(requests.count == pages.count)
            #expect(requests.allSatisfy { $0.path == Self.grouped })
            // Each page starts below the newest notification of the last group of the page before.
            let cuts = pages.dropLast().compactMap { $0.items.last?.newestID.rawValue }
            #expect(requests.dropFirst().map { $0.query["max_id"] } == cuts)
        }
    }

    @Test("an older server's 404 to /api/v2 falls back to /api/v1 once, grouped on the client, and stays there", arguments: older)
    func fallback(_ kind: FakeMastodon.GroupedNotifications) async throws {
        try await withFixtureServer(grouped: kind) { fake, server in
            let service = try makeService(server, pageSize: 20)
            let first = try await service.notifications(of: [], after: nil)
            Self.expectNewestGroup(first.items.first)
            #expect(fake.requests.map { "\($0.path) \($0.query)" } == ["\(Self.grouped) [\"limit\": \"20\"]", "\(Self.plain) [\"limit\": \"20\"]"])

            let pages = try await walkNotifications(service)
            // Client groups count only their page's notifications: together, each one exactly once.
            #expect(pages.flatMap(\.items).map(\.count).reduce(0, +) == fake.notifications.count)
            // Full pages, the short last one, then the empty one its next link leads to.
            #expect(pages.count == (fake.notifications.count + 19) / 20 + 1)
            _ = try await service.newerNotifications(of: [], than: first.items[0].newestID, olderThan: nil)

            let requests = fake.requests
            #expect(requests.filter { $0.path == Self.grouped }.count == 1, "only the first call asks /api/v2")
            #expect(requests.dropFirst().allSatisfy { $0.path == Self.plain })
            #expect(requests.last?.query == ["since_id": "48102428", "limit": "21"])
        }
    }

    @Test("once /api/v2 has answered, a 404 from it is an error, not a reason to fall back")
    func noLateFallback() async throws {
        try await withFixtureServer { fake, server in
            let service = try makeService(server, pageSize: 20)
            let first = try await service.notifications(of: [], after: nil)
            fake.fail(Self.grouped, status: 404, error: "Record not found")
            let error = await thrownError { _ = try await service.notifications(of: [], after: first.next) }
            #expect(error as? MastodonHTTPError == .notFound(serverMessage: "Record not found"))
            #expect(fake.requests.map(\.path) == [Self.grouped, Self.grouped])
        }
    }

    @Test("newer notifications ask since_id (and max_id for a gap) of either endpoint", arguments: [FakeMastodon.GroupedNotifications.supported, .missing])
    func newer(_ kind: FakeMastodon.GroupedNotifications) async throws {
        try await withFixtureServer(grouped: kind) { fake, server in
            let service = try makeService(server, pageSize: 20)
            let top = try #require(try await service.notifications(of: [], after: nil).items.first)
            let path = kind == .supported ? Self.grouped : Self.plain
            let accounts = fake.knownAccounts()
            let mira = try #require(accounts.first { $0.acct == "mira" })
            let tomas = try #require(accounts.first { $0.acct == "tomas@kettle.town" })
            let favourited = fake.notify("favourite", by: mira, about: "117653768537262858", at: try Date("2026-11-21T17:20:00Z", strategy: .iso8601))
            let followed = fake.notify("follow", by: tomas, at: try Date("2026-11-21T17:45:00Z", strategy: .iso8601))

            let newer = try await service.newerNotifications(of: [], than: top.newestID, olderThan: nil)
            #expect(fake.requests.last.map { "\($0.path) \($0.query.sorted { $0.key < $1.key })" }
                == "\(path) [(key: \"limit\", value: \"21\"), (key: \"since_id\", value: \"48102428\")]")
            #expect(!newer.hasMore)
            #expect(newer.items.map(\.kind) == [.follow, .favourite])
            #expect(newer.items.map(\.newestID.rawValue) == [followed, favourited])
            let favourite = try #require(newer.items.last)
            #expect(favourite.accounts.first?.handle == "mira")
            if kind == .supported {
                // The server's group grew: same key, its new total.
                #expect(favourite.id == top.id && favourite.count == 4)
            } else {
                // The client sees only the new favourite.
                #expect(favourite.count == 1)
            }

            // A gap between two notifications: only what lies strictly between them.
            let gap = try await service.newerNotifications(of: [], than: "48102079", olderThan: "48102194")
            #expect(fake.requests.last.map { "\($0.path) \($0.query.sorted { $0.key < $1.key })" }
                == "\(path) [(key: \"limit\", value: \"21\"), (key: \"max_id\", value: \"48102194\"), (key: \"since_id\", value: \"48102079\")]")
            #expect(gap.items.map(\.summary) == ["Marisol Vega 🪶 and Ruth Calder 📚 favourited your post", "Nadia Petrova followed you"])
            #expect(gap.items.allSatisfy { 48102079 < Self.number($0.oldestID) && Self.number($0.newestID) < 48102194 })
            #expect(!gap.hasMore)
        }
    }

    @Test("on an older server a full answer means more may wait (hasMore), however few groups its notifications make")
    func plainFullAnswerHasMore() async throws {
        try await withFixtureServer(grouped: .missing) { fake, server in
            let service = try makeService(server, pageSize: 20)
            let top = try #require(try await service.notifications(of: [], after: nil).items.first)
            // 25 favourites of one post within the hour, by 25 accounts: one group on the client.
            let template = try #require(fake.knownAccounts().first)
            let post = "117650600813032245"
            let start = try Date("2026-11-21T17:00:00Z", strategy: .iso8601)
            for index in 0..<25 {
                var account = template
                account.id = "7700\(index)"
                account.username = "fan\(index)"
                account.acct = "fan\(index)@crowd.example"
                account.displayName = "Fan \(index)"
                fake.notify("favourite", by: account, about: post, at: start.addingTimeInterval(Double(index) * 60))
            }
            let newer = try await service.newerNotifications(of: [], than: top.newestID, olderThan: nil)
            #expect(newer.items.count == 1 && newer.items.first?.count == 21)
            #expect(newer.hasMore, "21 of the 25 favourites came: 4 are still missing")

            let rest = try await service.newerNotifications(of: [], than: top.newestID, olderThan: try #require(newer.items.last?.oldestID))
            #expect(rest.items.map(\.count) == [4] && !rest.hasMore)
        }
    }
}
