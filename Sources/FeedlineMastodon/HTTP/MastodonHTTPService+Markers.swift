@_spi(FeedService) import Feedline
import Foundation

extension MastodonHTTPService: MarkerService {
    static let markersPath = "/api/v1/markers"

    /// `GET /api/v1/markers?timeline[]=home&timeline[]=notifications`: the reading positions
    /// the server keeps. A timeline never saved is left out (the server sends `{}` for it).
    package func markers(for timelines: [MarkerTimeline]) async throws -> [MarkerTimeline: ServerMarker] {
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
    package func saveMarker(_ id: ItemID, for timeline: MarkerTimeline) async throws {
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "\(timeline.rawValue)[last_read_id]", value: id.rawValue)]
        let body = Data((form.percentEncodedQuery ?? "").utf8)
        let what = "your reading position in \(timeline == .home ? "the home timeline" : "your notifications")"
        let response = try await send(APIRequest(method: "POST", url: server.url(path: Self.markersPath), what: what, form: body))
        _ = try decode([String: Mastodon.Marker].self, from: response, what: what)
    }

    /// Mastodon's ids are integers that grow with time (snowflakes), sent as decimal strings:
    /// compared as numbers. `nil` when either is not a plain decimal number.
    package func isNewer(_ id: ItemID, than other: ItemID, in timeline: MarkerTimeline) -> Bool? {
        Self.compareDecimal(id.rawValue, other.rawValue).map { $0 == .orderedDescending }
    }

    /// Orders two decimal numbers of any length (`nil` unless both are digits only).
    static func compareDecimal(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        func digits(_ text: String) -> Substring? {
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            let trimmed = text.drop { $0 == "0" }
            return trimmed
        }
        guard let left = digits(lhs), let right = digits(rhs) else { return nil }
        if left.count != right.count { return left.count < right.count ? .orderedAscending : .orderedDescending }
        return left == right ? .orderedSame : (left < right ? .orderedAscending : .orderedDescending)
    }

    /// A 409: Mastodon's answer when two saves of a marker meet.
    package func isConflict(_ error: any Error) -> Bool {
        if case .unexpectedStatus(409, _)? = error as? MastodonHTTPError { return true }
        return false
    }
}
