import Feedline
import Foundation

/// What completing a word in a draft asks: `GET /api/v1/accounts/search` and `GET /api/v1/custom_emojis`.
extension MastodonHTTPService: ComposeSuggestionService {
    /// `GET /api/v1/accounts/search?q=PREFIX&limit=N&resolve=false`: the accounts the server
    /// knows whose handle or name starts so (it never looks up a remote one for a prefix).
    package func accounts(matching prefix: String, limit: Int) async throws -> [Author] {
        let what = "the accounts starting with \"\(Self.shown(prefix))\""
        let query = [
            URLQueryItem(name: "q", value: prefix), URLQueryItem(name: "limit", value: String(max(1, min(limit, 40)))),
            URLQueryItem(name: "resolve", value: "false"),
        ]
        let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/accounts/search", query: query), what: what))
        return try decode([Mastodon.Account].self, from: response, what: what).map(Author.init)
    }

    /// `GET /api/v1/custom_emojis`: the server's custom emoji.
    package func customEmoji() async throws -> [CustomEmoji] {
        let what = "the server's custom emoji"
        let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/custom_emojis"), what: what))
        return try decode([Mastodon.CustomEmoji].self, from: response, what: what).map(CustomEmoji.init)
    }
}

extension CustomEmoji {
    /// The core's emoji from Mastodon's.
    package init(_ emoji: Mastodon.CustomEmoji) {
        self.init(shortcode: emoji.shortcode, url: emoji.url, visibleInPicker: emoji.visibleInPicker, category: emoji.category)
    }
}
