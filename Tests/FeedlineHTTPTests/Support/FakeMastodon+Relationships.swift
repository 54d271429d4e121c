@_spi(FeedService) import Feedline
import FeedlineMastodon
import FlyingFox
import Foundation

/// The user's relationships as Mastodon serves them: `GET /api/v1/accounts/relationships?id[]=`
/// and the `POST /api/v1/accounts/:id/follow|unfollow|mute|unmute|block|unblock` that change
/// them (a follow of a locked account is a request; a block ends a follow; an account you block
/// cannot be followed). Nothing is set
/// until a test or a change sets it.
extension FakeMastodon {
    /// Sets the relationship with account `id` as the server starts with it.
    func setRelationship(_ relationship: Mastodon.Relationship) {
        state.withLock { $0.relationships[relationship.id] = relationship }
    }

    /// The relationship with account `id` as the server has it now.
    func relationship(_ id: String) -> Mastodon.Relationship {
        state.withLock { $0.relationships[id] } ?? Self.blank(id)
    }

    static func blank(_ id: String) -> Mastodon.Relationship {
        Mastodon.Relationship(id: id)
    }

    func relationships(_ request: Recorded) -> HTTPResponse {
        let ids = request.queryItems.compactMap { item -> String? in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] == "id[]" || parts[0] == "id%5B%5D" else { return nil }
            return parts[1]
        }
        let known = Set(knownAccounts().map(\.id))
        return Self.json(ids.filter(known.contains).map(relationship))
    }

    func changeRelationship(_ request: Recorded, accountID: String, action: String) -> HTTPResponse {
        guard let account = knownAccounts().first(where: { $0.id == accountID }) else { return Self.error(404, "Record not found") }
        var r = relationship(accountID)
        switch action {
        case "follow":
            // Mastodon's FollowService: no follow of an account you block (403).
            if r.blocking { return Self.error(403, "This action is not allowed") }
            if !r.following {
                if account.locked { r.requested = true } else { r.following = true }
            }
            // Notify and boosts are options of a follow, as Mastodon takes them.
            if let reblogs = request.json["reblogs"] as? Bool { r.showingReblogs = reblogs }
            if let notify = request.json["notify"] as? Bool { r.notifying = notify }
        case "unfollow":
            r.following = false
            r.requested = false
            r.notifying = false
        case "mute":
            r.muting = true
            r.mutingNotifications = true
        case "unmute":
            r.muting = false
            r.mutingNotifications = false
        case "block":
            r.blocking = true
            r.following = false
            r.requested = false
        case "unblock":
            r.blocking = false
        default:
            return unexpected(request)
        }
        setRelationship(r)
        return Self.json(r)
    }
}
