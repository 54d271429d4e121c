import Feedline
import Foundation

extension Hashtag {
    /// The domain hashtag for a Mastodon one: the name as the server spells it, the week's use
    /// as the sums of `history`'s `uses` and `accounts` (an account that used it on two days
    /// counts twice, as Mastodon's own "people talking" does), `nil` without a `history` or
    /// with an empty one (unknown is not zero), and `following` as sent.
    public init(_ tag: Mastodon.Hashtag) {
        let history = tag.history.flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            name: tag.name,
            weeklyUses: history.map { $0.reduce(0) { $0 + $1.uses } },
            weeklyAccounts: history.map { $0.reduce(0) { $0 + $1.accounts } },
            following: tag.following
        )
    }
}

extension Hashtag {
    /// The domain hashtag for one an account features: its name as the server spells it, how
    /// many of the account's posts use it (``accountPosts``) and when it last did (``lastUsed``).
    public init(featured tag: Mastodon.FeaturedTag) {
        self.init(name: tag.name, accountPosts: tag.statusesCount, lastUsed: tag.lastStatusAt)
    }
}
