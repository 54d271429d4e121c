@testable import FeedlineMastodon
import FlyingFox
import Foundation

/// Announcements, as Mastodon 4 serves them: `GET /api/v1/announcements` (a user needed) answers
/// the active ones as `[Announcement]` with every field Mastodon sends (`mentions`, `statuses`,
/// `tags`, `emojis`, `reactions` included), `read` as the user left it; `POST
/// /api/v1/announcements/:id/dismiss` answers `{}`, a 404 ("Record not found") for one the server
/// has not, and a 403 when the token lacks `write:accounts` (``AnnouncementsState/forbidden``).
extension FakeMastodon {
    struct AnnouncementsState {
        /// The announcements, in the server's order: id, HTML content, published at, read at the start.
        var list: [(id: String, content: String, publishedAt: String, read: Bool)] = []
        /// The ids dismissed through the API, in order.
        var dismissed: [String] = []
        /// Whether a dismissal is refused for a missing scope.
        var forbidden = false
    }

    /// The server's announcements.
    func setAnnouncements(_ list: [(id: String, content: String, publishedAt: String, read: Bool)]) {
        state.withLock { $0.announcements.list = list }
    }

    /// Makes a dismissal a 403 (the token lacks `write:accounts`).
    func forbidDismissals() {
        state.withLock { $0.announcements.forbidden = true }
    }

    /// The ids dismissed so far, in order.
    var announcementsDismissed: [String] { state.withLock { $0.announcements.dismissed } }

    func announcementsRoute(_ request: Recorded) -> HTTPResponse? {
        let prefix = "/api/v1/announcements"
        guard request.path == prefix || request.path.hasPrefix(prefix + "/") else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        if request.method == "GET", request.path == prefix {
            return state.withLock { state in
                let values: [[String: Any]] = state.announcements.list.map { item in
                    [
                        "id": item.id, "content": item.content, "starts_at": NSNull(), "ends_at": NSNull(), "all_day": false,
                        "published_at": item.publishedAt, "updated_at": item.publishedAt,
                        "read": item.read || state.announcements.dismissed.contains(item.id),
                        "mentions": [[String: Any]](), "statuses": [[String: Any]](), "tags": [[String: Any]](), "emojis": [[String: Any]](),
                        "reactions": [["name": "🎉", "count": 3, "me": false] as [String: Any]],
                    ]
                }
                return Self.array(values)
            }
        }
        let rest = request.path.dropFirst(prefix.count + 1).split(separator: "/")
        guard request.method == "POST", rest.count == 2, rest[1] == "dismiss" else { return Self.error(404, "Record not found") }
        let id = String(rest[0])
        return state.withLock { state in
            if state.announcements.forbidden { return Self.error(403, "This action is outside the authorized scopes") }
            guard state.announcements.list.contains(where: { $0.id == id }) else { return Self.error(404, "Record not found") }
            state.announcements.dismissed.append(id)
            return Self.object([:])
        }
    }

    /// A JSON array of objects.
    static func array(_ values: [[String: Any]], status: Int = 200) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])) ?? Data("[]".utf8)
        return response(status, ["Content-Type": "application/json; charset=utf-8"], data)
    }
}
