/// Translating posts on a server: what the session's post store asks. Part of `FeedService`.
@_spi(FeedService) public protocol TranslationService: Sendable {
    /// The post `id` (an original's id) translated into the signed-in account's language
    /// (Mastodon's `POST /api/v1/statuses/:id/translate`). A server that offers no translations
    /// throws an error saying so, in a sentence a user can act on.
    func translate(_ id: PostID) async throws -> PostTranslation
}
