@_spi(FeedService) import Feedline
@_spi(FeedService) @testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// The user's relationships as Mastodon serves them, kept by the model
/// (``ServerModel/relationships``, whose laws they follow): `GET /api/v1/accounts/relationships?id[]=`
/// and the `POST /api/v1/accounts/:id/follow|unfollow|mute|unmute|block|unblock` that change
/// them (a follow of a locked account is a request; a block ends both follows; an account you
/// block cannot be followed: 403). A follow carries Mastodon's `reblogs` and `notify` options;
/// a mute its `notifications` and `duration`. Nothing is set until a test or a change sets it.
extension FakeMastodon {
    /// Sets the relationship with account `id` as the server starts with it.
    func setRelationship(_ relationship: Mastodon.Relationship) {
        state.withLock { state in
            state.server.relationships.byAccount[AccountID(relationship.id)] = Relationship(relationship)
            state.recordListChanges(of: AccountID(relationship.id))
        }
    }

    /// The relationship with account `id` as the server has it now.
    func relationship(_ id: String) -> Mastodon.Relationship {
        state.withLock { Self.mastodon($0.server.relationships.relationship(of: AccountID(id))) }
    }

    /// `relationship` as Mastodon sends it: `showing_reblogs` only with a follow (or a request).
    static func mastodon(_ relationship: Relationship) -> Mastodon.Relationship {
        Mastodon.Relationship(
            id: relationship.accountID.rawValue, following: relationship.following,
            showingReblogs: relationship.showingBoosts && (relationship.following || relationship.requested), notifying: relationship.notifying,
            followedBy: relationship.followedBy, blocking: relationship.blocking, blockedBy: relationship.blockedBy, muting: relationship.muting,
            mutingNotifications: relationship.mutingNotifications, requested: relationship.requested, requestedBy: relationship.requestedBy,
            domainBlocking: relationship.domainBlocking, note: relationship.note
        )
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
        let id = AccountID(accountID)
        let body = request.json
        var changes: [(RelationshipKind, Bool)]
        var mute = MuteOptions()
        switch action {
        case "follow":
            // Notify and boosts are options of a follow, as Mastodon takes them.
            changes = [(.follow, true)]
            if let reblogs = body["reblogs"] as? Bool { changes.append((.boosts, reblogs)) }
            if let notify = body["notify"] as? Bool { changes.append((.notify, notify)) }
        case "unfollow": changes = [(.follow, false)]
        case "mute":
            changes = [(.mute, true)]
            let seconds = (body["duration"] as? Int).flatMap { $0 > 0 ? $0 : nil }
            mute = MuteOptions(duration: seconds.map { .seconds($0) }, notifications: body["notifications"] as? Bool ?? true)
        case "unmute": changes = [(.mute, false)]
        case "block": changes = [(.block, true)]
        case "unblock": changes = [(.block, false)]
        default: return unexpected(request)
        }
        return state.withLock { state in
            var model = state.server.relationships
            if account.locked { model.locked.insert(id) }
            do {
                for (kind, value) in changes { _ = try model.set(kind, to: value, of: id, mute: mute, at: Date()) }
            } catch {
                // Mastodon's FollowService: no follow of an account you block.
                return Self.error(403, "This action is not allowed")
            }
            state.server.relationships = model
            state.recordListChanges(of: id)
            return Self.json(Self.mastodon(model.relationship(of: id)))
        }
    }
}
