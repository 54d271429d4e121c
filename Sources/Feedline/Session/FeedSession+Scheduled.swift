import Foundation

extension FeedSession {
    /// Your scheduled posts as every screen shows them now, soonest first: a move shows its new
    /// time, a cancellation is gone, at once (see ``ListSource/scheduled``). Filled by the
    /// scheduled screen's loads and by the drafts a submission scheduled.
    @_spi(FeedService) public var scheduledPosts: [ScheduledPost] { scheduled.rows.map(\.post) }

    /// The scheduled post `id` with whether a change of it waits for the server and its last
    /// refusal, or `nil`.
    @_spi(FeedService) public func scheduledPost(_ id: String) -> (post: ScheduledPost, state: ToggleDisplay)? {
        scheduled.row(id).map { ($0.post, $0.state) }
    }

    /// Moves the scheduled post `id` to `date` (`PUT /api/v1/scheduled_statuses/:id`): every
    /// screen shows the new time at once; a refusal brings the old one back with the server's
    /// sentence on the row, a lost connection sends it again later (``retry()`` at once). The
    /// outcome is ``Outcome/Subject/scheduled(_:at:)``. Throws why (nothing happens) for an
    /// unknown post or a time not more than 5 minutes ahead by the session's clock.
    public func reschedule(_ id: String, to date: Date) throws(FeedFailure) {
        if let problem = ScheduleTime.tooSoon(date, now: clock.now()) { throw FeedFailure(message: problem, isTransient: false) }
        try scheduled.reschedule(id, to: date)
    }

    /// Moves the scheduled post `id` to the time `text` names, read by the session's clock in
    /// its time zone (`2026-12-01T09:00`, `in 30m`, `in 2h`, `in 1d`), as ``reschedule(_:to:)``
    /// does. Returns the time; throws a sentence showing the forms for a time it cannot read.
    @discardableResult
    public func reschedule(_ id: String, at text: String) throws(FeedFailure) -> Date {
        let date = try ScheduleTime.parse(text, now: clock.now(), timeZone: clock.timeZone)
        try reschedule(id, to: date)
        return date
    }

    /// Cancels the scheduled post `id` (`DELETE /api/v1/scheduled_statuses/:id`): off every
    /// screen at once; back, with the server's sentence, on refusal; sent again later when the
    /// server cannot be reached. Throws why (nothing happens) for an unknown post.
    public func cancelScheduled(_ id: String) throws(FeedFailure) {
        try scheduled.cancel(id)
    }
}
