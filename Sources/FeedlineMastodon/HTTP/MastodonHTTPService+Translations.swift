@_spi(FeedService) import Feedline
import Foundation

/// Translations: `POST /api/v1/statuses/:id/translate`, when the server offers them.
extension MastodonHTTPService {
    /// Reads `GET /api/v2/instance` once for `configuration.translation.enabled` (a server
    /// without a v2 description, or one that does not say, offers none: Mastodon added both in
    /// 4.0), then `POST /api/v1/statuses/:id/translate`: the post's text in the signed-in
    /// account's language. A server that offers none throws
    /// ``MastodonHTTPError/translationOff(server:)`` without asking; a 403 (a private post) or
    /// 503 (the provider failed) carries the server's sentence.
    @_spi(FeedService) public func translate(_ id: PostID) async throws -> PostTranslation {
        guard try await offersTranslations() else { throw MastodonHTTPError.translationOff(server: server.description) }
        let what = "the translation of post \(id)"
        let response = try await send(APIRequest(method: "POST", url: statusURL(id, "translate"), what: what))
        return PostTranslation(try decode(Mastodon.Translation.self, from: response, what: what))
    }

    /// Whether the server offers translations, from its v2 description (asked once; a failure
    /// for lack of a connection is asked again next time).
    private func offersTranslations() async throws -> Bool {
        if let known = translationOffered.withLock({ $0 }) { return known }
        let what = "the server's description"
        let offered: Bool
        do {
            let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v2/instance"), what: what))
            offered = try decode(Mastodon.Instance.self, from: response, what: what).configuration?.translation?.enabled ?? false
        } catch MastodonHTTPError.notFound {
            offered = false
        }
        translationOffered.withLock { $0 = offered }
        return offered
    }
}
