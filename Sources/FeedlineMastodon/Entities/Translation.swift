import Foundation

extension Mastodon {
    /// `POST /api/v1/statuses/:id/translate` (Mastodon 4.0 and later): a post's text machine
    /// translated into the signed-in account's language. What Feedline reads of it.
    public struct Translation: Codable, Hashable, Sendable {
        /// HTML, as a post's `content`.
        public var content: String
        /// The translated content warning (Mastodon 4.2 and later); empty or absent for none.
        public var spoilerText: String?
        /// The language of the original, as the provider detected it (ISO 639).
        public var detectedSourceLanguage: String?
        /// Who translated it ("DeepL.com").
        public var provider: String?

        enum CodingKeys: String, SnakeCaseKey {
            case content, spoilerText, detectedSourceLanguage, provider
        }
    }
}
