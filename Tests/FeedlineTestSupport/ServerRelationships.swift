@_spi(FeedService) import Feedline
import Foundation

/// The signed-in user's relationships with other accounts as a Mastodon server keeps them, and
/// the profiles it knows: the relationships slice of ``ServerModel``.
///
/// Its laws (``set(_:to:of:mute:at:)``), as Mastodon's and the sandbox's:
/// - Setting what already holds changes nothing (asking twice is asking once).
/// - Follow then unfollow leaves no follow, no request and no post notifications.
/// - A follow of a locked account is a request; a follow of an account you block is refused.
/// - A block ends your follow and theirs; an unblock leaves both ended.
/// - Post notifications and boosts are only for accounts you follow (or asked to).
/// - Nobody relates to themselves.
package struct ServerRelationships: Sendable {
    /// The signed-in user.
    package var me: AccountID
    /// The relationships set so far, by account; an account not here has none.
    package var byAccount: [AccountID: Relationship] = [:]
    /// Accounts that approve their followers: a follow of one is a request.
    package var locked: Set<AccountID> = []
    /// The profiles the server knows, by account.
    package var profiles: [AccountID: Profile] = [:]
    /// The followers of other accounts than the user, by account (the user's are the
    /// relationships that say `followedBy`).
    package var followers: [AccountID: [AccountID]] = [:]
    /// The accounts each account features on its profile (Mastodon's endorsements), in order.
    package var endorsed: [AccountID: [AccountID]] = [:]
    /// The hashtags each account features on its profile, in order.
    package var featuredTags: [AccountID: [Hashtag]] = [:]
    /// Others who favourited or boosted an original, newest first, by the original's id (the
    /// user's own favourite or boost is the original's interactions).
    package var reacted: [PostID: [InteractionKind: [AccountID]]] = [:]

    package init(me: AccountID = AccountID(Post.signedInUser.id), _ relationships: [Relationship] = []) {
        self.me = me
        for relationship in relationships { byAccount[relationship.accountID] = relationship }
    }

    /// The relationship with `account` now: none set yet is the empty one.
    package func relationship(of account: AccountID) -> Relationship {
        byAccount[account] ?? Relationship(accountID: account)
    }

    /// The accounts whose relationship has `kind` on, in the order of their ids.
    package func accounts(with kind: RelationshipKind) -> [AccountID] {
        byAccount.values.filter { $0.isOn(kind) }.map(\.accountID).sorted { $0.rawValue < $1.rawValue }
    }

    /// Sets `kind` of the relationship with `account` to `value` by the laws above and returns
    /// the relationship afterwards; a mute ends `mute.duration` after `now`.
    ///
    /// - Throws: ``ServerRefusal`` for what Mastodon refuses; nothing changes then.
    package mutating func set(
        _ kind: RelationshipKind, to value: Bool, of account: AccountID, mute: MuteOptions = MuteOptions(), at now: Date = Date(timeIntervalSince1970: 0)
    ) throws(ServerRefusal) -> Relationship {
        guard account != me else { throw ServerRefusal("You cannot \(kind.verb(value)) yourself.") }
        var relationship = relationship(of: account)
        switch (kind, value) {
        case (.follow, true):
            guard !relationship.following, !relationship.requested else { break }
            if relationship.blocking { throw ServerRefusal("You have blocked \(account); unblock them before following them.") }
            relationship.notifying = false
            relationship.showingBoosts = true
            if locked.contains(account) { relationship.requested = true } else { relationship.following = true }
        case (.follow, false):
            Self.unfollow(&relationship)
        case (.mute, true):
            relationship.muting = true
            relationship.mutingNotifications = mute.notifications
            relationship.mutingUntil = mute.duration.map { now.addingTimeInterval(Double($0.components.seconds)) }
        case (.mute, false):
            relationship.muting = false
            relationship.mutingNotifications = false
            relationship.mutingUntil = nil
        case (.block, true):
            guard !relationship.blocking else { break }
            Self.unfollow(&relationship)
            relationship.blocking = true
            relationship.followedBy = false
            relationship.requestedBy = false
        case (.block, false):
            relationship.blocking = false
        case (.notify, _), (.boosts, _):
            guard relationship.isOn(kind) != value else { break }
            guard relationship.following || relationship.requested else {
                throw ServerRefusal("You do not follow \(account), so you cannot \(kind.verb(value)) them.")
            }
            if kind == .notify { relationship.notifying = value } else { relationship.showingBoosts = value }
        }
        byAccount[account] = relationship
        return relationship
    }

    /// Accepts (`accept`) or rejects `account`'s request to follow the user: it is answered
    /// either way, and only an accepted one follows.
    package mutating func answerFollowRequest(from account: AccountID, accept: Bool) -> Relationship {
        var relationship = relationship(of: account)
        relationship.requestedBy = false
        if accept { relationship.followedBy = true }
        byAccount[account] = relationship
        return relationship
    }

    private static func unfollow(_ relationship: inout Relationship) {
        relationship.following = false
        relationship.requested = false
        relationship.notifying = false
        relationship.showingBoosts = true
    }
}
