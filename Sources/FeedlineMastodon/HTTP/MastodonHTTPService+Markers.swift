import Feedline
import Foundation

extension MastodonHTTPService: MarkerService {
    static let markersPath = "/api/v1/markers"

    /// `GET /api/v1/markers?timeline[]=home&timeline[]=notifications`: the reading positions
    /// the server keeps. A timeline never saved is left out (the server sends `{}` for it).
    public func markers(for timelines: [MarkerTimeline]) async throws -> [MarkerTimeline: ServerMarker] {
        guard !timelines.isEmpty else { return [:] }
        let what = "your reading positions"
        let query = timelines.map { URLQueryItem(name: "timeline[]", value: $0.rawValue) }
        let response = try await send(APIRequest(method: "GET", url: server.url(path: Self.markersPath, query: query), what: what))
        let answer = try decode([String: Mastodon.Marker].self, from: response, what: what)
        var found: [MarkerTimeline: ServerMarker] = [:]
        for timeline in timelines { if let marker = answer[timeline.rawValue] { found[timeline] = ServerMarker(id: ItemID(marker.lastReadID), updatedAt: marker.updatedAt) } }
        return found
    }

    /// `POST /api/v1/markers` with `home[last_read_id]` (or `notifications[last_read_id]`),
    /// form-encoded.
    public func saveMarker(_ id: ItemID, for timeline: MarkerTimeline) async throws {
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "\(timeline.rawValue)[last_read_id]", value: id.rawValue)]
        let body = Data((form.percentEncodedQuery ?? "").utf8)
        let what = "your reading position in \(timeline == .home ? "the home timeline" : "your notifications")"
        let response = try await send(APIRequest(method: "POST", url: server.url(path: Self.markersPath), what: what, form: body))
        _ = try decode([String: Mastodon.Marker].self, from: response, what: what)
    }

    /// A 409: Mastodon's answer when two saves of a marker meet.
    public func isConflict(_ error: any Error) -> Bool {
        if case .unexpectedStatus(409, _)? = error as? MastodonHTTPError { return true }
        return false
    }
}
