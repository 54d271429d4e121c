@_spi(FeedService) import Feedline
import Foundation

/// Scheduled posts on the sandbox, as Mastodon's `POST /api/v1/statuses` with `scheduled_at`,
/// `GET /api/v1/scheduled_statuses` and `PUT/DELETE /api/v1/scheduled_statuses/:id` answer
/// them (rules in ``SandboxScheduled``); the list starts as the scenario's
/// `scheduled_statuses`. Scheduling is a ``SandboxScenario/Request/publish`` (its faults apply:
/// a lost answer schedules and then fails, and the key makes the next attempt answer the same
/// post); listing is ``SandboxScenario/Request/scheduled``, moving and cancelling
/// ``SandboxScenario/Request/scheduledChange``. The sandbox does not publish them when their
/// time comes.
extension SandboxService {
    /// Schedules `draft` for its ``Draft/scheduledAt``.
    @_spi(FeedService) public func schedule(_ draft: Draft, idempotencyKey: String) async throws -> ScheduledPost {
        try await performOnAccounts(.publish) { state, now throws(SandboxError) in
            try state.scheduled.schedule(draft, key: idempotencyKey, now: now)
        }
    }

    /// A page of the scheduled posts, soonest first.
    @_spi(FeedService) public func scheduledPosts(after cursor: PageCursor?) async throws -> Page<ScheduledPost> {
        let size = pageSize
        return try await performOnAccounts(.scheduled) { state, _ throws(SandboxError) in state.scheduled.page(after: cursor, size: size) }
    }

    /// Moves the scheduled post `id` to `date` (refused when not more than 5 minutes ahead).
    @_spi(FeedService) public func reschedule(_ id: String, to date: Date) async throws -> ScheduledPost {
        try await performOnAccounts(.scheduledChange) { state, now throws(SandboxError) in try state.scheduled.reschedule(id, to: date, now: now) }
    }

    /// Cancels the scheduled post `id`.
    public func cancelScheduled(_ id: String) async throws {
        try await performOnAccounts(.scheduledChange) { state, _ throws(SandboxError) in try state.scheduled.cancel(id) }
    }
}
