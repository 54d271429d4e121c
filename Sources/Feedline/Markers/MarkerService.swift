import Foundation

/// A timeline whose reading position a server keeps (Mastodon's markers). Package: the marker
/// machinery (`MarkerSync`, the start rules) is the session keeper's, not a front's.
package enum MarkerTimeline: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The home timeline: the marker names a post entry.
    case home
    /// The notifications: the marker names a notification.
    case notifications

    package var description: String { rawValue }
}

/// A reading position as a server keeps it: the last item read, and when it was saved.
package struct ServerMarker: Hashable, Sendable {
    /// The last post entry (home) or notification (notifications) read.
    package var id: ItemID
    /// When the marker was last saved (`nil` when the server did not say): the item it names
    /// is no newer than that.
    package var updatedAt: Date?

    package init(id: ItemID, updatedAt: Date? = nil) {
        self.id = id
        self.updatedAt = updatedAt
    }
}

/// Where a server keeps reading positions, so that another device (or the next start) takes
/// up where the user left off: Mastodon's `GET`/`POST /api/v1/markers`. Implemented by the
/// HTTP client in `FeedlineMastodon` and by test doubles; `MarkerSync` calls it.
///
/// Calls may run concurrently, from any task. Errors should conform to `FeedServiceError`;
/// a save another device made at the same moment is reported by ``isConflict(_:)``.
package protocol MarkerService: Sendable {
    /// The positions the server keeps for `timelines`; a timeline without one is left out.
    func markers(for timelines: [MarkerTimeline]) async throws -> [MarkerTimeline: ServerMarker]

    /// Saves `id` as the last-read item of `timeline`.
    func saveMarker(_ id: ItemID, for timeline: MarkerTimeline) async throws

    /// Whether `error`, thrown by ``saveMarker(_:for:)``, says another save was being made at
    /// the same moment (Mastodon's 409), so the same save is worth sending again shortly.
    func isConflict(_ error: any Error) -> Bool

    /// Whether the item `id` is newer than `other` in `timeline`, as the server's ids tell
    /// (Mastodon's ids grow with time); `nil` when they cannot tell. `MarkerSync` saves a
    /// position only when it is known to be further on than what the server holds.
    func isNewer(_ id: ItemID, than other: ItemID, in timeline: MarkerTimeline) -> Bool?
}
