@_spi(FeedService) import Feedline

/// Translations, as Mastodon serves them: the scenario's (``SandboxScenario/translations``).
extension SandboxService {
    /// The translation of post `id` (its original) the scenario gives, with its HTML made text
    /// as a post's is. Refused as Mastodon refuses it — a private or direct post (403, "This
    /// action is not allowed") — and with a sentence for a post the fixtures translate not.
    @_spi(FeedService) public func translate(_ id: PostID) async throws -> PostTranslation {
        try await perform(.translate, postID: id) { state, _, _ throws(SandboxError) in
            let original = try state.store.original(of: id.rawValue)
            guard original.visibility == .public || original.visibility == .unlisted else { throw .refused("This action is not allowed") }
            guard let translation = state.scenario.translations[original.id] else {
                throw .refused("The sandbox has no translation of this post: its fixtures translate only some posts not in English.")
            }
            return PostTranslation(translation)
        }
    }
}
