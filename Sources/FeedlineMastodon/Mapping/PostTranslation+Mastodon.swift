@_spi(FeedService) import Feedline

extension PostTranslation {
    /// A server's translation as Feedline keeps it: its HTML made text as a post's content is
    /// (``HTMLText/plainText(from:hidingQuoteFallback:)``), an empty content warning `nil`.
    init(_ translation: Mastodon.Translation) {
        let warning = HTMLText.plainText(from: translation.spoilerText ?? "")
        self.init(
            text: HTMLText.plainText(from: translation.content),
            contentWarning: warning.isEmpty ? nil : warning,
            sourceLanguage: translation.detectedSourceLanguage.flatMap { $0.isEmpty ? nil : $0 },
            provider: translation.provider.flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}
