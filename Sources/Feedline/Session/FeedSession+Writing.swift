extension FeedSession {
    /// Shows the user's post the server just confirmed on every screen of the stack that should
    /// show it, at once: on top of home (not a direct message) and of the user's own profile,
    /// and in every thread that shows the post it replies to; an edit reaches every row and
    /// detail of the post through the store. Lists not on the stack load it when opened.
    ///
    /// - Complexity: O(lists) plus the rows the post's store entry tells.
    func showOwn(_ post: Post, draft: Draft) {
        store.ingest([post], fetchedAt: store.beginFetch())
        guard draft.editing == nil else { return }
        let me = post.content.author
        for case .list(let list) in navigator.screens {
            switch list.source {
            case .feed(.home):
                if post.visibility != .direct { list.ownPosted(post) }
            case .feed(.account(let id)):
                if id.rawValue == me.id || id.handle?.lowercased() == me.handle.lowercased() { list.ownPosted(post) }
            case .thread:
                if let parent = draft.inReplyTo, !list.rows(showing: parent).isEmpty { list.ownPosted(post) }
            default:
                break
            }
        }
    }

    /// Deletes the user's post `id` names (a boost row: its original), optimistically: at
    /// once the post leaves every list on the stack — its boosts and notifications about it
    /// too — and every open detail of it says it was deleted, as a stream's delete does (see
    /// ``apply(_:)``); a page on its way does not bring it back. If the server refuses (or
    /// cannot be reached), every row comes back where it was and the details load it again.
    /// `report` hears how it went, on the main actor: the post as it was (for a redraft), or
    /// why it failed.
    public func delete(post id: PostID, then report: @escaping @MainActor @Sendable (Result<Post, FeedFailure>) -> Void) {
        let original = store.originalID(of: id) ?? id
        let service = service
        store.deleting(original)
        activity.run { [weak self] in
            let result: Result<Post, FeedFailure>
            do {
                result = .success(try await service.delete(original))
            } catch {
                result = .failure(FeedFailure(error))
            }
            switch result {
            case .success: self?.store.deleteConfirmed(original)
            case .failure: self?.store.undelete(original)
            }
            report(result)
        }
    }
}
