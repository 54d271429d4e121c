/// What completing a word typed into a draft asks of a server, beyond `FeedService` (the
/// package's own services only: not part of the public face): accounts
/// by the start of their handle, and the server's custom emoji. A service that does not conform
/// leaves ``ComposeSuggestions`` to its `RelationshipService.search(_:after:)` for accounts and with
/// no emoji.
package protocol ComposeSuggestionService: Sendable {
    /// Up to `limit` accounts whose handle or name starts with `prefix` (no leading `@`), the
    /// server's best first, without looking up remote ones it does not know yet (Mastodon's
    /// `GET /api/v1/accounts/search?q=…&limit=…&resolve=false`).
    func accounts(matching prefix: String, limit: Int) async throws -> [Author]

    /// The server's custom emoji, as its emoji picker lists them (`GET /api/v1/custom_emojis`).
    func customEmoji() async throws -> [CustomEmoji]
}

/// One of a server's custom emoji: written `:shortcode:` in a post, shown as an image.
package struct CustomEmoji: Hashable, Sendable, Codable {
    /// The name between the colons, without them.
    package var shortcode: String
    /// The image's address (empty when the server sent none).
    package var url: String
    /// Whether the server offers it in its picker (one that does not is still usable).
    package var visibleInPicker: Bool
    /// The picker's category, if any.
    package var category: String?

    package init(shortcode: String, url: String = "", visibleInPicker: Bool = true, category: String? = nil) {
        self.shortcode = shortcode
        self.url = url
        self.visibleInPicker = visibleInPicker
        self.category = category
    }
}
