extension FeedSession {
    /// Asks the server for the translation of the post `id` names (its original) and shows it
    /// under the original on every row and detail of the post, on every screen at once
    /// (``PostInteraction/translatedText``; ``PostInteraction/isTranslating`` meanwhile). How
    /// it went is an ``Outcome`` (``Outcome/Subject/translation(post:)``): done, or refused with
    /// the server's sentence — a server that offers no translations says so. Returns why nothing
    /// was asked (the post is not known here), or `nil`.
    @discardableResult
    public func translate(post id: PostID) -> FeedFailure? {
        store.translate(id)
    }

    /// Shows the original of the post `id` names again, without its translation, on every row
    /// and detail. Returns `false` when no translation of it shows or is on its way.
    @discardableResult
    public func showOriginal(post id: PostID) -> Bool {
        store.showOriginal(id)
    }
}
