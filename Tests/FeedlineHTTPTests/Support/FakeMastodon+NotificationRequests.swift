@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// The requests of filtered notifications, as Mastodon 4.3 serves them (kept in the fake's
/// state, newest first):
///
/// - `GET /api/v1/notifications/requests`: `limit` (40, at most 80), `max_id`; each a
///   `NotificationRequest` — `id`, `created_at`, `updated_at`, `account` (an `Account`),
///   `notifications_count` (a string, as Mastodon writes it) and `last_status` (a `Status` or
///   `null`); `Link` has `next` after a full page.
/// - `POST /api/v1/notifications/requests/:id/accept` and `…/dismiss` answer `{}` and take the
///   request away (404 `Record not found` when there is none).
///
/// All need a user (401). A server before 4.3 (``GroupedNotifications/missing``) has no route: 404.
extension FakeMastodon {
    /// A request of filtered notifications as the fake keeps it.
    struct FilteredRequest: Sendable, Encodable {
        var id: String
        var createdAt: Date
        var updatedAt: Date
        var account: Mastodon.Account
        var notificationsCount: Int
        var lastStatus: Mastodon.Status?

        enum CodingKeys: String, CodingKey {
            case id, createdAt = "created_at", updatedAt = "updated_at", account, notificationsCount = "notifications_count", lastStatus = "last_status"
        }

        /// Mastodon's JSON: the count as a string, `last_status` `null` when there is none.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(account, forKey: .account)
            try container.encode(String(notificationsCount), forKey: .notificationsCount)
            try container.encode(lastStatus, forKey: .lastStatus)
        }
    }

    /// The requests the server keeps now, newest first.
    var filteredRequests: [FilteredRequest] {
        get { state.withLock { $0.filteredRequests } }
        set { state.withLock { $0.filteredRequests = newValue } }
    }

    func notificationRequestsRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0...3] == ["api", "v1", "notifications", "requests"] else { return nil }
        if state.withLock({ $0.groupedNotifications != .supported }) { return Self.error(404, "Not Found") }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, parts.count) {
        case ("GET", 4):
            return state.withLock { state in
                let limit = Self.limit(request, default: 40, maximum: 80)
                let below = request.query["max_id"].flatMap { Int($0) } ?? .max
                let page = Array(state.filteredRequests.filter { (Int($0.id) ?? 0) < below }.prefix(limit))
                return Self.json(page, headers: page.count == limit ? link(request, next: page.last?.id, previous: nil) : [:])
            }
        case ("POST", 6) where ["accept", "dismiss"].contains(parts[5]):
            return state.withLock { state in
                guard state.filteredRequests.contains(where: { $0.id == parts[4] }) else { return Self.error(404, "Record not found") }
                state.filteredRequests.removeAll { $0.id == parts[4] }
                return Self.object([:])
            }
        default:
            return nil
        }
    }
}
