import Feedline
import Foundation

extension Hashtag {
    /// The domain hashtag for a Mastodon one: the name as the server spells it, the week's use
    /// as the sums of `history`'s `uses` and `accounts` (an account that used it on two days
    /// counts twice, as Mastodon's own "people talking" does), `nil` without a `history`, and
    /// `following` as sent.
    public init(_ tag: Mastodon.Hashtag) {
        self.init(
            name: tag.name,
            weeklyUses: tag.history.map { $0.reduce(0) { $0 + $1.uses } },
            weeklyAccounts: tag.history.map { $0.reduce(0) { $0 + $1.accounts } },
            following: tag.following
        )
    }
}
