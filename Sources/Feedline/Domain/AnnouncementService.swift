/// The instance's announcements: reading them and marking them read. Part of `FeedService`.
@_spi(FeedService) public protocol AnnouncementService: Sendable {
    /// The announcements active now, with whether the user read each, in the server's order
    /// (`GET /api/v1/announcements`, unpaged).
    func announcements() async throws -> [Announcement]

    /// Marks the announcement `id` read for the user (`POST /api/v1/announcements/:id/dismiss`).
    func dismissAnnouncement(_ id: String) async throws
}
