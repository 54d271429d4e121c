@_spi(FeedService) import Feedline
import Foundation

/// Scheduled posts:
///
/// - `POST /api/v1/statuses` with `scheduled_at` (ISO 8601, UTC) and the submission's
///   `Idempotency-Key` answers a `ScheduledStatus`, not a `Status`: no post exists until then.
/// - `GET /api/v1/scheduled_statuses` lists them, paged by its `Link` header (`max_id`).
/// - `PUT /api/v1/scheduled_statuses/:id` with the form field `scheduled_at` moves one and
///   answers it; `DELETE /api/v1/scheduled_statuses/:id` cancels it (answers `{}`).
///
/// A time not more than 5 minutes ahead is refused with 422 and the server's sentence.
extension MastodonHTTPService {
    /// The path of the scheduled-post endpoints.
    static let scheduledPath = "/api/v1/scheduled_statuses"

    /// `POST /api/v1/statuses` with `scheduled_at`: the scheduled post the server keeps.
    @_spi(FeedService) public func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost {
        var draft = draft
        for index in draft.media.indices where draft.media[index].existingID == nil {
            draft.media[index].existingID = try await upload(draft.media[index])
        }
        let request = APIRequest(
            method: "POST", url: server.url(path: "/api/v1/statuses"), what: "the scheduled post", json: try Self.statusBody(draft),
            headers: ["Idempotency-Key": idempotencyKey]
        )
        let response = try await writing { try await send(request) }
        return ScheduledPost(try decode(Mastodon.ScheduledStatus.self, from: response, what: request.what))
    }

    /// A page of the scheduled posts (``pageSize`` of them for a `nil` cursor, otherwise the
    /// page the cursor names); the next cursor is the answer's `rel="next"` link.
    @_spi(FeedService) public func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost> {
        try await ownPage(Mastodon.ScheduledStatus.self, path: Self.scheduledPath, after: cursor, what: "your scheduled posts") { ScheduledPost($0) }
    }

    /// `PUT /api/v1/scheduled_statuses/:id` with `scheduled_at`: the post as the server has it.
    @_spi(FeedService) public func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost {
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "scheduled_at", value: Mastodon.DateFormat.timestamp(date))]
        let request = APIRequest(
            method: "PUT", url: server.url(path: Self.scheduledPath + "/" + URLPath.encode(id)), what: "the new time of the scheduled post",
            form: Data((form.percentEncodedQuery ?? "").utf8)
        )
        let response = try await writing { try await send(request) }
        return ScheduledPost(try decode(Mastodon.ScheduledStatus.self, from: response, what: request.what))
    }

    /// `DELETE /api/v1/scheduled_statuses/:id`.
    public func cancelScheduled(_ id: String) async throws {
        let request = APIRequest(method: "DELETE", url: server.url(path: Self.scheduledPath + "/" + URLPath.encode(id)), what: "the cancellation of the scheduled post")
        _ = try await writing { try await send(request) }
    }
}
