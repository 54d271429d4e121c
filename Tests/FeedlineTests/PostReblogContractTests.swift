import Foundation
import Testing

import Feedline

/// The parts of `Post` that `FeedlineMastodon` relies on when it maps boosts: identity stays the
/// entry's, interaction state keys on the original, and a boost of a boost is flattened.
@Suite struct PostReblogContractTests {
    let alice = Author(id: "1", displayName: "Alice", handle: "alice")
    let bob = Author(id: "2", displayName: "Bob", handle: "bob@example.social")
    let carol = Author(id: "3", displayName: "", handle: "carol")
    let date = Date(timeIntervalSince1970: 1_763_630_102)

    @Test func aBoostKeepsItsOwnIdentityAndSharesTheOriginalsKey() {
        let original = Post(id: "100", author: alice, text: "hello", createdAt: date)
        let boost = Post(id: "200", author: bob, text: "", createdAt: date, reblog: original)
        #expect(boost.id == "200")
        #expect(boost.originalID == "100")
        #expect(boost.content == original)
        #expect(boost.boostedBy == bob)
        #expect(original.originalID == "100")
        #expect(original.boostedBy == nil)
    }

    @Test func settingABoostOfABoostStoresTheInnermostOriginal() {
        let original = Post(id: "100", author: alice, text: "hello", createdAt: date)
        let middle = Post(id: "200", author: bob, text: "", createdAt: date, reblog: original)
        var outer = Post(id: "300", author: carol, text: "", createdAt: date)
        outer.reblog = middle
        #expect(outer.reblog == original)
        #expect(outer.originalID == "100")
    }
}
