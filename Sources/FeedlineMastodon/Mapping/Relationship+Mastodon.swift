@_spi(FeedService) import Feedline
import Foundation

extension Relationship {
    /// The domain relationship for a Mastodon one: every flag as the server sent it
    /// (`showing_reblogs` is ``Feedline/Relationship/showingBoosts``), the account id as is,
    /// and no ``Feedline/Relationship/mutingUntil``, which Mastodon's `Relationship` does not
    /// carry. `requested_by` (they asked to follow you) is ``Feedline/Relationship/requestedBy``;
    /// `endorsed` has no counterpart and is dropped.
    @_spi(FeedService) public init(_ relationship: Mastodon.Relationship) {
        self.init(
            accountID: AccountID(relationship.id),
            following: relationship.following,
            requested: relationship.requested,
            followedBy: relationship.followedBy,
            muting: relationship.muting,
            mutingNotifications: relationship.mutingNotifications,
            mutingUntil: nil,
            blocking: relationship.blocking,
            blockedBy: relationship.blockedBy,
            domainBlocking: relationship.domainBlocking,
            notifying: relationship.notifying,
            showingBoosts: relationship.showingReblogs,
            note: relationship.note,
            requestedBy: relationship.requestedBy
        )
    }
}
