@_spi(FeedService) import Feedline
import Foundation

/// The instance's announcements:
///
/// - `GET /api/v1/announcements` (Mastodon 3.1 and later): a JSON array of `Announcement`, the
///   active ones, each with `read` for the signed-in user. Its `content` is HTML, made text as a
///   post's is.
/// - `POST /api/v1/announcements/:id/dismiss`: marks one read (an empty object answers). Needs
///   `write:accounts`: a 403 says to run `feedline login`; a 404 ("Record not found") is shown
///   with its sentence.
extension MastodonHTTPService {
    static let announcementsPath = "/api/v1/announcements"

    /// The active announcements, in the server's order.
    @_spi(FeedService) public func announcements() async throws -> [Announcement] {
        let what = "the server's announcements"
        let response = try await send(APIRequest(method: "GET", url: server.url(path: Self.announcementsPath), what: what))
        return try decode([Mastodon.Announcement].self, from: response, what: what).map(Announcement.init)
    }

    /// Marks the announcement `id` read.
    @_spi(FeedService) public func dismissAnnouncement(_ id: String) async throws {
        guard !id.isEmpty else { throw MastodonHTTPError.unprocessable(serverMessage: "there is no announcement to mark read") }
        let what = "marking the announcement \(id) read"
        let url = server.url(path: Self.announcementsPath + "/" + URLPath.encode(id) + "/dismiss")
        _ = try await writing { try await send(APIRequest(method: "POST", url: url, what: what)) }
    }
}
