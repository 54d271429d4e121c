@_spi(FeedService) import Feedline
import Foundation
import Testing

/// A front reads how you relate to an account through its display alone (the server's
/// `Relationship` is a service's value): every field, `isOn` and `hidesTheirPosts`.
@Suite("A relationship as a front reads it")
struct RelationshipDisplayTests {
    @Test("the display answers every field of the relationship it shows, and isOn and hidesTheirPosts as it does")
    func forwardsEveryField() {
        let until = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let relationships = [
            Relationship(accountID: AccountID("1")),
            Relationship(
                accountID: AccountID("2"), following: true, requested: true, followedBy: true, muting: true, mutingNotifications: true,
                mutingUntil: until, blocking: true, blockedBy: true, domainBlocking: true, notifying: true, showingBoosts: false,
                note: "met at the pond", requestedBy: true
            ),
            Relationship(accountID: AccountID("3"), domainBlocking: true),
        ]
        for relationship in relationships {
            let display = RelationshipDisplay(relationship: relationship, pending: [.mute])
            #expect(display.accountID == relationship.accountID)
            #expect(display.following == relationship.following && display.requested == relationship.requested)
            #expect(display.followedBy == relationship.followedBy && display.requestedBy == relationship.requestedBy)
            #expect(display.muting == relationship.muting && display.mutingNotifications == relationship.mutingNotifications)
            #expect(display.mutingUntil == relationship.mutingUntil)
            #expect(display.blocking == relationship.blocking && display.blockedBy == relationship.blockedBy)
            #expect(display.domainBlocking == relationship.domainBlocking)
            #expect(display.notifying == relationship.notifying && display.showingBoosts == relationship.showingBoosts)
            #expect(display.note == relationship.note)
            for kind in RelationshipKind.allCases {
                #expect(display.isOn(kind) == relationship.isOn(kind), "\(kind)")
            }
            #expect(display.hidesTheirPosts == relationship.hidesTheirPosts)
        }
    }
}
