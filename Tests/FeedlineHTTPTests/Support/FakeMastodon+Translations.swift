@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FlyingFox
import Foundation

/// Translations, as Mastodon 4 serves them: `POST /api/v1/statuses/:id/translate` answers a
/// `Translation` (`content` HTML, `spoiler_text`, `detected_source_language`, `provider`) when the
/// server's description says `configuration.translation.enabled` (``offerTranslations(_:)``
/// sets both); 404 when it offers none (Mastodon's `NotConfiguredError`), 403 "This action is
/// not allowed" for a private or direct status, 503 when the provider has no answer for it.
extension FakeMastodon {
    /// The server translates: its v2 description says so, and it answers `translations` (by
    /// status id: HTML content, source language).
    func offerTranslations(_ translations: [String: (html: String, from: String)], spoiler: String? = nil) {
        state.withLock { state in
            state.streaming.description = Self.describing(translation: true)
            state.translations = translations.mapValues {
                Mastodon.Translation(content: $0.html, spoilerText: spoiler, detectedSourceLanguage: $0.from, provider: "DeepL.com")
            }
        }
    }

    /// A v2 description that says whether the server translates.
    static func describing(translation enabled: Bool) -> Mastodon.Instance {
        var instance = Mastodon.Instance(streaming: nil)
        instance.configuration?.translation = Mastodon.Instance.Configuration.Translation(enabled: enabled)
        return instance
    }

    func translationRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard request.method == "POST", parts.count == 5, parts[0...2] == ["api", "v1", "statuses"], parts[4] == "translate" else { return nil }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        return state.withLock { state in
            guard state.streaming.description?.configuration?.translation?.enabled == true else { return Self.error(404, "Record not found") }
            guard let status = state.server.original(of: parts[3]) else { return Self.error(404, "Record not found") }
            guard status.visibility == .public || status.visibility == .unlisted else { return Self.error(403, "This action is not allowed") }
            guard let translation = state.translations[status.id] else { return Self.error(503, "Translation service unavailable") }
            return Self.json(translation)
        }
    }
}
