import Feedline
import FeedlineMastodon
import FlyingFox
import Foundation

/// What completing a word in a draft asks, with Mastodon's rules:
///
/// - `GET /api/v1/accounts/search`: `q` is required (400 when missing or blank, a leading `@`
///   dropped); accounts the server knows whose `acct` or username starts with it (without case),
///   an exact `acct` first, then by `acct`. `limit` is 40 by default, at most 80. `resolve=true`
///   needs a user (401), as Mastodon's controller says; `resolve` is never followed here.
/// - `GET /api/v1/custom_emojis`: the emoji the test gave (``serveCustomEmoji(_:)``), in that
///   order; no user needed.
extension FakeMastodon {
    /// Makes `emoji` the server's custom emoji.
    func serveCustomEmoji(_ emoji: [Mastodon.CustomEmoji]) {
        state.withLock { $0.customEmoji = emoji }
    }

    func suggestionsRoute(_ request: Recorded) -> HTTPResponse? {
        switch (request.method, request.path) {
        case ("GET", "/api/v1/accounts/search"):
            var query = Substring((request.query["q"] ?? "").trimmingCharacters(in: .whitespaces))
            while query.hasPrefix("@") { query.removeFirst() }
            guard !query.isEmpty else { return Self.error(400, "param is missing or the value is empty: q") }
            if request.query["resolve"] == "true", request.authorization == nil {
                return Self.error(401, "Search queries that resolve remote resources are not supported without authentication")
            }
            let wanted = query.lowercased()
            let matching = knownAccounts()
                .filter { $0.acct.lowercased().hasPrefix(wanted) || $0.username.lowercased().hasPrefix(wanted) }
                .sorted { ($0.acct.lowercased() == wanted ? 0 : 1, $0.acct) < ($1.acct.lowercased() == wanted ? 0 : 1, $1.acct) }
            return Self.json(Array(matching.prefix(Self.limit(request, default: 40, maximum: 80))))
        case ("GET", "/api/v1/custom_emojis"):
            return Self.json(state.withLock { $0.customEmoji })
        default:
            return nil
        }
    }
}
