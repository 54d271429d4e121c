/// Translations: asked of the server once per post and shown under the original on every row
/// and detail of it — the entry keeps it, as it keeps a reveal — until the original is asked
/// for again.
extension PostStore {
    /// Asks the server for the translation of the post `id` names (its original) — at most one
    /// request per post on its way — and shows it on every row and detail of the post when it
    /// comes. How it went is an ``Outcome`` (``Outcome/Subject/translation(post:)``): done, or
    /// refused with the server's sentence. Returns why nothing was asked (the post is not known
    /// here), or `nil`; a post already translated or on its way asks nothing again.
    @discardableResult
    package func translate(_ id: PostID) -> FeedFailure? {
        guard let originalID = originalID(of: id), let entry = entries[originalID], entry.post != nil else {
            return FeedFailure(message: Self.unknownPostSentence, isTransient: false)
        }
        switch entry.translation {
        case .translating:
            return nil
        case .translated:
            outcomes?.emit(.done(.translation(post: originalID)))
            return nil
        case .original:
            setTranslation(.translating, of: originalID)
            translations.run(originalID)
            return nil
        }
    }

    /// Shows the original of the post `id` names again, without its translation, on every row
    /// and detail. Returns `false` for a post the store does not know, or one whose translation
    /// neither shows nor is on its way (nothing changes then).
    @discardableResult
    package func showOriginal(_ id: PostID) -> Bool {
        guard let originalID = originalID(of: id), let entry = entries[originalID], entry.post != nil, entry.translation != .original else {
            return false
        }
        translations.react(to: [], within: { $0 == originalID })
        setTranslation(.original, of: originalID)
        return true
    }

    /// The translation loop's effect: the service's answer for `id`.
    static func translation(of id: PostID, service: any FeedService) async -> (PostID, Result<PostTranslation, FeedFailure>) {
        do { return (id, .success(try await service.translate(id))) } catch { return (id, .failure(FeedFailure(error))) }
    }

    /// The server answered the translation of `id`: it shows (or the original stays), and the
    /// person hears how it went. A post the store forgot meanwhile only hears the outcome.
    func translated(_ id: PostID, _ result: Result<PostTranslation, FeedFailure>) {
        switch result {
        case .success(let translation):
            if entries[id]?.translation == .translating { setTranslation(.translated(translation), of: id) }
            outcomes?.emit(.done(.translation(post: id)))
        case .failure(let failure):
            if entries[id]?.translation == .translating { setTranslation(.original, of: id) }
            outcomes?.emit(.refused(.translation(post: id), sentence: failure.message))
        }
    }

    /// Sets the translation state of the original `id` and tells every holder of it.
    private func setTranslation(_ state: TranslationState, of id: PostID) {
        guard let entry = entries[id] else { return }
        let before = (entry.post, entry.display)
        entry.translation = state
        changed(id, entry, before: before)
    }
}
