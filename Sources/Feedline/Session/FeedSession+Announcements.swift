/// The instance's announcements: read on their screen (``ListSource/announcements``) and
/// counted at the start, marked read on every screen at once.
extension FeedSession {
    /// The announcements active now, fetched (counted in the session's activity) and learnt by
    /// the store every announcements screen shows, or why they could not be read.
    package func loadAnnouncements() async -> Result<[Announcement], FeedFailure> {
        let service = service
        let fetchedAt = announcements.beginFetch()
        let result: Result<[Announcement], FeedFailure> = await activity.perform {
            do { return .success(try await service.announcements()) } catch { return .failure(FeedFailure(error)) }
        }
        if case .success(let fetched) = result { announcements.ingest(fetched, fetchedAt: fetchedAt) }
        return result
    }

    /// Whether the announcement `id` shows as read on every screen (`isOn`), whether marking it
    /// read waits for the server, and the last refusal; `nil` for an announcement no screen or
    /// count has fetched.
    public func announcementRead(_ id: String) -> ToggleDisplay? {
        announcements.read(id)
    }

    /// Marks the announcement `id` read — optimistic, converging: every announcements screen
    /// shows it read at once, a refusal takes it back with the server's sentence (an
    /// ``Outcome``), and one the server could not be reached for waits and is sent again.
    /// Returns why nothing is sent (not known, or read already), or `nil`.
    package func markAnnouncementRead(_ id: String) -> String? {
        announcements.markRead(id)
    }

    /// Marks every unread announcement read, as ``markAnnouncementRead(_:)`` does each; returns
    /// their ids. Throws why nothing is sent when every one is read already.
    package func markAllAnnouncementsRead() throws(FeedFailure) -> [String] {
        try announcements.markAllRead()
    }
}
