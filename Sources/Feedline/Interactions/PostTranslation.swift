/// A machine translation of a post's text, as the server made it (Mastodon's `Translation`:
/// `content`, `detected_source_language`, `provider`). A front reads it through
/// ``PostInteraction/translatedText``, ``PostInteraction/translatedFrom`` and
/// ``PostInteraction/translatedBy``.
@_spi(FeedService) public struct PostTranslation: Hashable, Sendable {
    /// The translated text, plain (a service turns the server's HTML into text as it does a
    /// post's content).
    public var text: String
    /// The translated content warning, when the post has one.
    public var contentWarning: String?
    /// The language the text was translated from, as the provider detected it (ISO 639).
    public var sourceLanguage: String?
    /// Who translated it ("DeepL.com", "LibreTranslate").
    public var provider: String?

    /// A translation of `text` (and `contentWarning`) from `sourceLanguage` by `provider`.
    public init(text: String, contentWarning: String? = nil, sourceLanguage: String? = nil, provider: String? = nil) {
        self.text = text
        self.contentWarning = contentWarning
        self.sourceLanguage = sourceLanguage
        self.provider = provider
    }
}

/// Where a post's translation stands in the store: shared, like a reveal, by every row and
/// detail of the post.
package enum TranslationState: Hashable, Sendable {
    /// The original shows (nothing asked, or ``FeedSession/showOriginal(post:)``).
    case original
    /// Asked of the server; the original shows meanwhile.
    case translating
    /// The translation shows under the original.
    case translated(PostTranslation)
}
