import FeedlineMastodon
import FlyingFox
import Foundation

/// Mastodon's markers: `GET /api/v1/markers?timeline[]=…` answers the asked timelines that have
/// a marker (`{}` when none), `POST /api/v1/markers` with `home[last_read_id]` and/or
/// `notifications[last_read_id]` saves them, counts their version up and answers the saved ones.
/// A conflict (409) is a canned answer a test queues (``FakeMastodon/fail(_:method:status:error:headers:)``).
extension FakeMastodon {
    /// When the fake's markers were saved: a fixed moment, after every fixture post.
    static let markerTime = Date(timeIntervalSince1970: 1_795_000_000)

    /// Sets the marker of `timeline` ("home", "notifications"), as another device would.
    func setMarker(_ timeline: String, to id: String, at time: Date = FakeMastodon.markerTime) {
        state.withLock { state in
            let version = (state.markers[timeline]?.version ?? 0) + 1
            state.markers[timeline] = Mastodon.Marker(lastReadID: id, version: version, updatedAt: time)
        }
    }

    /// The marker of `timeline`, if any.
    func marker(_ timeline: String) -> Mastodon.Marker? { state.withLock { $0.markers[timeline] } }

    func markersAnswer(_ request: Recorded) -> HTTPResponse {
        let asked = request.queryItems.compactMap { item -> String? in
            item.hasPrefix("timeline[]=") ? String(item.dropFirst("timeline[]=".count)) : nil
        }
        return state.withLock { state in
            Self.json(state.markers.filter { asked.contains($0.key) })
        }
    }

    func saveMarkers(_ request: Recorded) -> HTTPResponse {
        var saved: [String: Mastodon.Marker] = [:]
        for timeline in ["home", "notifications"] {
            guard let id = request.form["\(timeline)[last_read_id]"], !id.isEmpty else { continue }
            setMarker(timeline, to: id, at: Date())
            saved[timeline] = marker(timeline)
        }
        guard !saved.isEmpty else { return Self.error(422, "Validation failed: no timeline given") }
        return Self.json(saved)
    }
}
