@_spi(FeedService) import Feedline
import Foundation

/// The reading positions a Mastodon server keeps for the user (its markers): the markers
/// slice of ``ServerModel``.
///
/// Its laws, as Mastodon's: a read answers the asked timelines that have a marker and leaves
/// the others out; a save sets the timeline's marker to the id saved (whatever it was, even an
/// older one: the server does not order ids) and counts its version up.
package struct ServerMarkers: Hashable, Sendable {
    /// The marker of each timeline saved so far.
    package private(set) var markers: [MarkerTimeline: ServerMarker]
    /// How many times each timeline's marker was saved (Mastodon's `version`).
    package private(set) var versions: [MarkerTimeline: Int] = [:]

    package init(_ markers: [MarkerTimeline: ServerMarker] = [:]) {
        self.markers = markers
        for timeline in markers.keys { versions[timeline] = 1 }
    }

    /// The markers of `timelines` the server has.
    package func markers(for timelines: [MarkerTimeline]) -> [MarkerTimeline: ServerMarker] {
        markers.filter { timelines.contains($0.key) }
    }

    /// Saves `id` as the last item read in `timeline`, at `now`.
    package mutating func save(_ id: ItemID, for timeline: MarkerTimeline, at now: Date) {
        markers[timeline] = ServerMarker(id: id, updatedAt: now)
        versions[timeline, default: 0] += 1
    }

    /// Whether `id` is newer than `other` as a server's ids tell: Mastodon's grow with time and
    /// are compared as numbers, so a longer id is newer and ids of one length order as text
    /// (`"m5"` < `"m6"`, `"9"` < `"10"`).
    package static func isNewer(_ id: ItemID, than other: ItemID) -> Bool {
        (id.rawValue.count, id.rawValue) > (other.rawValue.count, other.rawValue)
    }
}

/// Mastodon's 409 on a marker save: another save of the same marker was being made at that
/// moment; worth sending again shortly.
package struct MarkerConflict: FeedServiceError, Hashable {
    package init() {}
    package var isTransient: Bool { true }
    package var errorDescription: String? { "Another save of the reading position was being made." }
}
