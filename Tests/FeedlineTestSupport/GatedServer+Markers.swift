@_spi(FeedService) import Feedline
import Foundation

// The markers slice of the service (Mastodon's reading positions), answered from the model
// through the gates.

extension GatedServer: MarkerService {
    package func markers(for timelines: [MarkerTimeline]) async throws -> [MarkerTimeline: ServerMarker] {
        try await run(GatedCall(.markers, key: timelines.map(\.rawValue).joined(separator: ","))) { model in
            model.markers.markers(for: timelines)
        }
    }

    /// Saves at the model's ``ServerModel/now`` (a server's clock the test sets).
    package func saveMarker(_ id: ItemID, for timeline: MarkerTimeline) async throws {
        try await run(GatedCall(.saveMarker, key: timeline.rawValue, "\(timeline):\(id)")) { model in
            model.markers.save(id, for: timeline, at: model.now)
        }
    }

    package func isConflict(_ error: any Error) -> Bool { error is MarkerConflict }

    package func isNewer(_ id: ItemID, than other: ItemID, in timeline: MarkerTimeline) -> Bool? {
        ServerMarkers.isNewer(id, than: other)
    }
}
