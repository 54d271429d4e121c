extension FeedSession {
    /// Votes for `choices` (0-based) in the poll of the post `id` names: at once on every row
    /// and detail of it, at most one vote per poll on its way, the server's poll when it
    /// answers, and — refused — the poll as the server has it (see ``post(_:)``). Returns why
    /// the vote was not sent (the post is not known, the poll ended, you voted, no such
    /// choice…), or `nil`; how a sent vote went is an ``Outcome``
    /// (``Outcome/Subject/vote(post:choices:)``: done, or refused with the server's sentence).
    @discardableResult
    public func vote(post id: PostID, choices: [Int]) -> FeedFailure? {
        store.vote(id, choices: choices, now: clock.now())
    }

    /// Every version of the post `id` names, oldest first (its edit history), from the server.
    /// (The JSON-lines front answers with them; an app shows the ``ListSource/history(_:)`` list.)
    package func history(of id: PostID) async throws -> [PostVersion] {
        let original = store.originalID(of: id) ?? id
        let service = service
        let result: Result<[PostVersion], FeedFailure> = await activity.perform {
            do { return .success(try await service.history(of: original)) } catch { return .failure(FeedFailure(error)) }
        }
        return try result.get()
    }

    /// Deletes the user's post `id` names and makes a new draft of it (a redraft): its text as
    /// typed (asked of the server first), attachments, poll choices, reply target, visibility,
    /// content warning and language. The delete is the same as ``delete(post:)``'s (its own
    /// ``Outcome``); the draft is made once the server confirmed it. How it went is an
    /// ``Outcome`` (``Outcome/Subject/redraft(post:draft:)``): done with the new draft, or
    /// refused with why nothing happened (the source could not be loaded: nothing was deleted;
    /// or the delete failed). Returns why it did not start (the post is not known), or `nil`.
    @discardableResult
    public func redraft(post id: PostID) -> FeedFailure? {
        guard let post = store.post(id) else {
            return FeedFailure(message: PostStore.unknownPostSentence, isTransient: false)
        }
        let original = post.id
        drafts.loadSource(of: original) { [weak self] source in
            guard let self else { return }
            switch source {
            case .failure(let failure):
                redrafted(original, .failure(failure))
            case .success(let source):
                if let refusal = deletionRefusal(of: original) {
                    redrafted(original, .failure(refusal))
                    return
                }
                store.deleteOwn(original) { [weak self] result in
                    guard let self else { return }
                    switch result {
                    case .failure(let failure): redrafted(original, .failure(failure))
                    case .success:
                        drafts.adopt(Draft.redraft(of: post, source: source, id: DraftID(""), createdAt: clock.now()))
                        if let made = drafts.lastAdopted { redrafted(original, .success(made)) }
                    }
                }
            }
        }
        return nil
    }

    /// Tells how the redraft of `post` went.
    private func redrafted(_ post: PostID, _ result: Result<DraftID, FeedFailure>) {
        switch result {
        case .success(let draft): outcomes.emit(.done(.redraft(post: post, draft: draft)))
        case .failure(let failure): outcomes.emit(.refused(.redraft(post: post, draft: nil), sentence: failure.message))
        }
    }

    /// Deletes the user's post `id` names (a boost row: its original), optimistically: at
    /// once the post leaves every list on the stack — its boosts and notifications about it
    /// too — and every open detail of it says it was deleted, as a stream's delete does (see
    /// `apply(_:)`); a page on its way does not bring it back. If the server refuses (or
    /// cannot be reached), every row comes back where it was and the details load it again.
    /// How it went is an ``Outcome`` (``Outcome/Subject/deletion(post:)``, the original's id):
    /// done, or refused with the server's sentence. Returns why it was not sent (the post is
    /// known to be someone else's: nothing leaves the screens), or `nil`.
    @discardableResult
    public func delete(post id: PostID) -> FeedFailure? {
        let original = store.originalID(of: id) ?? id
        if let refusal = deletionRefusal(of: original) { return refusal }
        store.deleteOwn(original)
        return nil
    }

    /// Why the post `original` cannot be deleted: it is known to be someone else's.
    private func deletionRefusal(of original: PostID) -> FeedFailure? {
        guard let me = drafts.settings?.account, let post = store.post(original), post.author.id != me.id else { return nil }
        return FeedFailure(message: "Only your own posts can be deleted; this one is by @\(post.author.handle).", isTransient: false)
    }
}
