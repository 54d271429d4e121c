import Foundation

/// Posts kept by the server to publish later: making, listing, moving and cancelling them.
/// Part of `FeedService`.
@_spi(FeedService) public protocol ScheduledService: Sendable {
    /// Schedules `draft` for ``Draft/scheduledAt`` (`POST /api/v1/statuses` with `scheduled_at`)
    /// and returns what the server keeps. `idempotencyKey` is the same on every attempt of one
    /// submission: a server that already scheduled it for that key answers with that one.
    func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost

    /// One page of the scheduled posts, soonest first, after `cursor` (`nil`: the first page)
    /// (`GET /api/v1/scheduled_statuses`, paged by its `Link` header).
    func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost>

    /// Moves the scheduled post `id` to `date` (`PUT /api/v1/scheduled_statuses/:id`) and
    /// returns it as the server has it.
    func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost

    /// Cancels the scheduled post `id` (`DELETE /api/v1/scheduled_statuses/:id`).
    func cancelScheduled(_ id: String) async throws
}
