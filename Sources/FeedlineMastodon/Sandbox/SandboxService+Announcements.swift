@_spi(FeedService) import Feedline

/// The instance's announcements on the sandbox, as Mastodon answers `GET /api/v1/announcements`
/// and `POST /api/v1/announcements/:id/dismiss`: the scenario's announcements
/// (``SandboxScenario/announcements``), each read as the scenario says until it is dismissed
/// here. Each is a request of its own kind (``SandboxScenario/Request/announcements``,
/// ``SandboxScenario/Request/announcementDismiss``) with latency and faults like the others.
extension SandboxService {
    /// The scenario's announcements, in order, each read or not as it now stands. A scenario
    /// without announcements answers at once, as no request: fronts ask for them at every start,
    /// and a scenario that has none is neither slowed nor has its seeded draws moved by them.
    @_spi(FeedService) public func announcements() async throws -> [Announcement] {
        guard withState({ !$0.scenario.announcements.isEmpty }) else { return [] }
        return try await performOnAccounts(.announcements) { state, _ throws(SandboxError) in
            state.scenario.announcements.map { entity in
                var announcement = Announcement(entity)
                if state.announcementsRead.contains(entity.id) { announcement.read = true }
                return announcement
            }
        }
    }

    /// Marks the announcement `id` read.
    ///
    /// - Throws: ``SandboxError/refused(_:)`` for an announcement the scenario has not (as
    ///   Mastodon's 404 "Record not found"), or a scheduled fault.
    @_spi(FeedService) public func dismissAnnouncement(_ id: String) async throws {
        try await performOnAccounts(.announcementDismiss) { state, _ throws(SandboxError) in
            guard state.scenario.announcements.contains(where: { $0.id == id }) else { throw .refused("Record not found") }
            state.announcementsRead.insert(id)
        }
    }
}
