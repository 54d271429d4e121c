extension FeedSession {
    /// Shows the user's post the server just confirmed on every screen of the stack that should
    /// show it, at once: on top of home (not a direct message) and of the user's own profile,
    /// in every thread that shows the post it replies to, and in the replies of every open post
    /// whose thread holds that post; an edit reaches every row and detail of the post through
    /// the store. Lists not on the stack load it when opened.
    ///
    /// - Complexity: O(lists) plus the rows the post's store entry tells.
    func showOwn(_ post: Post, draft: Draft) {
        if let edited = draft.editing {
            store.endEdit(edited, confirmed: post)
            return
        }
        let local = PostID.sending(draft.id)
        // Deleted meanwhile (a lost answer, the post seen on a page and deleted, then the
        // answer to a retry): it is not shown again.
        guard !store.isDeleted(post.id) else {
            withdrawSending(draft)
            return
        }
        // The answer is the post as the server had it when it answered the request: a post the
        // store knows already (a lost answer whose post came on a page, and was edited since) is
        // as fresh there as this copy or fresher, so this copy only fills what the store lacks.
        store.ingest([post], fetchedAt: store.post(post.id) == nil ? store.beginFetch() : 0)
        for screen in navigator.screens {
            switch screen {
            case .list(let list):
                if list.rows.contains(.post(local)) {
                    // Shown while it was sent: that row becomes the post.
                    ListArrivals.ownConfirmed(local, post, in: list)
                } else if shouldShow(post, draft: draft, in: list) {
                    ListArrivals.ownPosted(post, into: list)
                }
            case .post(let detail):
                // A reply: in the thread of the post it answers (or of a post above that).
                detail.ownReplied(post, replacing: local)
            }
        }
        store.dropLocal(local, confirmedAs: post.id)
        conversations.ownPosted(post)
    }

    /// Whether `list` shows one's own new post: home (not a direct message), one's own profile,
    /// a thread that shows the post it replies to.
    private func shouldShow(_ post: Post, draft: Draft, in list: FeedListViewModel) -> Bool {
        let me = post.content.author
        switch list.source {
        case .feed(.home): return post.visibility != .direct
        case .feed(.account(let id)): return id.rawValue == me.id || id.handle?.lowercased() == me.handle.lowercased()
        case .thread: return draft.inReplyTo.map { !list.rows(showing: $0).isEmpty } ?? false
        default: return false
        }
    }

    /// Shows one's own new post on its way, at once, where it will be once posted (see
    /// ``showOwn(_:draft:)``), marked as sending (``PostRow/isSending``): a local copy under
    /// ``PostID/sending(_:)``, which the server's answer replaces in the same rows. Nothing
    /// when the signed-in account is not known yet (the post then shows once confirmed).
    func showSending(_ draft: Draft) {
        guard let me = drafts.settings?.account else { return }
        let post = Post(
            id: .sending(draft.id), author: me, text: draft.text, createdAt: clock.now(), contentWarning: draft.warning,
            poll: draft.poll.map { poll in
                Poll(options: poll.options.map { Poll.Option(title: $0, votes: 0) }, votesCount: 0, expired: false, multiple: poll.multiple)
            },
            inReplyToID: draft.inReplyTo, visibility: draft.visibility, language: draft.language
        )
        store.ingest([post], fetchedAt: store.beginFetch())
        for screen in navigator.screens {
            switch screen {
            case .list(let list): if shouldShow(post, draft: draft, in: list) { ListArrivals.ownSending(post, parent: draft.inReplyTo, into: list) }
            case .post(let detail): if draft.inReplyTo != nil { detail.ownReplied(post, replacing: nil) }
            }
        }
    }

    /// One's own post will not be posted (the server refused it): its sending rows go; the
    /// draft is kept with the reason.
    func withdrawSending(_ draft: Draft) {
        let local = PostID.sending(draft.id)
        for screen in navigator.screens {
            switch screen {
            case .list(let list): if list.rows.contains(.post(local)) { ListArrivals.ownWithdrawn(local, from: list) }
            case .post(let detail): detail.ownReplyWithdrawn(local)
            }
        }
        store.dropLocal(local, confirmedAs: nil)
    }

    /// Shows an edit on its way at once, on every row and detail of the post (boost rows too).
    func showEdit(_ draft: Draft) {
        guard let id = draft.editing else { return }
        store.showEdit(id, text: draft.text, contentWarning: draft.warning, at: clock.now())
    }

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
        case .success(let draft): outcomes.emit(Outcome(subject: .redraft(post: post, draft: draft), result: .done))
        case .failure(let failure): outcomes.emit(Outcome(subject: .redraft(post: post, draft: nil), result: .refused(failure.message)))
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
