import Feedline
import Foundation

extension Profile {
    /// The profile for a Mastodon account.
    ///
    /// - The author is ``Feedline/Author/init(_:)``'s (custom emoji stay `:shortcode:`).
    /// - `note` (the bio) and each field's `value` are HTML and become plain text with
    ///   ``HTMLText/plainText(from:)``, as a post's text does; field names are plain text already
    ///   and are kept as sent. A field is verified when the server sent a `verified_at`.
    /// - Counts are the server's; `created_at` is when it joined; `moved` becomes
    ///   ``Feedline/Profile/movedTo``.
    public init(_ account: Mastodon.Account) {
        self.init(
            author: Author(account),
            bio: HTMLText.plainText(from: account.note),
            fields: account.fields.map { Field(name: $0.name, value: HTMLText.plainText(from: $0.value), verified: $0.verifiedAt != nil) },
            followersCount: account.followersCount,
            followingCount: account.followingCount,
            postsCount: account.statusesCount,
            joined: account.createdAt,
            bot: account.bot,
            locked: account.locked,
            group: account.group,
            movedTo: account.moved.map(Author.init)
        )
    }
}
