@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FlyingFox
import FeedlineTestSupport
import Foundation

/// Mastodon's markers, kept by the model (``ServerModel/markers``): `GET /api/v1/markers?timeline[]=…`
/// answers the asked timelines that have a marker (`{}` when none), `POST /api/v1/markers` with
/// `home[last_read_id]` and/or `notifications[last_read_id]` saves them, counts their version up
/// and answers the saved ones. A conflict (409) is a canned answer a test queues
/// (``FakeMastodon/fail(_:method:status:error:headers:)``).
extension FakeMastodon {
    /// When the fake's markers were saved: a fixed moment, after every fixture post.
    static let markerTime = Date(timeIntervalSince1970: 1_795_000_000)

    /// Sets the marker of `timeline` ("home", "notifications"), as another device would.
    func setMarker(_ timeline: String, to id: String, at time: Date = FakeMastodon.markerTime) {
        guard let timeline = MarkerTimeline(rawValue: timeline) else { return }
        state.withLock { $0.server.markers.save(ItemID(id), for: timeline, at: time) }
    }

    /// The marker of `timeline`, if any, as Mastodon answers it.
    func marker(_ timeline: String) -> Mastodon.Marker? {
        guard let timeline = MarkerTimeline(rawValue: timeline) else { return nil }
        return state.withLock { Self.marker(timeline, of: $0.server.markers) }
    }

    private static func marker(_ timeline: MarkerTimeline, of markers: ServerMarkers) -> Mastodon.Marker? {
        markers.markers[timeline].map { Mastodon.Marker(lastReadID: $0.id.rawValue, version: markers.versions[timeline] ?? 0, updatedAt: $0.updatedAt) }
    }

    func markersAnswer(_ request: Recorded) -> HTTPResponse {
        let asked = request.queryItems.compactMap { item -> MarkerTimeline? in
            item.hasPrefix("timeline[]=") ? MarkerTimeline(rawValue: String(item.dropFirst("timeline[]=".count))) : nil
        }
        return state.withLock { state in
            var found: [String: Mastodon.Marker] = [:]
            for timeline in asked { found[timeline.rawValue] = Self.marker(timeline, of: state.server.markers) }
            return Self.json(found)
        }
    }

    func saveMarkers(_ request: Recorded) -> HTTPResponse {
        var saved: [String: Mastodon.Marker] = [:]
        for timeline in MarkerTimeline.allCases {
            guard let id = request.form["\(timeline.rawValue)[last_read_id]"], !id.isEmpty else { continue }
            setMarker(timeline.rawValue, to: id, at: Date())
            saved[timeline.rawValue] = marker(timeline.rawValue)
        }
        guard !saved.isEmpty else { return Self.error(422, "Validation failed: no timeline given") }
        return Self.json(saved)
    }
}
