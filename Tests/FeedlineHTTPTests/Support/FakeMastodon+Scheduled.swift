@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Scheduled posts, as Mastodon serves them (kept in the model's ``ServerModel/scheduled``):
///
/// - `POST /api/v1/statuses` with `scheduled_at` answers a `ScheduledStatus` (`id`,
///   `scheduled_at`, `params` as sent — `text`, `spoiler_text`, `visibility`, `in_reply_to_id`,
///   `poll`, `media_ids`, `sensitive`, `idempotency`, `application_id`, `with_rate_limit`, the
///   rest `null` —, `media_attachments`), never a `Status`; no status is made. A time not more
///   than 5 minutes after the model's clock is 422. `Idempotency-Key` answers the scheduled post
///   already made for it.
/// - `GET /api/v1/scheduled_statuses`: newest id first, `limit` (20, at most 40), `max_id`; `Link`
///   has `next` after a full page.
/// - `PUT /api/v1/scheduled_statuses/:id` (form or JSON `scheduled_at`) answers it moved (422 too
///   soon, 404 gone); `DELETE` answers `{}` (404 gone).
///
/// All need a user (401).
extension FakeMastodon {
    /// Mastodon's sentence for a time too soon (`scheduled_statuses.too_soon`).
    static let scheduledTooSoon = "Validation failed: Scheduled at The scheduled date must be in the future"

    /// Puts `posts` on the server as scheduled.
    func schedule(_ posts: [ScheduledPost]) {
        state.withLock { state in
            state.server.scheduled += posts
            state.server.scheduledMade = max(state.server.scheduledMade, posts.compactMap { Int($0.id) }.max() ?? 0)
        }
    }

    /// The scheduled posts the server keeps now.
    var scheduledPosts: [ScheduledPost] { state.withLock { $0.server.scheduled } }

    /// A scheduled post as Mastodon's JSON has it.
    static func scheduledJSON(_ post: ScheduledPost, poll: Any = NSNull(), mediaIDs: Any = NSNull(), sensitive: Any = NSNull()) -> [String: Any] {
        [
            "id": post.id, "scheduled_at": Mastodon.DateFormat.timestamp(post.scheduledAt),
            "params": [
                "text": post.text, "spoiler_text": post.contentWarning.map { $0 as Any } ?? NSNull(), "visibility": post.visibility.rawValue,
                "in_reply_to_id": post.inReplyTo.map { $0.rawValue as Any } ?? NSNull(), "poll": poll, "media_ids": mediaIDs, "sensitive": sensitive,
                "idempotency": NSNull(), "scheduled_at": NSNull(), "application_id": 596_551, "with_rate_limit": false,
            ] as [String: Any],
            "media_attachments": [Any](),
        ]
    }

    /// `POST /api/v1/statuses` with `scheduled_at` (from ``writingRoute(_:)``).
    func createScheduled(_ request: Recorded, at text: String) -> HTTPResponse {
        let body = request.json
        guard let at = Mastodon.DateFormat.date(from: text) else { return Self.error(422, "Validation failed: Scheduled at is invalid") }
        return state.withLock { state in
            if let key = request.idempotencyKey, let id = state.server.scheduledKeys[key], let known = state.server.scheduled.first(where: { $0.id == id }) {
                return Self.object(Self.scheduledJSON(known))
            }
            guard at.timeIntervalSince(state.server.now) > 300 else { return Self.error(422, Self.scheduledTooSoon) }
            state.server.scheduledMade += 1
            let post = ScheduledPost(
                id: String(state.server.scheduledMade), scheduledAt: at, text: body["status"] as? String ?? "",
                contentWarning: (body["spoiler_text"] as? String).flatMap { $0.isEmpty ? nil : $0 },
                visibility: PostVisibility(serverName: body["visibility"] as? String ?? "public"), inReplyTo: (body["in_reply_to_id"] as? String).map { PostID($0) }
            )
            state.server.scheduled.append(post)
            if let key = request.idempotencyKey { state.server.scheduledKeys[key] = post.id }
            return Self.object(Self.scheduledJSON(post, poll: body["poll"] ?? NSNull(), mediaIDs: body["media_ids"] ?? NSNull(), sensitive: body["sensitive"] ?? NSNull()))
        }
    }

    func scheduledRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0...2] == ["api", "v1", "scheduled_statuses"] else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (request.method, parts.count) {
        case ("GET", 3):
            return state.withLock { state in
                let all = state.server.scheduled.sorted { (Int($0.id) ?? 0) > (Int($1.id) ?? 0) }
                let limit = Self.limit(request, default: 20, maximum: 40)
                let below = request.query["max_id"].flatMap { Int($0) } ?? .max
                let page = Array(all.filter { (Int($0.id) ?? 0) < below }.prefix(limit))
                let data = (try? JSONSerialization.data(withJSONObject: page.map { Self.scheduledJSON($0) }, options: [.sortedKeys])) ?? Data("[]".utf8)
                return Self.response(200, page.count == limit ? link(request, next: page.last?.id, previous: nil) : [:], data)
            }
        case ("PUT", 4):
            guard let text = request.form["scheduled_at"] ?? request.json["scheduled_at"] as? String, let at = Mastodon.DateFormat.date(from: text) else {
                return Self.error(422, "Validation failed: Scheduled at is invalid")
            }
            return state.withLock { state in
                guard let index = state.server.scheduled.firstIndex(where: { $0.id == parts[3] }) else { return Self.error(404, "Record not found") }
                guard at.timeIntervalSince(state.server.now) > 300 else { return Self.error(422, Self.scheduledTooSoon) }
                state.server.scheduled[index].scheduledAt = at
                return Self.object(Self.scheduledJSON(state.server.scheduled[index]))
            }
        case ("DELETE", 4):
            return state.withLock { state in
                guard state.server.scheduled.contains(where: { $0.id == parts[3] }) else { return Self.error(404, "Record not found") }
                state.server.scheduled.removeAll { $0.id == parts[3] }
                return Self.object([:])
            }
        default:
            return nil
        }
    }
}
