@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FlyingFox
import Foundation

/// Dismissing notifications, as Mastodon does (answers `{}`; needs a user, 401):
///
/// - `POST /api/v2/notifications/:group_key/dismiss`: the notifications of the group leave
///   (404 when the server has no grouped notifications, as ``groupedNotifications`` says).
/// - `POST /api/v1/notifications/:id/dismiss`: the one notification leaves (an unknown id is 404).
/// - `POST /api/v1/notifications/clear`: every notification leaves.
extension FakeMastodon {
    func dismissRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard request.method == "POST", parts.count >= 4, parts[0] == "api", parts[2] == "notifications" else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        switch (parts[1], parts.count) {
        case ("v1", 4) where parts[3] == "clear":
            state.withLock { $0.setNotifications([]) }
        case ("v1", 5) where parts[4] == "dismiss":
            let found = state.withLock { state in
                let kept = state.notifications.filter { $0.id != parts[3] }
                defer { state.setNotifications(kept) }
                return kept.count < state.notifications.count
            }
            guard found else { return Self.error(404, "Record not found") }
        case ("v2", 5) where parts[4] == "dismiss":
            guard groupedNotifications == .supported else { return Self.error(404, "Not Found") }
            state.withLock { state in
                let kept = zip(state.notifications, state.groupKeys).filter { $0.1 != parts[3] }.map(\.0)
                state.setNotifications(kept)
            }
        default:
            return nil
        }
        return Self.json([String: String]())
    }
}
